#!/usr/bin/python3
"""random_engine.py IN OUT [DEPTH] - a Max-Connect4 engine that drops its disc
in a random column. The generator is seeded with the board's text, so the
same board always gives the same move and the quick start's output repeats."""
import random
import sys

import board

if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        rng = random.Random(f.read())
    board.main(lambda grid, player: rng.choice(board.legal_columns(grid)))
