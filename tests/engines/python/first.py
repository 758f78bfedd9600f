# first.py one-move IN OUT DEPTH: a student's Max-Connect4 / Connect-4 engine
# written from the README's board-file section. It imports a module beside
# it and reads its column order from columns.txt in its working directory,
# as students' engines read their weights: it runs only from its own folder.
import sys

import board


def main():
    if len(sys.argv) != 5 or sys.argv[1] != "one-move":
        sys.exit("usage: first.py one-move IN OUT DEPTH")
    with open("columns.txt") as f:
        order = [int(c) for c in f.read().split()]
    rows, player = board.read(sys.argv[2])
    column = next(c for c in order if rows[0][c] == "0")
    board.drop(rows, column, player)
    board.write(sys.argv[3], rows, "2" if player == "1" else "1")


main()
