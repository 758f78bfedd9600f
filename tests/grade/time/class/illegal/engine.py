#!/usr/bin/python3
"""A fast Max-Connect4 engine whose every answer is illegal: it drops two
discs (a test submission of referee grade: its quick answers must not earn
a cpu check's points)."""
import sys

if __name__ == "__main__":
    lines = open(sys.argv[1]).read().split()
    grid = [list(line) for line in lines[:6]]
    me = lines[6]
    for _ in range(2):
        col = next(c for c in range(7) if grid[0][c] == "0")
        row = max(r for r in range(6) if grid[r][col] == "0")
        grid[row][col] = me
    with open(sys.argv[2], "w") as f:
        f.write("".join("".join(r) + "\n" for r in grid) + f"{3 - int(me)}\n")
