# noundo.py one-move IN OUT DEPTH: a minimax that never undoes its moves,
# as in a public student solution: every cell it tried keeps its disc, so
# its answer to the empty board holds 41 discs of its own.
import sys

import board

rows, player = board.read(sys.argv[2])
tried = 0
for row in reversed(rows):
    for c in range(7):
        if row[c] == "0" and tried < 41:
            row[c] = player
            tried += 1
board.write(sys.argv[3], rows, "2" if player == "1" else "1")
