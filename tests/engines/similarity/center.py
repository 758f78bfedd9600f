#!/usr/bin/python3
"""center.py IN OUT [DEPTH]: a Connect-4 engine of the similarity test
field. It wins when it can, else plays the open column nearest the
centre."""
import sys

ORDER = [3, 2, 4, 1, 5, 0, 6]


def read(path):
    with open(path) as f:
        words = f.read().split()
    return [list(r) for r in words[:6]], words[6]


def land(grid, col):
    for row in range(5, -1, -1):
        if grid[row][col] == "0":
            return row
    return -1


def wins(grid, row, col, me):
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < 6 and 0 <= c < 7 and grid[r][c] == me:
                run += 1
                r, c = r + sign * dr, c + sign * dc
        if run >= 4:
            return True
    return False


def main():
    grid, me = read(sys.argv[1])
    open_cols = [c for c in ORDER if land(grid, c) >= 0]
    pick = open_cols[0]
    for c in open_cols:
        if wins(grid, land(grid, c), c, me):
            pick = c
            break
    grid[land(grid, pick)][pick] = me
    with open(sys.argv[2], "w") as f:
        f.write("".join("".join(r) + "\n" for r in grid))
        f.write(("2" if me == "1" else "1") + "\n")


main()
