# syntax.py one-move IN OUT DEPTH: a student engine that does not compile:
# Python reports the file and line of the error, without a "Traceback".
import sys


def best_move(board:
    return 0
