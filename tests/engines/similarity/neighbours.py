#!/usr/bin/python3
"""neighbours.py IN OUT [DEPTH]: Connect-4, similarity test field. Plays
where its disc touches the most of its own discs (the eight neighbours),
then the fewest of the opponent's, ties to the leftmost column."""
import sys


def main(inp, outp):
    with open(inp) as f:
        tokens = f.read().split()
    b = [list(t) for t in tokens[:6]]
    me = tokens[6]
    other = "1" if me == "2" else "2"
    options = []
    for c in range(7):
        rs = [r for r in range(6) if b[r][c] == "0"]
        if not rs:
            continue
        r = rs[-1]
        own = opp = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                y, x = r + dr, c + dc
                if (dr or dc) and 0 <= y < 6 and 0 <= x < 7:
                    own += b[y][x] == me
                    opp += b[y][x] == other
        options.append((-own, opp, c, r))
    _, _, c, r = min(options)
    b[r][c] = me
    with open(outp, "w") as f:
        for row in b:
            print("".join(row), file=f)
        print(other, file=f)


main(sys.argv[1], sys.argv[2])
