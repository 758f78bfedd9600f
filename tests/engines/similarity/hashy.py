#!/usr/bin/python3
# hashy.py IN OUT [DEPTH]: Connect-4, similarity test field. No strategy:
# a legal column picked by a hash of the board, so it is the same on the
# same board and unrelated to any other engine's choice.
import hashlib
import sys

src = open(sys.argv[1]).read()
parts = src.split()
grid = [list(s) for s in parts[:6]]
who = parts[6]
free = [c for c in range(7) if grid[0][c] == "0"]
h = int(hashlib.sha256(src.encode()).hexdigest(), 16)
col = free[h % len(free)]
r = 5
while grid[r][col] != "0":
    r -= 1
grid[r][col] = who
nxt = {"1": "2", "2": "1"}[who]
open(sys.argv[2], "w").write("\n".join("".join(g) for g in grid) + "\n" + nxt + "\n")
