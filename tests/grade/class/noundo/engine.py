#!/usr/bin/python3
"""A Max-Connect4 engine whose minimax never undoes a move in its search
(a bug: each root move searches a copy of the board that fills up as it
goes), on the score difference, ties to the lowest column (a test
submission of referee grade)."""
import sys

ROWS, COLS = 6, 7


def read(path):
    lines = open(path).read().split()
    return [[int(ch) for ch in line] for line in lines[:ROWS]], int(lines[ROWS])


def write(path, grid, player):
    with open(path, "w") as f:
        f.write("".join("".join(map(str, row)) + "\n" for row in grid) + f"{player}\n")


def score(grid, p):
    n = 0
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(0 <= r + i * dr < ROWS and 0 <= c + i * dc < COLS
                       and grid[r + i * dr][c + i * dc] == p for i in range(4)):
                    n += 1
    return n


def moves(grid):
    return [c for c in range(COLS) if grid[0][c] == 0]


def drop(grid, c, p):
    for r in range(ROWS - 1, -1, -1):
        if grid[r][c] == 0:
            grid[r][c] = p
            return r
    raise ValueError(f"column {c + 1} is full")


def search(grid, p, me, depth, alpha, beta):
    ms = moves(grid)
    if depth == 0 or not ms:
        return score(grid, me) - score(grid, 3 - me)
    values = []
    for c in ms:
        if grid[0][c] == 0:
            drop(grid, c, p)
        values.append(search(grid, 3 - p, me, depth - 1, alpha, beta))
    return max(values) if p == me else min(values)


def choose(grid, me, depth):
    best, best_v = None, None
    for c in moves(grid):
        child = [row[:] for row in grid]
        drop(child, c, me)
        v = search(child, 3 - me, me, depth - 1, -10**6 if best_v is None else best_v, 10**6)
        if best_v is None or v > best_v:
            best, best_v = c, v
    return best


if __name__ == "__main__":
    grid, me = read(sys.argv[1])
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    drop(grid, choose(grid, me, depth), me)
    write(sys.argv[2], grid, 3 - me)
