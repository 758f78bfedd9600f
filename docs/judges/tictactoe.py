#!/usr/bin/env python3
"""Tic-tac-toe as an arena judge (docs/judges.md, protocol arena-judge/1).

The board file is the built-in game's: three rows of X, O or '.', then the
player to move (1: X, who starts; 2: O). Moves are named a1..c3 (column
letter, row number from the top) and listed in the built-in game's order,
a1 b1 c1 a2 ... c3, so the same engines and seed play the same games through
this judge as through `--game tictactoe`.
"""
import json
import sys

PROTOCOL = "arena-judge/1"
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
START = "...\n...\n...\n1\n"
# How referee report's HTML replay draws a board (optional): a grid of the
# board's characters, each cell of class "c" and the character's code (X is
# 88, O is 79), styled under the game's name, as the built-in game's.
DRAWING = {"layout": "grid",
           "style": ".tictactoe-judge{background:#333}.tictactoe-judge td{border-radius:0;"
                    "text-align:center;font:bold 20px sans-serif}"
                    ".tictactoe-judge td.c88::after{content:'X';color:#c22}"
                    ".tictactoe-judge td.c79::after{content:'O';color:#25a}"}


class BadBoard(Exception):
    def __init__(self, line, col, msg):
        super().__init__(msg)
        self.line, self.col, self.msg = line, col, msg


def read(text):
    """The cells and the player to move of a board file, or BadBoard."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != 4:
        raise BadBoard(min(len(lines), 4) + 1 if len(lines) < 4 else 5, 1,
                       "expected 3 rows and the player to move, got %d lines" % len(lines))
    cells = []
    for r in range(3):
        row = lines[r]
        if len(row) != 3:
            raise BadBoard(r + 1, 1, "row has %d cells, expected 3" % len(row))
        for c, ch in enumerate(row):
            if ch not in "XO.":
                raise BadBoard(r + 1, c + 1, "unexpected character '%s', expected X, O or ." % ch)
            cells.append(ch)
    if lines[3] not in ("1", "2"):
        raise BadBoard(4, 1, "the player to move must be 1 or 2")
    return cells, int(lines[3])


def write(cells, player):
    return "".join("".join(cells[3 * r:3 * r + 3]) + "\n" for r in range(3)) + "%d\n" % player


def winner(cells):
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return 1 if cells[a] == "X" else 2
    return 0


def summary(cells, player):
    """Whose turn, and whether and how the game is over."""
    w = winner(cells)
    if w or "." not in cells:
        return {"to_move": player, "over": True, "winner": w, "margin": 0}
    return {"to_move": player, "over": False}


def moves(board):
    cells, player = read(board)
    answer = summary(cells, player)
    answer["moves"] = []
    if answer["over"]:
        return answer
    mark = "X" if player == 1 else "O"
    for i in range(9):
        if cells[i] == ".":
            child = cells[:]
            child[i] = mark
            move = {"move": "%s%d" % ("abc"[i % 3], i // 3 + 1), "board": write(child, 3 - player)}
            move.update(summary(child, 3 - player))   # optional: saves a question
            answer["moves"].append(move)
    return answer


def verdict(board, answer):
    """Why answer is not board plus one legal move (the referee asks only then)."""
    try:
        after, side = read(answer)
    except BadBoard as e:
        return {"legal": False, "reason": "unreadable: %d:%d: %s" % (e.line, e.col, e.msg)}
    before, player = read(board)
    for i in range(9):
        if before[i] != "." and after[i] != before[i]:
            return {"legal": False, "reason": "tampered-board: changes the mark at %s%d"
                    % ("abc"[i % 3], i // 3 + 1)}
    added = [i for i in range(9) if before[i] == "." and after[i] != "."]
    mark = "X" if player == 1 else "O"
    if side == player or any(after[i] != mark for i in added):
        return {"legal": False, "reason": "wrong-player: plays for player %d on player %d's turn"
                % (3 - player if added else player, player)}
    return {"legal": False, "reason": "illegal-move: adds %d marks" % len(added)}


def answer(req):
    op = req.get("op")
    if op == "hello":
        return {"protocol": PROTOCOL, "game": "tictactoe-judge", "start": START,
                "drawing": DRAWING}
    if op == "moves":
        return moves(req["board"])
    if op == "parse":
        try:
            cells, player = read(req["text"])
        except BadBoard as e:
            return {"error": e.msg, "line": e.line, "col": e.col}
        return {"board": write(cells, player)}
    if op == "verdict":
        return verdict(req["board"], req["answer"])
    return {"error": "unknown op %r" % op}


def main():
    for line in sys.stdin:
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
