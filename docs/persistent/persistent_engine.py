#!/usr/bin/python3
"""persistent_engine.py - a connect4 / maxconnect4 engine that stays for the
whole game (SPEC proto=persistent, docs/engines.md). It drops its disc in
the free column nearest the centre, and counts its moves to show that it
keeps what it learns between them.

    referee match --game maxconnect4 \\
        --engine 'proto=persistent,cmd=python3 persistent_engine.py' --engine ...
"""
import sys

ROWS, COLS = 6, 7
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)


def move(in_path, out_path):
    with open(in_path) as f:
        words = f.read().split()
    grid = [list(row) for row in words[:ROWS]]
    player = int(words[ROWS])
    col = next(c for c in CENTRE_FIRST if grid[0][c] == "0")
    row = max(r for r in range(ROWS) if grid[r][col] == "0")
    grid[row][col] = str(player)
    with open(out_path, "w") as f:
        f.write("".join(f"{''.join(r)}\n" for r in grid) + f"{3 - player}\n")


def main():
    moves = 0
    for line in sys.stdin:   # one request a line: move IN OUT DEPTH TIME_LEFT_MS INC_MS
        words = line.split()
        if words[:1] == ["quit"]:
            break
        if words[:1] == ["move"]:
            move(words[1], words[2])
            moves += 1
            print(f"info moves {moves}")   # any line but "done" is the engine's own
            print("done", flush=True)


if __name__ == "__main__":
    main()
