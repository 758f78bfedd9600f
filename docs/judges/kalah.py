#!/usr/bin/env python3
"""Kalah (six pits, four seeds) as an arena judge (docs/judges.md, protocol
arena-judge/1); kalah_engine.py plays it.

Board file, four lines:
    4 4 4 4 4 4     player 1's pits 1 to 6
    4 4 4 4 4 4     player 2's pits 1 to 6
    0 0             the stores of player 1 and player 2
    1               the player to move
Seeds are sown counter-clockwise: from a pit of one's own to the next pits,
one's own store, the other's pits 1 to 6 (never the other's store), and on.
The last seed in one's own store: the same player moves again. The last
seed in an empty pit of one's own whose opposite pit (the other's pit 7 - i)
holds seeds: both go to one's store. When the side to move has an empty
row, each side keeps the seeds of its own row and the game ends; the more
seeds in store wins, the margin is the difference. A move is the pit's
number, 1 to 6, listed in that order.
"""
import json
import sys

PROTOCOL = "arena-judge/1"
PITS, SEEDS = 6, 4


class BadBoard(Exception):
    def __init__(self, line, col, msg):
        super().__init__(msg)
        self.line, self.col, self.msg = line, col, msg


def numbers(text, lineno, want):
    out, col = [], 1
    for word in text.split(" "):
        if not word.isdigit():
            raise BadBoard(lineno, col, "expected a number of seeds, got '%s'" % word)
        out.append(int(word))
        col += len(word) + 1
    if len(out) != want:
        raise BadBoard(lineno, 1, "expected %d numbers, got %d" % (want, len(out)))
    return out


def read(text):
    """(pits[2][6], stores[2], player) of a board file, or BadBoard."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != 4:
        raise BadBoard(min(len(lines) + 1, 5), 1, "expected 4 lines, got %d" % len(lines))
    pits = [numbers(lines[0], 1, PITS), numbers(lines[1], 2, PITS)]
    stores = numbers(lines[2], 3, 2)
    if lines[3] not in ("1", "2"):
        raise BadBoard(4, 1, "the player to move must be 1 or 2")
    if sum(pits[0]) + sum(pits[1]) + sum(stores) != 2 * PITS * SEEDS:
        raise BadBoard(1, 1, "the board holds %d seeds, not %d"
                       % (sum(pits[0]) + sum(pits[1]) + sum(stores), 2 * PITS * SEEDS))
    return pits, stores, int(lines[3])


def write(pits, stores, player):
    return "%s\n%s\n%d %d\n%d\n" % (" ".join(map(str, pits[0])), " ".join(map(str, pits[1])),
                                   stores[0], stores[1], player)


def sow(pits, stores, player, pit):
    """The position after player sows pit (0-based), as (pits, stores, next player)."""
    pits = [pits[0][:], pits[1][:]]
    stores = stores[:]
    me, op = player - 1, 2 - player
    seeds, pits[me][pit] = pits[me][pit], 0
    side, i = me, pit
    while seeds:
        i += 1
        if side == me and i == PITS:
            stores[me] += 1
            seeds -= 1
            if not seeds:
                return pits, stores, player   # the last seed in one's store: again
            side, i = op, -1
            continue
        if side == op and i == PITS:
            side, i = me, 0
        pits[side][i] += 1
        seeds -= 1
    if side == me and pits[me][i] == 1 and pits[op][PITS - 1 - i] > 0:
        stores[me] += 1 + pits[op][PITS - 1 - i]
        pits[me][i] = pits[op][PITS - 1 - i] = 0
    return pits, stores, 3 - player


def finished(pits, stores, player):
    """The final stores when the side to move has an empty row, else None."""
    if sum(pits[player - 1]):
        return None
    return [stores[0] + sum(pits[0]), stores[1] + sum(pits[1])]


def children(board):
    """[(move text, child board)] of a board, in canonical order."""
    pits, stores, player = read(board)
    if finished(pits, stores, player):
        return []
    return [(str(i + 1), write(*sow(pits, stores, player, i)))
            for i in range(PITS) if pits[player - 1][i]]


def moves(board):
    pits, stores, player = read(board)
    final = finished(pits, stores, player)
    if final:
        w = 0 if final[0] == final[1] else 1 if final[0] > final[1] else 2
        return {"to_move": player, "over": True, "winner": w,
                "margin": abs(final[0] - final[1]), "moves": []}
    return {"to_move": player, "over": False,
            "moves": [{"move": m, "board": b} for m, b in children(board)]}


def verdict(board, answer):
    try:
        pits, stores, player = read(answer)
    except BadBoard as e:
        return {"legal": False, "reason": "unreadable: %d:%d: %s" % (e.line, e.col, e.msg)}
    before = read(board)
    if stores[0] < before[1][0] or stores[1] < before[1][1]:
        return {"legal": False, "reason": "tampered-board: a store lost seeds"}
    if player == before[2] and all(b != write(pits, stores, player) for _, b in children(board)):
        return {"legal": False, "reason": "wrong-player: player %d is still to move, with no "
                "extra turn" % player}
    return {"legal": False, "reason": "illegal-move: no sowing of player %d's pits gives it"
            % before[2]}


def answer(req):
    op = req.get("op")
    if op == "hello":
        return {"protocol": PROTOCOL, "game": "kalah",
                "start": write([[SEEDS] * PITS, [SEEDS] * PITS], [0, 0], 1)}
    if op == "moves":
        return moves(req["board"])
    if op == "parse":
        try:
            return {"board": write(*read(req["text"]))}
        except BadBoard as e:
            return {"error": e.msg, "line": e.line, "col": e.col}
    if op == "verdict":
        return verdict(req["board"], req["answer"])
    return {"error": "unknown op %r" % op}


def main():
    for line in sys.stdin:
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
