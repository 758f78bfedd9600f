# waiter.py: an engine that stays for the game (proto=persistent), run
# without proto=persistent: it waits for "move IN OUT ..." lines on its
# stdin, which a file engine's stdin never has.
import sys

import board

for line in sys.stdin:
    words = line.split()
    if words[:1] != ["move"]:
        continue
    rows, player = board.read(words[1])
    column = next(c for c in range(len(rows[0])) if rows[0][c] == "0")
    board.drop(rows, column, player)
    board.write(words[2], rows, "2" if player == "1" else "1")
    print("done", flush=True)
