# noplayer.py one-move IN OUT DEPTH: plays the lowest free column but
# forgets the line of the player to move, a common first-week bug.
import sys

import board

rows, player = board.read(sys.argv[2])
board.drop(rows, next(c for c in range(7) if rows[0][c] == "0"), player)
with open(sys.argv[3], "w") as f:
    f.write("".join("".join(row) + "\n" for row in rows))
