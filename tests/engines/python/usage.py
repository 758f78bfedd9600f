# usage.py one-move IN OUT DEPTH: an engine whose own option check fails,
# as a command-line library prints it: the cause, then a pointer to --help.
import sys

if sys.argv[4] != "4":
    print("usage: usage.py one-move IN OUT DEPTH", file=sys.stderr)
    print("usage.py: error: --depth %s and DEPTH 4 disagree" % sys.argv[4], file=sys.stderr)
    print("Try 'usage.py --help' for more information.", file=sys.stderr)
    sys.exit(2)
