#!/usr/bin/python3
"""nim_first.py IN OUT [DEPTH]: a Nim engine in Python for the referee's
tests: takes one match from the first heap that has any."""
import sys

with open(sys.argv[1]) as f:
    heaps = [int(h) for h in f.readline().split()]
    player = int(f.readline())
first = next(i for i, h in enumerate(heaps) if h > 0)
heaps[first] -= 1
with open(sys.argv[2], "w") as f:
    f.write(" ".join(map(str, heaps)) + f"\n{3 - player}\n")
