#!/usr/bin/python3
"""panes.py IN OUT [DEPTH]: Connect-4, similarity test field. One ply: the
move whose board scores best over every window of four cells (own discs
in a window with none of the opponent's count their square), ties to the
rightmost column."""
import sys

WINDOWS = []
for r in range(6):
    for c in range(7):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(r + i * dr, c + i * dc) for i in range(4)]
            if all(0 <= y < 6 and 0 <= x < 7 for y, x in cells):
                WINDOWS.append(cells)


def score(board, me, them):
    total = 0
    for w in WINDOWS:
        mine = sum(board[y][x] == me for y, x in w)
        theirs = sum(board[y][x] == them for y, x in w)
        if mine == 4:
            return 10 ** 6
        if theirs == 0:
            total += mine * mine
        elif mine == 0:
            total -= theirs * theirs
    return total


rows = open(sys.argv[1]).read().split()
board = [list(x) for x in rows[:6]]
me = rows[6]
them = "2" if me == "1" else "1"
best, best_col = None, None
for col in range(7):
    if board[0][col] != "0":
        continue
    row = max(r for r in range(6) if board[r][col] == "0")
    board[row][col] = me
    value = score(board, me, them)
    board[row][col] = "0"
    if best is None or value >= best:
        best, best_col = value, col
row = max(r for r in range(6) if board[r][best_col] == "0")
board[row][best_col] = me
with open(sys.argv[2], "w") as out:
    out.write("\n".join("".join(x) for x in board) + "\n" + them + "\n")
