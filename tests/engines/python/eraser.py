# eraser.py one-move IN OUT DEPTH: plays column 4, then "undoes" a disc it
# never played: the first disc of the bottom row beside its own is gone.
import sys

import board

rows, player = board.read(sys.argv[2])
board.drop(rows, 3, player)
for c in range(7):
    if c != 3 and rows[5][c] != "0":
        rows[5][c] = "0"
        break
board.write(sys.argv[3], rows, "2" if player == "1" else "1")
