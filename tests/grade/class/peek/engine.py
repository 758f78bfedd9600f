#!/usr/bin/python3
"""A Max-Connect4 player that tries to read its neighbours' folders (a test
submission of referee grade): the original folder of the class, named in
neighbour.txt when the test sets the class up, and its own folder's
siblings. It plays the first legal column; if it saw a neighbour's file it
leaves the board unchanged instead, which the referee refuses, so a grade
below full points on legal means the sandbox leaked."""
import glob
import os
import sys

if __name__ == "__main__":
    seen = glob.glob("../../*/src/engine.py") + glob.glob("../*/engine.py")
    if os.path.exists("neighbour.txt"):
        seen += glob.glob(open("neighbour.txt").read().strip() + "/*")
    seen = [p for p in seen if os.path.realpath(p) != os.path.realpath("engine.py")]
    text = open(sys.argv[1]).read()
    lines = text.split()
    grid = [list(line) for line in lines[:6]]
    me = lines[6]
    if not seen:
        col = [c for c in range(7) if grid[0][c] == "0"][0]
        row = max(r for r in range(6) if grid[r][col] == "0")
        grid[row][col] = me
        me = str(3 - int(me))
    else:
        sys.stderr.write("saw " + " ".join(seen) + "\n")
    with open(sys.argv[2], "w") as f:
        f.write("".join("".join(row) + "\n" for row in grid) + me + "\n")
