#!/usr/bin/python3
"""persistent_bad.py MODE [TAG]: a Nim engine that stays for the game
(proto=persistent) and breaks the protocol one way, for the referee's tests
(TAG only names the process for pgrep). It plays one sound move first
(taking one match from the first heap that has any), except in the modes
that break the first move:

  silent          reads every request and never answers
  early-done      answers done without writing OUT
  no-flush        writes OUT and prints done without flushing stdout (a
                  pipe's buffer holds it: the referee never sees it)
  other-position  writes the position it was given with the other player
                  to move: a position no move leads to
  flood           writes x's without end on stdout, never a newline
  deaf            never reads its stdin; sleeps through quit and its end
  exits           plays one move, then exits with status 3 at the next
  exits-0         plays one move, then exits with status 0 at the next
  stays           plays soundly, but sleeps through quit and the end of its
                  stdin (it must be killed)
  churn           plays soundly, but after each move makes IN a folder, and
                  from its first move on CHURNERS children of it fill that
                  folder with files without end (and make it again when it
                  is gone): the referee that empties the move folder between
                  moves races them
"""
import os
import sys
import time

CHURN_FILES = 4096       # names each churner writes over and over: a folder
                         # the referee takes milliseconds to empty
CHURNERS = 3             # processes: more than the cores of a small machine

MODE = sys.argv[1]


def play(in_path, out_path, flip=False):
    with open(in_path) as f:
        heaps = [int(h) for h in f.readline().split()]
        player = int(f.readline())
    if not flip:
        first = next(i for i, h in enumerate(heaps) if h > 0)
        heaps[first] -= 1
    with open(out_path, "w") as f:
        f.write(" ".join(map(str, heaps)) + f"\n{3 - player}\n")


def churn(folder):
    """Writes folder/N for N in 0..CHURN_FILES-1 over and over, making
    folder again when it is gone, without end."""
    n = 0
    while True:
        try:
            os.close(os.open(os.path.join(folder, str(n % CHURN_FILES)),
                             os.O_CREAT | os.O_WRONLY))
        except OSError:
            try:
                os.mkdir(folder)
            except OSError:
                pass
        n += 1


def make_folder(path):
    """IN, read, becomes the churners' folder (which they may have made
    already)."""
    os.remove(path)
    try:
        os.mkdir(path)
    except FileExistsError:
        pass


def main():
    if MODE == "deaf":
        while True:
            time.sleep(60)
    moves = 0
    buffered = []
    for line in sys.stdin:
        words = line.split()
        if words[:1] != ["move"]:
            continue
        moves += 1
        if MODE == "silent":
            continue
        if MODE in ("exits", "exits-0") and moves == 2:
            sys.exit(3 if MODE == "exits" else 0)
        if MODE == "flood":
            while True:
                sys.stdout.write("x" * 65536)
        if MODE != "early-done":
            play(words[1], words[2], flip=MODE == "other-position")
        if MODE == "no-flush":
            # Buffered whatever PYTHONUNBUFFERED says, as a C or Java
            # engine's stdout to a pipe is.
            if not buffered:
                buffered.append(open(sys.stdout.fileno(), "w", buffering=65536, closefd=False))
            buffered[0].write("done\n")
            continue
        if MODE == "churn":
            make_folder(words[1])
        if MODE == "churn" and moves == 1:
            for _ in range(CHURNERS):
                if os.fork() == 0:
                    churn(words[1])
        print("done", flush=True)
    if MODE == "stays":
        while True:
            time.sleep(60)


main()
