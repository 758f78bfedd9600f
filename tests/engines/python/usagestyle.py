# usagestyle.py STYLE IN OUT DEPTH: an engine whose own option check fails,
# each STYLE as a command-line library or a student prints it: "try" (a
# usage line, the cause, then "Try --help" unquoted), "run" (the cause,
# then "Run with -h for help"), "argparse" (argparse's two lines).
import argparse
import sys

STYLE = sys.argv[1]
WHY = "--depth 2 and DEPTH %s disagree" % sys.argv[4]

if STYLE == "try":
    print("usage: usagestyle.py STYLE IN OUT DEPTH", file=sys.stderr)
    print("usagestyle.py: " + WHY, file=sys.stderr)
    print("Try --help", file=sys.stderr)
elif STYLE == "run":
    print("usagestyle.py: " + WHY, file=sys.stderr)
    print("", file=sys.stderr)
    print("Run with -h for help", file=sys.stderr)
else:
    parser = argparse.ArgumentParser(prog="usagestyle.py")
    parser.add_argument("style")
    parser.add_argument("board_in")
    parser.add_argument("board_out")
    parser.add_argument("depth")
    parser.parse_args()
    parser.error(WHY)
sys.exit(2)
