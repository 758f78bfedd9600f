# board.py - the board file of the README (six rows of seven digits, top row
# first, then the player to move), read and written as a student would.


def read(path):
    with open(path) as f:
        lines = f.read().split()
    return [list(line) for line in lines[:6]], lines[6]


def drop(rows, column, player):
    for row in reversed(rows):
        if row[column] == "0":
            row[column] = player
            return


def write(path, rows, to_move):
    with open(path, "w") as f:
        f.write("".join("".join(row) + "\n" for row in rows) + to_move + "\n")
