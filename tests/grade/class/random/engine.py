#!/usr/bin/python3
"""A Max-Connect4 player of random legal moves, seeded by the board's text
(a test submission of referee grade)."""
import random
import sys

if __name__ == "__main__":
    text = open(sys.argv[1]).read()
    lines = text.split()
    grid = [list(line) for line in lines[:6]]
    me = lines[6]
    col = random.Random(text).choice([c for c in range(7) if grid[0][c] == "0"])
    row = max(r for r in range(6) if grid[r][col] == "0")
    grid[row][col] = me
    with open(sys.argv[2], "w") as f:
        f.write("".join("".join(row) + "\n" for row in grid) + f"{3 - int(me)}\n")
