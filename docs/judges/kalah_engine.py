#!/usr/bin/env python3
"""Two Kalah engines for the referee (docs/judges.md), the rules from kalah.py:
    kalah_engine.py random SEED IN OUT   a legal move at random (SEED: {player})
    kalah_engine.py greedy IN OUT        the move leaving the most seeds in its
                                         store over the other's, an extra turn
                                         first, the lowest pit on ties
Each reads the board file IN and writes the board after its move to OUT.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kalah  # noqa: E402


def greedy(board):
    pits, stores, player = kalah.read(board)
    best, best_key = None, None
    for i, (_, child) in enumerate(kalah.children(board)):
        _, s, nxt = kalah.read(child)
        me = player - 1
        key = (nxt == player, s[me] - s[1 - me])
        if best_key is None or key > best_key:
            best, best_key = child, key
    return best


def main(argv):
    if len(argv) >= 4 and argv[1] == "random":
        rng = random.Random(argv[2] + open(argv[3]).read())
        child = rng.choice(kalah.children(open(argv[3]).read()))[1]
        out = argv[4]
    elif len(argv) >= 3 and argv[1] == "greedy":
        child = greedy(open(argv[2]).read())
        out = argv[3]
    else:
        sys.stderr.write("usage: kalah_engine.py random SEED IN OUT | greedy IN OUT\n")
        return 2
    with open(out, "w") as f:
        f.write(child)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
