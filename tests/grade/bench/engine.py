#!/usr/bin/python3
"""A Max-Connect4 engine as a good student writes it, for make bench-grade:
alpha-beta on the score difference with the centre columns first, the
score kept up to date as discs are dropped (only the lines through the new
disc change), ties to the lowest column."""
import sys

ROWS, COLS = 6, 7
LINES = []
for r in range(ROWS):
    for c in range(COLS):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(r + i * dr) * COLS + c + i * dc for i in range(4)]
            if 0 <= r + 3 * dr < ROWS and 0 <= c + 3 * dc < COLS:
                LINES.append(cells)
THROUGH = [[line for line in LINES if cell in line] for cell in range(ROWS * COLS)]
ORDER = [3, 2, 4, 1, 5, 0, 6]


def gained(board, cell, p):
    return sum(1 for line in THROUGH[cell] if all(board[x] == p for x in line))


def search(board, heights, p, diff, depth, alpha, beta):
    """diff: player 1's score minus player 2's; the value for player p."""
    if depth == 0 or all(h == ROWS for h in heights):
        return diff if p == 1 else -diff
    for c in ORDER:
        if heights[c] == ROWS:
            continue
        cell = (ROWS - 1 - heights[c]) * COLS + c
        board[cell] = p
        heights[c] += 1
        g = gained(board, cell, p)
        v = -search(board, heights, 3 - p, diff + (g if p == 1 else -g), depth - 1, -beta, -alpha)
        heights[c] -= 1
        board[cell] = 0
        if v > alpha:
            alpha = v
            if alpha >= beta:
                break
    return alpha


def main():
    lines = open(sys.argv[1]).read().split()
    board = [int(ch) for line in lines[:ROWS] for ch in line]
    me = int(lines[ROWS])
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    heights = [sum(1 for r in range(ROWS) if board[r * COLS + c]) for c in range(COLS)]
    s1 = sum(1 for line in LINES if all(board[x] == 1 for x in line))
    s2 = sum(1 for line in LINES if all(board[x] == 2 for x in line))
    best, best_v = None, None
    for c in range(COLS):
        if heights[c] == ROWS:
            continue
        cell = (ROWS - 1 - heights[c]) * COLS + c
        board[cell] = me
        heights[c] += 1
        g = gained(board, cell, me)
        diff = s1 - s2 + (g if me == 1 else -g)
        lo = -10**6 if best_v is None else best_v
        v = -search(board, heights, 3 - me, diff, depth - 1, -10**6, -lo)
        heights[c] -= 1
        board[cell] = 0
        if best_v is None or v > best_v:
            best, best_v = c, v
    cell = (ROWS - 1 - heights[best]) * COLS + best
    board[cell] = me
    with open(sys.argv[2], "w") as f:
        for r in range(ROWS):
            f.write("".join(str(x) for x in board[r * COLS:(r + 1) * COLS]) + "\n")
        f.write(f"{3 - me}\n")


if __name__ == "__main__":
    main()
