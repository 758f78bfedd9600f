"""board.py - the Max-Connect4 board file, as docs/engines.md describes it.

Six lines of seven digits (0 empty, 1 and 2 the players' discs), the top
row first, then one line with the player to move. Shared by the two
quick-start engines.
"""
import sys

ROWS, COLS = 6, 7


def read(path):
    """Returns (grid, player): grid[r][c] with row 0 at the top."""
    with open(path) as f:
        lines = f.read().split()
    grid = [[int(ch) for ch in line] for line in lines[:ROWS]]
    return grid, int(lines[ROWS])


def write(path, grid, player):
    with open(path, "w") as f:
        for row in grid:
            f.write("".join(str(cell) for cell in row) + "\n")
        f.write(f"{player}\n")


def legal_columns(grid):
    return [c for c in range(COLS) if grid[0][c] == 0]


def drop(grid, col, player):
    """A new grid with player's disc dropped in col (which has room)."""
    new = [row[:] for row in grid]
    for r in range(ROWS - 1, -1, -1):
        if new[r][col] == 0:
            new[r][col] = player
            return new
    raise ValueError(f"column {col} is full")


def score(grid, player):
    """Max-Connect4's score: player's lines of four, in any direction."""
    points = 0
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= rr < ROWS and 0 <= cc < COLS and grid[rr][cc] == player
                       for rr, cc in cells):
                    points += 1
    return points


def main(choose):
    """An engine's command line: IN OUT [DEPTH]; choose(grid, player) is a column."""
    grid, player = read(sys.argv[1])
    col = choose(grid, player)
    write(sys.argv[2], drop(grid, col, player), 3 - player)
