# crash.py one-move IN OUT DEPTH: prints a debug line, then dies of an
# exception, as a student's engine does on its first bug.
import sys


def evaluate(board):
    raise ValueError("no legal move found")


print("debug: thinking", file=sys.stderr)
evaluate(None)
