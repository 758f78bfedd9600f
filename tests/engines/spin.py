#!/usr/bin/python3
"""spin.py SECONDS IN OUT [WORDS...]: a Nim engine for the referee's clock
tests that writes WORDS (its {time} {inc}, say) to stderr, then its CPUs as
`cpus LIST` (/proc/self/status's Cpus_allowed_list), burns SECONDS of CPU
time, then takes one match from the first heap that has any. With IN "-"
it stays for the game (proto=persistent): for each request on stdin it
writes the request to stderr and does the same."""
import sys
import time


def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def cpus_allowed():
    """This process's Cpus_allowed_list, as /proc/self/status says it."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("Cpus_allowed_list:"):
                return line.split()[1]
    return "?"


def play(in_path, out_path):
    with open(in_path) as f:
        heaps = [int(h) for h in f.readline().split()]
        player = int(f.readline())
    first = next(i for i, h in enumerate(heaps) if h > 0)
    heaps[first] -= 1
    with open(out_path, "w") as f:
        f.write(" ".join(map(str, heaps)) + f"\n{3 - player}\n")


SECONDS = float(sys.argv[1])
if sys.argv[2] != "-":
    print(" ".join(sys.argv[4:]), file=sys.stderr, flush=True)
    print(f"cpus {cpus_allowed()}", file=sys.stderr, flush=True)
    burn(SECONDS)
    play(sys.argv[2], sys.argv[3])
else:
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["move"]:
            print(line.strip(), file=sys.stderr, flush=True)
            burn(SECONDS)
            play(words[1], words[2])
            print("done", flush=True)
