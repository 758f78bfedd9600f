# printer.py one-move IN OUT DEPTH: a student's engine that prints the board
# after its move to stdout, as the course's sample program shows it, and
# never writes OUT.
import sys

import board

rows, player = board.read(sys.argv[2])
column = next(c for c in range(len(rows[0])) if rows[0][c] == "0")
board.drop(rows, column, player)
for row in rows:
    print("".join(row))
print("2" if player == "1" else "1")
