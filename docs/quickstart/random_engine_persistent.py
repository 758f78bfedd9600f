#!/usr/bin/python3
"""random_engine_persistent.py - random_engine.py's twin that stays for the
whole game (SPEC proto=persistent, docs/engines.md): started once, it reads
one request a line on stdin, `move IN OUT DEPTH TIME_LEFT_MS INC_MS`, writes
its move to OUT and answers `done`; `quit` (or the end of stdin) ends it.
It picks exactly the moves random_engine.py picks."""
import random
import sys

import board


def move(in_path, out_path):
    with open(in_path) as f:
        rng = random.Random(f.read())
    grid, player = board.read(in_path)
    col = rng.choice(board.legal_columns(grid))
    board.write(out_path, board.drop(grid, col, player), 3 - player)


if __name__ == "__main__":
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["quit"]:
            break
        if words[:1] == ["move"]:
            move(words[1], words[2])
            print("done", flush=True)
