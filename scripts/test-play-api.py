#!/usr/bin/python3
"""test-play-api.py BIN - `referee play`'s JSON API end to end (playsrv.h).

Starts `BIN/referee play` on connect4 with a Python engine, a crashing
one, a Python engine that dies of an exception and a journal, then checks, over HTTP from this process:
  - the address printed is 127.0.0.1; its page carries the token every POST
    below sends;
  - a person against perfect: the person's move, refused moves (illegal,
    out of turn, malformed JSON, a 10 MB body, a finished game), each a 4xx
    with its reason and the state unchanged; undo back to the person's turn;
  - two games at once are independent, in time too: while one page waits
    for a slow engine's move (a Python engine that sleeps 2 s), another
    page's requests (a new game, a move, random's answer) are answered
    first;
  - a built-in searcher at another depth than --depth (alphabeta:6 when
    --depth is 4) plays, named so in the state and the journal; bad depths
    are refused; closing a game ends its player's search (alphabeta:40);
  - the crashing engine forfeits with "crashed: SIGSEGV", shown in the state;
    the Python engine that raises forfeits in the words of a match's result
    line, its kind, exit status and the exception with its own frame
    ("forfeit": "crash.py forfeits at ply 1: exit-status 1: ValueError: ...");
  - closing a game ends its engine (its sandbox's process is gone);
  - a path outside the page's files is a 404, the page itself a 200;
  - after SIGTERM the server exits 0, and the journal holds every finished
    game, which `referee verify` and `referee report` read, alphabeta:6
    named in the header and in the report.
Exits 1 at the first failed check, with what it got.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request

BIN = sys.argv[1]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The server's token, read from its page as the page's script reads it:
# every POST carries it (playgate.h).
TOKEN = {}


def check(cond, what, got=None):
    if not cond:
        print(f"test-play-api: FAIL: {what}" + (f": got {got!r}" if got is not None else ""))
        sys.exit(1)


def call(base, path, body=None, raw=None):
    """(status, decoded JSON or text) of a GET (body None) or POST."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(base + path, data=data, method="POST" if data is not None else "GET")
    if data is not None:
        req.add_header("X-Arena-Token", TOKEN.get(base, ""))
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, text = r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def engines_held(srv):
    """The processes the server's worker (the guard's child) holds: one per
    engine of a game in progress (its sandbox)."""
    def kids(pid):
        out = subprocess.run(["ps", "--ppid", str(pid), "-o", "pid="], capture_output=True,
                             text=True).stdout
        return [int(p) for p in out.split()]
    worker = kids(srv.pid)
    return len(kids(worker[0])) if worker else 0


