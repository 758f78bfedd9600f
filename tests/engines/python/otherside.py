# otherside.py one-move IN OUT DEPTH: reads the player line and then plays
# for the other player, a student's off-by-one between "me" and "you".
import sys

import board

rows, player = board.read(sys.argv[2])
other = "2" if player == "1" else "1"
board.drop(rows, 3, other)
board.write(sys.argv[3], rows, other)
