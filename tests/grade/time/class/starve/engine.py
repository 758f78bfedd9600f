#!/usr/bin/python3
"""A Max-Connect4 engine that computes for 150 ms of CPU time on CPU 0 at
the lowest priority, then plays the first open column (a test submission of
referee grade: e2e_gradetime starves it with a busy process on that CPU)."""
import os
import sys
import time

if __name__ == "__main__":
    os.sched_setaffinity(0, {0})
    os.nice(19)
    start = time.process_time()
    while time.process_time() - start < 0.15:
        pass
    lines = open(sys.argv[1]).read().split()
    grid = [list(line) for line in lines[:6]]
    me = lines[6]
    col = next(c for c in range(7) if grid[0][c] == "0")
    row = max(r for r in range(6) if grid[r][col] == "0")
    grid[row][col] = me
    with open(sys.argv[2], "w") as f:
        f.write("".join("".join(r) + "\n" for r in grid) + f"{3 - int(me)}\n")