def main():
    tmp = tempfile.mkdtemp()
    journal = os.path.join(tmp, "games.jsonl")
    crasher = os.path.join(ROOT, "tests/engines/crasher.sh")
    raiser = "name=crash.py,cmd=/usr/bin/python3 " + os.path.join(ROOT,
                                                                  "tests/engines/python/crash.py")
    py = os.path.join(ROOT, "docs/quickstart/random_engine.py")
    # The quick-start engine, asleep for 2 s before each move (in a folder
    # the sandbox's engine user can read).
    os.chmod(tmp, 0o755)
    slow = os.path.join(tmp, "slow_engine.py")
    shutil.copy(os.path.join(ROOT, "docs/quickstart/board.py"), tmp)
    with open(py) as f:
        text = f.read().replace("    board.main(", "    import time\n    time.sleep(2)\n"
                                "    board.main(")
    with open(slow, "w") as f:
        f.write(text)
    os.chmod(slow, 0o755)
    srv = subprocess.Popen([os.path.join(BIN, "referee"), "play", "--game", "connect4",
                            "--engine", py, "--engine", crasher, "--engine", slow,
                            "--engine", raiser,
                            "--journal", journal],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = srv.stdout.readline()
        check(line.startswith("play: http://127.0.0.1:"), "the address printed", line)
        base = line.split()[1].rstrip("/")
        run(base, srv)
    finally:
        srv.send_signal(signal.SIGTERM)
        out, err = srv.communicate(timeout=30)
    check(srv.returncode == 0, "exit status after SIGTERM", (srv.returncode, err))
    check(err == "", "nothing on stderr", err)
    v = subprocess.run([os.path.join(BIN, "referee"), "verify", journal], capture_output=True,
                       text=True)
    check(v.returncode == 0, "referee verify reads the journal", v.stdout + v.stderr)
    r = subprocess.run([os.path.join(BIN, "referee"), "report", journal], capture_output=True,
                       text=True)
    check(r.returncode == 0 and "perfect" in r.stdout and "crasher.sh" in r.stdout and
          re.search(r"^ *\d+ +alphabeta:6 ", r.stdout, re.M),
          "referee report reads the journal", r.stdout + r.stderr)
    with open(journal) as f:
        lines = f.read().splitlines()
    names = [e["name"] for e in json.loads(lines[0])["engines"]]
    check(names == ["person", "random", "alphabeta:4", "minimax:4", "perfect", "qlearn",
                    "qlearn-ab:4", "random_engine.py", "crasher.sh", "slow_engine.py",
                    "crash.py", "alphabeta:6", "alphabeta:40"],
          "the header names every player, alphabeta:6 and :40 as games asked for them", names)
    records = [json.loads(l) for l in lines[1:]]
    check(len(records) == 4, "four finished games in the journal", len(records))
    check(records[0]["reason"] == "normal" and records[0]["result"] == "0-1",
          "the person lost to perfect", records[0])
    check(records[1]["reason"] == "crashed: SIGSEGV", "the crasher's forfeit", records[1])
    check(records[2]["reason"] == "exit-status 1", "the raiser's forfeit", records[2])
    check(records[3]["players"] == {"1": "person", "2": "alphabeta:6"} and records[3]["result"] == "0-1",
          "the person lost to alphabeta:6", records[3])
    shutil.rmtree(tmp)
    print("test-play-api: ok")


def run(base, srv):
    st, page = call(base, "/")
    m = re.search(r'<meta name="arena-token" content="([0-9a-f]{32})">', page)
    check(st == 200 and m, "the page carries the token", page[:300])
    TOKEN[base] = m.group(1)
    st, info = call(base, "/api/info")
    check(st == 200 and info["game"] == "connect4" and info["layout"] == "grid",
          "info", info)
    check("perfect" in info["players"] and "random_engine.py" in info["players"],
          "players offered", info["players"])
    st, page = call(base, "/")
    check(st == 200 and "aria-label=\"new game\"" in page, "the page", st)
    st, e = call(base, "/../etc/passwd")
    check(st == 404 and "error" in e, "a path outside the page", (st, e))

    st, g = call(base, "/api/new", {"players": ["person", "perfect"]})
    check(st == 200 and g["to_move"] == 1 and len(g["legal"]) == 7, "new game", g)
    gid = g["id"]
    st, g2 = call(base, "/api/new", {"players": ["random", "person"]})
    check(st == 200 and g2["id"] != gid, "a second game", g2)

    bad = [
        ({"id": gid, "move": "9"}, None, 422, "illegal move '9'"),
        (None, b'{"id": 1, "move": ', 400, "malformed JSON"),
        (None, b"x" * (10 << 20), 413, "over 16384 bytes"),
        ({"id": 999, "move": "1"}, None, 404, "no game 999"),
        ({"id": g2["id"], "move": "1"}, None, 409, "player 1's turn, a computer player"),
    ]
    for body, raw, want, text in bad:
        st, e = call(base, "/api/move", body, raw)
        check(st == want and text in e.get("error", ""), f"refused with {want} '{text}'", (st, e))
    st, same = call(base, f"/api/state?id={gid}")
    check(same["moves"] == [] and same["board"] == g["board"], "nothing changed", same)

    st, g = call(base, "/api/move", {"id": gid, "move": "4"})
    check(st == 200 and g["to_move"] == 2, "the person's move", g)
    st, e = call(base, "/api/move", {"id": gid, "move": "4"})
    check(st == 409 and "perfect" in e["error"], "out of turn", e)
    st, g = call(base, "/api/computer", {"id": gid})
    check(st == 200 and len(g["moves"]) == 2 and g["moves"][1]["cpu_ms"] is not None,
          "perfect's move, its CPU", g)
    st, g = call(base, "/api/undo", {"id": gid})
    check(st == 200 and g["moves"] == [] and g["to_move"] == 1, "undo to the person's turn", g)
    st, other = call(base, f"/api/state?id={g2['id']}")
    check(other["moves"] == [], "the other game untouched", other)

    # The person plays the lowest legal column; perfect wins.
    while not g["over"]:
        if g["to_move"] == 1:
            st, g = call(base, "/api/move", {"id": gid, "move": g["legal"][0]["move"]})
        else:
            st, g = call(base, "/api/computer", {"id": gid})
        check(st == 200, "a move", g)
    check(g["result"] == "0-1" and g["reason"] == "normal", "perfect wins", g)
    st, e = call(base, "/api/move", {"id": gid, "move": "1"})
    check(st == 409 and "over" in e["error"], "a move for a finished game", e)

    st, c = call(base, "/api/new", {"players": ["crasher.sh", "person"]})
    check(st == 200, "a game with the crasher", c)
    st, c = call(base, "/api/computer", {"id": c["id"]})
    check(st == 200 and c["over"] and c["reason"] == "crashed: SIGSEGV" and c["result"] == "0-1",
          "the crasher's forfeit", c)
    # The same words as the match's result line (match_forfeit_words): the
    # kind, and the exception with the engine's own frame, not the kind alone.
    st, x = call(base, "/api/new", {"players": ["crash.py", "person"]})
    check(st == 200, "a game with the raiser", x)
    st, x = call(base, "/api/computer", {"id": x["id"]})
    check(st == 200 and x["over"] and x["reason"] == "exit-status 1" and x["forfeit"] ==
          "crash.py forfeits at ply 1: exit-status 1: ValueError: no legal move found "
          "(crash.py, line 7, in evaluate)", "the raiser's forfeit in full", x)
    check(c["forfeit"] == "crasher.sh forfeits at ply 1: crashed: SIGSEGV",
          "the crasher's forfeit in full", c)
    for gg in (gid, g2["id"], c["id"], x["id"]):
        st, _ = call(base, "/api/close", {"id": gg})
        check(st == 200, "close", gg)
    st, p = call(base, "/api/new", {"players": ["random_engine.py", "person"]})
    check(st == 200 and engines_held(srv) == 1, "a game with an engine holds its sandbox",
          engines_held(srv))
    st, _ = call(base, "/api/close", {"id": p["id"]})
    check(st == 200 and engines_held(srv) == 0, "closing the game ends its engine",
          engines_held(srv))
    st, e = call(base, f"/api/state?id={gid}")
    check(st == 404, "a closed game is gone", e)
    deeper(base)
    in_time(base)


def deeper(base):
    """alphabeta at depth 6, --depth being 4: named so; bad depths refused."""
    for name, text in (("alphabeta:0", "player 'alphabeta:0': the depth must be 1 to 64"),
                       ("alphabeta:65", "player 'alphabeta:65': the depth must be 1 to 64"),
                       ("minimax:x", "player 'minimax:x': the depth must be 1 to 64"),
                       ("alphabeta", "unknown player 'alphabeta'"),
                       ("perfect:3", "unknown player 'perfect:3'")):
        st, e = call(base, "/api/new", {"players": ["person", name]})
        check(st == 422 and e.get("error") == text, f"{name} refused", (st, e))
    st, g = call(base, "/api/new", {"players": ["person", "alphabeta:06"]})
    check(st == 200 and g["players"] == ["person", "alphabeta:6"], "alphabeta:6", g)
    while not g["over"]:
        if g["to_move"] == 1:
            st, g = call(base, "/api/move", {"id": g["id"], "move": g["legal"][0]["move"]})
        else:
            st, g = call(base, "/api/computer", {"id": g["id"]})
        check(st == 200, "a move against alphabeta:6", g)
    check(g["result"] == "0-1", "alphabeta:6 beats the lowest column", g)
    st, _ = call(base, "/api/close", {"id": g["id"]})
    check(st == 200, "close alphabeta:6's game")

    # A search to depth 40 would take hours: closing its game ends it. The
    # close is sent a second after the move is asked for; if it came first
    # anyway, the move finds no game.
    st, g = call(base, "/api/new", {"players": ["alphabeta:40", "person"]})
    check(st == 200, "a game against alphabeta:40", g)
    got = []
    t = threading.Thread(target=lambda: got.append(call(base, "/api/computer", {"id": g["id"]})))
    t.start()
    threading.Event().wait(1)
    st, _ = call(base, "/api/close", {"id": g["id"]})
    t.join()
    check(st == 200 and got[0] in ((503, {"error": "the game is closing, or the server is "
                                                   "stopping"}),
                                   (404, {"error": f"no game {g['id']} (closed, or never "
                                                   "started)"})),
          "closing the game ends alphabeta:40's search", (st, got))


def in_time(base):
    """Page A asks for the slow engine's move (2 s); page B meanwhile starts
    a game against random, moves, and gets random's answer: B's three
    answers come before A's."""
    st, a = call(base, "/api/new", {"players": ["slow_engine.py", "person"]})
    check(st == 200, "a game against the slow engine", a)
    order, lock = [], threading.Lock()

    def page_a():
        st, g = call(base, "/api/computer", {"id": a["id"]})
        with lock:
            order.append(("A", st, [m["status"] for m in g.get("moves", [])]))

    t = threading.Thread(target=page_a)
    t.start()
    # A's request is in flight once the engine runs (it sleeps 2 s): a
    # process running python on it (not the server, whose arguments name it).
    for _ in range(400):
        if subprocess.run(["pgrep", "-f", "python3? [^ ]*slow_engine.py"],
                          capture_output=True).returncode == 0:
            break
        threading.Event().wait(0.05)
    else:
        check(False, "the slow engine runs")
    st, b = call(base, "/api/new", {"players": ["person", "random"]})
    with lock:
        order.append(("B new", st, 0))
    st, b = call(base, "/api/move", {"id": b["id"], "move": "4"})
    with lock:
        order.append(("B move", st, len(b["moves"])))
    st, b = call(base, "/api/computer", {"id": b["id"]})
    with lock:
        order.append(("B random", st, len(b["moves"])))
    t.join()
    check(order == [("B new", 200, 0), ("B move", 200, 1), ("B random", 200, 2),
                    ("A", 200, ["ok"])],
          "page B answered while page A waits for its engine", order)
    for gid in (a["id"], b["id"]):
        st, _ = call(base, "/api/close", {"id": gid})
        check(st == 200, "close", gid)


if __name__ == "__main__":
    main()
