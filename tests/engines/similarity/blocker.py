#!/usr/bin/python3
# blocker.py IN OUT [DEPTH] - Connect-4, similarity test field: take a win,
# else stop the opponent's, else stack on the tallest column that is not
# full (leftmost first).
import sys


def cells(path):
    text = open(path).read().split()
    board = [[int(ch) for ch in line] for line in text[:6]]
    return board, int(text[6])


def height(board, c):
    return sum(1 for r in range(6) if board[r][c] != 0)


def four(board, r, c, p):
    def count(dr, dc):
        n, rr, cc = 0, r + dr, c + dc
        while 0 <= rr < 6 and 0 <= cc < 7 and board[rr][cc] == p:
            n, rr, cc = n + 1, rr + dr, cc + dc
        return n
    return any(1 + count(dr, dc) + count(-dr, -dc) >= 4
               for dr, dc in [(0, 1), (1, 0), (1, 1), (-1, 1)])


def winning_column(board, legal, p):
    for c in legal:
        r = 5 - height(board, c)
        if four(board, r, c, p):
            return c
    return None


board, p = cells(sys.argv[1])
legal = [c for c in range(7) if height(board, c) < 6]
choice = winning_column(board, legal, p)
if choice is None:
    choice = winning_column(board, legal, 3 - p)
if choice is None:
    choice = max(legal, key=lambda c: (height(board, c), -c))
board[5 - height(board, choice)][choice] = p
out = open(sys.argv[2], "w")
for row in board:
    out.write("".join(str(v) for v in row) + "\n")
out.write(str(3 - p) + "\n")
out.close()
