#!/usr/bin/python3
# barrier.py IN OUT [DEPTH]
# Connect-4 engine for the similarity test field.
import sys


def load(filename):
    tokens = open(filename).read().split()
    grid = [[int(x) for x in row] for row in tokens[:6]]
    return grid, int(tokens[6])


def stack(grid, column):
    return sum(1 for row in range(6) if grid[row][column] != 0)


def connects(grid, row, column, player):
    def run(step_r, step_c):
        length = 0
        y = row + step_r
        x = column + step_c
        while 0 <= y < 6 and 0 <= x < 7 and grid[y][x] == player:
            length = length + 1
            y = y + step_r
            x = x + step_c
        return length

    for step_r, step_c in [(0, 1), (1, 0), (1, 1), (-1, 1)]:
        if 1 + run(step_r, step_c) + run(-step_r, -step_c) >= 4:
            return True
    return False


def finisher(grid, columns, player):
    for column in columns:
        if connects(grid, 5 - stack(grid, column), column, player):
            return column
    return None


grid, player = load(sys.argv[1])
columns = [column for column in range(7) if stack(grid, column) < 6]
move = finisher(grid, columns, player)
if move is None:
    move = finisher(grid, columns, 3 - player)
if move is None:
    move = max(columns, key=lambda column: (stack(grid, column), -column))
grid[5 - stack(grid, move)][move] = player
with open(sys.argv[2], "w") as handle:
    for row in grid:
        handle.write("".join(str(cell) for cell in row) + "\n")
    handle.write(str(3 - player) + "\n")
