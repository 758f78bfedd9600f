#!/usr/bin/python3
"""hostile_judge.py RULES TAG PORT [HOG_MB]: a judge that attacks whoever
runs it when it is asked "hello", then judges tic-tac-toe soundly with the rules of
RULES/tictactoe.py (docs/judges: RULES is a folder its command names, so
its sandbox shows it). The referee's judge sandbox must make every attack
harmless (test_e2e_judgebox.c). Each attack says on stderr, which is the
referee's, what it got, one line "hostile_judge TAG: ATTACK: RESULT":

  shadow    reads /etc/shadow (as root: every user's password hash):
            "read N bytes", or "refused: ERRNO"
  sleeper   leaves a grandchild in a session of its own (double fork and
            setsid) running `sleep` as "hostile_judge-TAG-sleeper", which the
            test looks for once the referee has exited: "started"
  network   a TCP connection to 127.0.0.1:PORT, where the test listens:
            "connected", or "refused: ERRNO"
  cgroup    says where it is held: the lines of /proc/self/cgroup joined
            by spaces ("8:pids:/arena-... 0::/"), which the test checks
            (the sleeper is in the same cgroup: a child inherits it)

With HOG_MB, it also holds HOG_MB MB of memory (touched) when it is first
asked "moves", before it answers: over its memory limit, it is killed.
"""
import errno
import json
import os
import socket
import sys

RULES, TAG, PORT = sys.argv[1], sys.argv[2], int(sys.argv[3])
HOG_MB = int(sys.argv[4]) if len(sys.argv) > 4 else 0
sys.path.insert(0, RULES)
import tictactoe  # noqa: E402

SLEEP_S = "300"   # far past any test: a sleeper left is a sleeper found


def say(attack, result):
    sys.stderr.write("hostile_judge %s: %s: %s\n" % (TAG, attack, result))
    sys.stderr.flush()


def refused(e):
    return "refused: " + errno.errorcode.get(e.errno, str(e.errno))


def shadow():
    try:
        with open("/etc/shadow", "rb") as f:
            say("shadow", "read %d bytes" % len(f.read()))
    except OSError as e:
        say("shadow", refused(e))


def sleeper():
    child = os.fork()
    if child == 0:
        os.setsid()
        if os.fork() == 0:
            devnull = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):   # nothing of the referee's held open
                os.dup2(devnull, fd)
            os.execv("/bin/sleep", ["hostile_judge-%s-sleeper" % TAG, SLEEP_S])
        os._exit(0)
    os.waitpid(child, 0)
    say("sleeper", "started")


def network():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", PORT))
        say("network", "connected")
    except OSError as e:
        say("network", refused(e))
    finally:
        s.close()


def cgroup():
    with open("/proc/self/cgroup") as f:
        say("cgroup", " ".join(f.read().split()))


def main():
    hog = None
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("op") == "hello":
            shadow()
            sleeper()
            network()
            cgroup()
        if req.get("op") == "moves" and HOG_MB and hog is None:
            hog = b"x" * (HOG_MB << 20)   # written, so every page is held
        sys.stdout.write(json.dumps(tictactoe.answer(req)) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
