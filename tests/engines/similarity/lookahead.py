#!/usr/bin/python3
"""lookahead.py IN OUT [DEPTH]: Connect-4, similarity test field. Minimax to
two plies (or DEPTH when smaller) on the difference of open threes and
twos, ties to the lowest column."""
import sys

THREE = 4
TWO = 1
WIN = 999


def lines():
    for r in range(6):
        for c in range(7):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + 3 * dr, c + 3 * dc
                if 0 <= end_r < 6 and 0 <= end_c < 7:
                    yield [(r + k * dr, c + k * dc) for k in range(4)]


LINES = list(lines())


def evaluate(g, p):
    q = 3 - p
    v = 0
    for line in LINES:
        a = [g[r][c] for r, c in line]
        if a.count(p) == 4:
            return WIN
        if a.count(q) == 4:
            return -WIN
        if a.count(q) == 0:
            v += THREE if a.count(p) == 3 else TWO if a.count(p) == 2 else 0
        if a.count(p) == 0:
            v -= THREE if a.count(q) == 3 else TWO if a.count(q) == 2 else 0
    return v


def moves(g):
    return [c for c in range(7) if g[0][c] == 0]


def drop(g, c, p):
    r = max(r for r in range(6) if g[r][c] == 0)
    g[r][c] = p
    return r


def search(g, p, depth):
    v = evaluate(g, p)
    if depth == 0 or abs(v) == WIN or not moves(g):
        return v, None
    best, best_c = None, None
    for c in moves(g):
        r = drop(g, c, p)
        value = -search(g, 3 - p, depth - 1)[0]
        g[r][c] = 0
        if best is None or value > best:
            best, best_c = value, c
    return best, best_c


def main():
    text = open(sys.argv[1]).read().split()
    g = [[int(ch) for ch in row] for row in text[:6]]
    p = int(text[6])
    depth = min(2, int(sys.argv[3])) if len(sys.argv) > 3 else 2
    _, c = search(g, p, max(1, depth))
    drop(g, c, p)
    with open(sys.argv[2], "w") as f:
        for row in g:
            f.write("".join(map(str, row)) + "\n")
        f.write("%d\n" % (3 - p))


main()
