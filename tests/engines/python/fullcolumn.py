# fullcolumn.py one-move IN OUT DEPTH: always plays column 3, and when it is
# full its drop finds no empty cell and writes over the column's top disc.
import sys

import board

rows, player = board.read(sys.argv[2])
top = 0
for r in range(6):
    if rows[r][2] == "0":
        top = r
rows[top][2] = player
board.write(sys.argv[3], rows, "2" if player == "1" else "1")
