#!/usr/bin/python3
"""tree.py ATTACK N AMOUNT ENGINE ARGS...: an engine that hides work in a tree
of child processes, then plays ENGINE ARGS (a sound engine) in its place. The
referee must bill the whole tree and hold its limits over the whole tree
(test_e2e_cgroup.c): when the attack fails (the tree was killed), the engine
still plays, so the referee's verdict is what the test sees.

  unreaped  N children at once, each burning AMOUNT seconds of CPU; the
            engine waits for their ends with waitid(WNOWAIT) and never
            reaps them
  reaped    the same, reaped: what the work costs where it is all billed
            (the test's measure)
  chain     N children one after another, each burning AMOUNT seconds of
            CPU, each under a process CPU limit of its own
  memory    N children at once, each holding AMOUNT MiB (written, so
            resident) until all of them hold theirs
  spread    N children at once, each in a session of its own (the
            scheduler's autogroups then give each a share of its own),
            widening its affinity to every CPU (sched_setaffinity),
            writing `cpus LIST` (its Cpus_allowed_list) to stderr and
            spinning until it is killed; the engine plays after AMOUNT
            seconds, its children still spinning: a move that takes the
            machine's CPUs from whatever else runs
"""
import os
import subprocess
import sys
import time

MIB = 1 << 20
HOLD_S = 1.0


def burn(seconds):
    """Computes until this process has used seconds of CPU."""
    end = time.process_time() + seconds
    x = 0
    while time.process_time() < end:
        x += 1
    return x


def wait_unreaped(pid):
    """Waits for pid's end and leaves it a zombie."""
    try:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    except ChildProcessError:
        pass


def burners(n, seconds):
    pids = []
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            burn(seconds)
            os._exit(0)
        pids.append(pid)
    return pids


def unreaped(n, seconds):
    for pid in burners(n, seconds):
        wait_unreaped(pid)


def reaped(n, seconds):
    for pid in burners(n, seconds):
        os.waitpid(pid, 0)


def chain(n, seconds):
    if n == 0:
        return
    pid = os.fork()
    if pid == 0:
        burn(seconds)
        chain(n - 1, seconds)
        os._exit(0)
    wait_unreaped(pid)


def memory(n, mib):
    pids = []
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            held = b"\x01" * (mib * MIB)
            time.sleep(HOLD_S)
            os._exit(len(held) != mib * MIB)
        pids.append(pid)
    for pid in pids:
        os.waitpid(pid, 0)


def cpus_allowed():
    """This process's Cpus_allowed_list, as /proc/self/status says it."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("Cpus_allowed_list:"):
                return line.split()[1]
    return "?"


def spread(n, seconds):
    every = range(os.cpu_count())
    for _ in range(n):
        try:
            pid = os.fork()
        except OSError:   # a limit on processes: spin with what there is
            break
        if pid == 0:
            os.setsid()
            try:
                os.sched_setaffinity(0, every)
            except OSError:
                pass
            print(f"cpus {cpus_allowed()}", file=sys.stderr, flush=True)
            while True:
                pass
    time.sleep(seconds)


ATTACKS = {"unreaped": unreaped, "reaped": reaped, "chain": chain, "memory": memory,
           "spread": spread}

if __name__ == "__main__":
    attack, n, amount = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    ATTACKS[attack](n, amount if attack != "memory" else int(amount))
    sys.exit(subprocess.call(sys.argv[4:]))
