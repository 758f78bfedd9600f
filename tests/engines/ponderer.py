#!/usr/bin/python3
"""ponderer.py N: a Nim engine that stays for the game (proto=persistent)
and would think outside its turn: at its first request it starts N child
processes that spin until they are killed, and plays soundly (one match from
the first heap that has any). At each later request, before anything else,
it writes to stderr

  out-of-turn CPU_MS WALL_MS

the CPU its spinners got since its previous `done` (their schedstat, all of
them) and the wall time in between: what a referee that freezes it between
its moves holds near 0, and one that lets it ponder bills to this move."""
import os
import sys
import time


def spin():
    while True:
        pass


def cpu_ms(pids):
    """CPU of pids so far (ms), from /proc/PID/schedstat's first field."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/schedstat") as f:
            total += int(f.read().split()[0])
    return total / 1e6


def play(in_path, out_path):
    with open(in_path) as f:
        heaps = [int(h) for h in f.readline().split()]
        player = int(f.readline())
    first = next(i for i, h in enumerate(heaps) if h > 0)
    heaps[first] -= 1
    with open(out_path, "w") as f:
        f.write(" ".join(map(str, heaps)) + f"\n{3 - player}\n")


def main():
    spinners = []
    mark = None   # (their CPU, wall) at the previous done
    for line in sys.stdin:
        words = line.split()
        if words[:1] != ["move"]:
            continue
        if mark:
            cpu, wall = cpu_ms(spinners), time.monotonic()
            print(f"out-of-turn {cpu - mark[0]:.1f} {(wall - mark[1]) * 1e3:.1f}",
                  file=sys.stderr, flush=True)
        if not spinners:
            for _ in range(int(sys.argv[1])):
                pid = os.fork()
                if pid == 0:
                    spin()
                spinners.append(pid)
        play(words[1], words[2])
        mark = (cpu_ms(spinners), time.monotonic())
        print("done", flush=True)


main()
