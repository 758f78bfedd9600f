#!/usr/bin/python3
# burner.py IN OUT DEPTH: a Max-Connect4 engine whose search costs nothing
# up to depth 1 and BURN_S seconds of CPU from depth 2 on, as a real search
# that got too deep would: referee bench's budget must stop it there. It
# plays the lowest open column.
import sys
import time

import board

BURN_S = 0.6


def main():
    rows, player = board.read(sys.argv[1])
    if int(sys.argv[3]) >= 2:
        start = time.process_time()
        while time.process_time() - start < BURN_S:
            pass
    column = next(c for c in range(7) if rows[0][c] == "0")
    board.drop(rows, column, player)
    board.write(sys.argv[2], rows, "2" if player == "1" else "1")


main()
