#!/usr/bin/python3
"""test-play-browser.py BIN [SCREENSHOT] - `referee play`'s page in headless
Chromium (Debian's chromium-driver and python3-selenium), driven through the
accessible names of its controls (aria-label), as assistive technology would:
  - connect4, a person against perfect to the end: the person, playing the
    lowest column that takes a disc, loses (0-1), and the page says so;
  - undo after a move against perfect takes back both plies;
  - F2 starts a new game; the key "4" plays in column 4;
  - alphabeta at depth 6 (--depth is 4) chosen with the depth box beside
    the player's selector ("depth for player 2"), shown only for searchers;
  - the Python quick-start engine given with --engine answers, its CPU per
    move in the table; a crashing engine's forfeit, and a Python engine's
    that raises, shown in the words of the match's result line (who, the
    ply, the kind, the exception and its frame);
  - a full column's button, clicked, says why nothing happened;
  - the learning window: 200 games of two learners with the constants set
    on the page, the bar and the running score, each learner's weights saved
    through its link and read back by `engine weights`, then played by qlearn
    chosen with the page's file input (a bad file refused with its place); a
    long run stopped;
  - maxconnect4 to the end, the page showing the game's score, its board
    a disc per ply;
  - nim's rows of matches, each named ("row 3"), a move's button taking
    from its row;
  - checkers (a piece with two moves: a second click picks one), tictactoe
    and othello played by clicking cells, with no column buttons;
  - closing the page ends the engine its game started;
  - a page of another origin (served from another port) posting to the
    server by fetch and by a form, and reading its API, is refused (403, in
    the console) and starts no game;
  - no console message and no script error on any page.
With SCREENSHOT, a PNG of the connect4 page is written there.
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
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

BIN = sys.argv[1]
SHOT = sys.argv[2] if len(sys.argv) > 2 else None
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = os.path.join(ROOT, "docs/quickstart/random_engine.py")
CRASHER = os.path.join(ROOT, "tests/engines/crasher.sh")
RAISER = "name=crash.py,cmd=/usr/bin/python3 " + os.path.join(ROOT,
                                                             "tests/engines/python/crash.py")


def check(cond, what, got=None):
    if not cond:
        print(f"test-play-browser: FAIL: {what}" + (f": got {got!r}" if got is not None else ""))
        sys.exit(1)


def start(game, *engines):
    cmd = [os.path.join(BIN, "referee"), "play", "--game", game]
    for e in engines:
        cmd += ["--engine", e]
    srv = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = srv.stdout.readline()
    check(line.startswith("play: http://127.0.0.1:"), "the address printed", line)
    return srv, line.split()[1]


def stop(srv):
    srv.send_signal(signal.SIGTERM)
    _, err = srv.communicate(timeout=30)
    check(srv.returncode == 0 and err == "", "the server stops cleanly", (srv.returncode, err))


def engines_held(srv):
    """The processes the server's worker (the guard's child) holds: one per
    engine of a game in progress (its sandbox)."""
    def kids(pid):
        out = subprocess.run(["ps", "--ppid", str(pid), "-o", "pid="], capture_output=True,
                             text=True).stdout
        return [int(p) for p in out.split()]
    worker = kids(srv.pid)
    return len(kids(worker[0])) if worker else 0


def browser():
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=900,900",
              "--disable-dev-shm-usage"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def by_label(d, label):
    return d.find_element(By.CSS_SELECTOR, f'[aria-label="{label}"]')


def settle(d, timeout=60):
    """Waits until the page is not waiting for the server; its state."""
    end = time.time() + timeout
    while time.time() < end:
        body = d.find_element(By.TAG_NAME, "body")
        if body.get_attribute("data-busy") == "0" and body.get_attribute("data-state"):
            return body.get_attribute("data-state")
        time.sleep(0.05)
    check(False, "the page settles", d.find_element(By.ID, "status").text)


def nmoves(d):
    t = d.find_element(By.ID, "moves").text.strip()
    return len(t.split(" ")) // 2 if t else 0


def no_errors(d, where):
    logs = d.get_log("browser")
    check(logs == [], f"no console message ({where})", logs)
    check(d.find_element(By.ID, "js-errors").text == "", f"no script error ({where})",
          d.find_element(By.ID, "js-errors").text)


def play_lowest(d, columns):
    """Clicks the lowest column that takes a disc, until the game is over."""
    while settle(d) != "over":
        before = nmoves(d)
        for c in range(1, columns + 1):
            by_label(d, f"column {c}").click()
            settle(d)
            if nmoves(d) != before or d.find_element(By.TAG_NAME, "body").get_attribute(
                    "data-state") == "over":
                break
        else:
            check(False, "some column takes a disc", d.find_element(By.ID, "status").text)


def connect4(d, base):
    d.get(base + "?p1=person&p2=perfect")
    settle(d)
    for label in ("new game", "undo", "player 1", "player 2", "move", "play move", "column 4",
                  "row 2 column 5"):
        check(by_label(d, label) is not None, f"a control named '{label}'")
    by_label(d, "column 4").click()
    settle(d)
    check(nmoves(d) == 2, "perfect answers the person's move", d.find_element(By.ID, "moves").text)
    by_label(d, "undo").click()
    settle(d)
    check(nmoves(d) == 0, "undo takes back both plies", d.find_element(By.ID, "moves").text)
    d.find_element(By.TAG_NAME, "body").send_keys("4")
    settle(d)
    check(nmoves(d) == 2, "the key 4 plays column 4", d.find_element(By.ID, "moves").text)
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.F2)
    settle(d)
    check(nmoves(d) == 0, "F2 starts a new game", d.find_element(By.ID, "moves").text)
    play_lowest(d, 7)
    status = d.find_element(By.ID, "status").text
    check(status == "Game over: 0-1 (normal)", "the person loses to perfect", status)
    if SHOT:
        d.save_screenshot(SHOT)
    no_errors(d, "connect4 against perfect")

    d.get(base + "?p1=person&p2=random_engine.py")
    settle(d)
    for _ in range(3):
        by_label(d, "column 4").click()
        settle(d)
    rows = d.find_elements(By.CSS_SELECTOR, "#cpu tr")
    check(len(rows) == 4 and "random_engine.py" in rows[1].text, "the engine's CPU per move",
          [r.text for r in rows])
    no_errors(d, "connect4 against a Python engine")

    d.get(base + "?p1=person&p2=crasher.sh")
    settle(d)
    by_label(d, "column 1").click()
    settle(d)
    status = d.find_element(By.ID, "status").text
    check(status == "Game over: 1-0 (crasher.sh forfeits at ply 2: crashed: SIGSEGV)",
          "the crasher's forfeit", status)
    no_errors(d, "connect4 against a crashing engine")

    d.get(base + "?p1=person&p2=crash.py")
    settle(d)
    by_label(d, "column 1").click()
    settle(d)
    status = d.find_element(By.ID, "status").text
    check(status == "Game over: 1-0 (crash.py forfeits at ply 2: exit-status 1: ValueError: "
          "no legal move found (crash.py, line 7, in evaluate))", "the raiser's forfeit in full",
          status)
    no_errors(d, "connect4 against an engine that raises")

    # Two people fill column 1; a seventh click there says why nothing
    # happens, and plays nothing.
    d.get(base + "?p1=person&p2=person")
    settle(d)
    for _ in range(6):
        by_label(d, "column 1").click()
        settle(d)
    check(nmoves(d) == 6, "six discs in column 1", d.find_element(By.ID, "moves").text)
    by_label(d, "column 1").click()
    settle(d)
    error = d.find_element(By.ID, "error").text
    check(error == "column 1 is full: no disc fits there, choose another column",
          "the full column's button says why nothing happened", error)
    check(nmoves(d) == 6, "nothing played", d.find_element(By.ID, "moves").text)
    by_label(d, "column 2").click()
    settle(d)
    check(nmoves(d) == 7 and d.find_element(By.ID, "error").text == "",
          "another column plays, the message gone", d.find_element(By.ID, "error").text)
    no_errors(d, "a full column")

    d.get(base + "?p1=person&p2=perfect")
    settle(d)
    check(not by_label(d, "depth for player 2").is_displayed(), "no depth box for perfect")
    Select(by_label(d, "player 2")).select_by_value("alphabeta:4")
    box = by_label(d, "depth for player 2")
    check(box.is_displayed() and box.get_attribute("value") == "4", "the depth box, at --depth",
          box.get_attribute("value"))
    box.clear()
    box.send_keys("6")
    by_label(d, "new game").click()
    settle(d)
    by_label(d, "column 4").click()
    settle(d)
    rows = d.find_elements(By.CSS_SELECTOR, "#cpu tr")
    check(len(rows) == 2 and rows[1].text.startswith("2 alphabeta:6 "),
          "alphabeta at the depth chosen", [r.text for r in rows])
    d.get(base + "?p1=person&p2=minimax:3")
    settle(d)
    check(by_label(d, "player 2").get_attribute("value") == "minimax:4" and
          by_label(d, "depth for player 2").get_attribute("value") == "3",
          "?p2=minimax:3 chooses minimax at depth 3",
          by_label(d, "depth for player 2").get_attribute("value"))
    no_errors(d, "connect4 against alphabeta at depth 6")


def wait_training(d, timeout=120):
    end = time.time() + timeout
    while time.time() < end:
        if d.find_element(By.TAG_NAME, "body").get_attribute("data-training") == "done":
            return
        time.sleep(0.1)
    check(False, "the training ends", d.find_element(By.ID, "score").text)


def training(d, base, tmp):
    """200 games of two learners, each learner's weights saved and read back
    by `engine weights`; a long run stopped."""
    d.get(base)
    settle(d)
    for label, value in (("games", "200"), ("gamma", "0.9"), ("alpha", "0.1"),
                         ("epsilon", "0.2"), ("switch probability", "0.5")):
        box = by_label(d, label)
        box.clear()
        box.send_keys(value)
    Select(by_label(d, "opponent")).select_by_visible_text("learning")
    by_label(d, "start training").click()
    wait_training(d)
    score = d.find_element(By.ID, "score").text
    check(score.startswith("200 of 200 games: learner 1 won "), "the running score", score)
    check(by_label(d, "training progress").get_attribute("value") == "200", "the bar full")
    for learner in (1, 2):
        href = by_label(d, f"save learner {learner} weights").get_attribute("href")
        path = os.path.join(tmp, f"learner{learner}.weights")
        with urllib.request.urlopen(href, timeout=30) as r, open(path, "wb") as f:
            f.write(r.read())
        with open(path) as f:
            text = f.read()
        for line in ("gamma 0.9\n", "alpha 0.1\n", "epsilon 0.2\n", "switch-prob 0.5\n",
                     "opponent learning\n", "games 200\n"):
            check(line in text, f"learner {learner}'s file has '{line.strip()}'", text)
        w = subprocess.run([os.path.join(BIN, "engine"), "weights", path], capture_output=True,
                           text=True)
        check(w.returncode == 0 and "4InRow" in w.stdout, "engine weights reads it back",
              w.stdout + w.stderr)
    # The learned player with the weights just saved, chosen on the page.
    d.get(base + "?p1=person&p2=qlearn")
    settle(d)
    by_label(d, "player 2 weights").send_keys(os.path.join(tmp, "learner1.weights"))
    by_label(d, "new game").click()
    settle(d)
    by_label(d, "column 4").click()
    settle(d)
    rows = d.find_elements(By.CSS_SELECTOR, "#cpu tr")
    check(len(rows) == 2 and "qlearn" in rows[1].text, "qlearn answers with the file's weights",
          [r.text for r in rows])
    bad = os.path.join(tmp, "bad.weights")
    with open(bad, "w") as f:
        f.write("arena-qlearn-weights 1\nbogus\n")
    by_label(d, "player 2 weights").send_keys(bad)
    by_label(d, "new game").click()
    settle(d)
    err = d.find_element(By.ID, "error").text
    check(err == "player qlearn's weights: 2:6: missing the value after 'bogus'",
          "a bad weights file refused with its place", err)
    # Chromium logs the refusal's status itself: that one message and no other.
    logs = d.get_log("browser")
    check(len(logs) == 1 and "/api/new" in logs[0]["message"] and "422" in logs[0]["message"],
          "the console has the refusal only", logs)
    d.get(base)
    settle(d)
    games = by_label(d, "games")
    games.clear()
    games.send_keys("100000000")
    Select(by_label(d, "opponent")).select_by_visible_text("random")
    by_label(d, "start training").click()
    time.sleep(1)
    by_label(d, "stop training").click()
    wait_training(d)
    score = d.find_element(By.ID, "score").text
    played = int(score.split(" ")[0])
    check(0 < played < 100000000, "stop ends the run early", score)
    no_errors(d, "training")


def maxconnect4(d, base):
    d.get(base + "?p1=person&p2=random")
    settle(d)
    play_lowest(d, 7)
    report = d.find_element(By.ID, "report").text
    check("Score: Player 1 = " in report, "the game's score", report)
    status = d.find_element(By.ID, "status").text
    check(re.fullmatch(r"Game over: (1-0|0-1|1/2-1/2) \((normal|draw-rule), \d+-\d+ points\)",
                       status), "the end with the game's score", status)
    no_errors(d, "maxconnect4")


def nim(d, base):
    """Nim's rows of matches, each row named, a legal move's button plays."""
    d.get(base + "?p1=person&p2=person")
    settle(d)
    rows = [r.text for r in d.find_elements(By.CSS_SELECTOR, "#board .rows.nim div")]
    check(rows == ["0: | (1)", "1: ||| (3)", "2: ||||| (5)", "3: ||||||| (7)"],
          "the start's rows of matches", rows)
    check(by_label(d, "row 3").text == rows[3], "each row named")
    by_label(d, "move 3:2").click()
    settle(d)
    check(by_label(d, "row 3").text == "3: ||||| (5)", "3:2 takes two matches from row 3",
          by_label(d, "row 3").text)
    check(d.find_elements(By.CSS_SELECTOR, "#board table, #cols button") == [],
          "nim: no table, no column buttons")
    no_errors(d, "nim")


def clicks(game, cells, want):
    """The first move played by clicking cells ("row R column C") in game."""
    def test(d, base):
        d.get(base + "?p1=person&p2=random")
        settle(d)
        for cell in cells:
            by_label(d, cell).click()
        settle(d)
        moves = d.find_element(By.ID, "moves").text
        check(moves.startswith(f"1. {want} 2. "), f"{game}: clicks on {cells} play {want}", moves)
        check(d.find_elements(By.CSS_SELECTOR, '[aria-label="column 1"]') == [],
              f"{game}: no column buttons")
        no_errors(d, game)
    return test


# Another site's page: a fetch and a form (text/plain, shaped as JSON: no
# preflight) post a new game to the play server at BASE, and a fetch tries
# to read its API; it notes each outcome in #out and sets data-done.
ATTACK = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>elsewhere</title></head>
<body><pre id="out"></pre>
<form id="f" method="POST" action="BASE/api/new" enctype="text/plain" target="sink">
<input type="hidden" name='{"players": ["alphabeta:12", "random"], "x": "' value='"}'></form>
<iframe name="sink" id="sink"></iframe>
<script>
function note(t){document.getElementById('out').textContent+=t+'\\n';}
fetch('BASE/api/new',{method:'POST',mode:'no-cors',headers:{'Content-Type':'text/plain'},
  body:'{"players": ["alphabeta:12", "random"]}'})
 .then(function(){note('post sent');},function(){note('post failed');})
 .then(function(){return fetch('BASE/api/info').then(function(r){note('read '+r.status);},
   function(){note('read refused');});})
 .then(function(){document.getElementById('sink').onload=function(){note('form sent');
   document.body.setAttribute('data-done','1');};document.getElementById('f').submit();});
</script></body></html>
"""


def cross_origin(d, base):
    """ATTACK served from another port: its requests reach the server and are
    refused (403 in the console), its read fails, and no game is started (the
    next game's id follows the last one made before)."""
    with urllib.request.urlopen(base, timeout=30) as r:
        token = re.search(r'<meta name="arena-token" content="([0-9a-f]{32})">',
                          r.read().decode()).group(1)

    def new_game():
        req = urllib.request.Request(base + "api/new", method="POST",
                                     data=b'{"players": ["person", "random"]}',
                                     headers={"X-Arena-Token": token})
        with urllib.request.urlopen(req, timeout=30) as r:
            gid = json.loads(r.read())["id"]
        req = urllib.request.Request(base + "api/close", method="POST",
                                     data=json.dumps({"id": gid}).encode(),
                                     headers={"X-Arena-Token": token})
        urllib.request.urlopen(req, timeout=30).close()
        return gid

    before = new_game()
    page = ATTACK.replace("BASE", base.rstrip("/")).encode()

    class Elsewhere(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    other = ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        d.get(f"http://127.0.0.1:{other.server_address[1]}/")
        end = time.time() + 30
        while d.find_element(By.TAG_NAME, "body").get_attribute("data-done") != "1":
            check(time.time() < end, "the other page's requests end",
                  d.find_element(By.ID, "out").text)
            time.sleep(0.1)
        out = d.find_element(By.ID, "out").text.split("\n")
        check(out == ["post sent", "read refused", "form sent"],
              "the other page posted, could not read, submitted its form", out)
        logs = [l["message"] for l in d.get_log("browser")]
        check(sum("/api/new" in m and "status of 403" in m for m in logs) == 2,
              "the server refused the other page's two posts (403)", logs)
    finally:
        other.shutdown()
        d.get("about:blank")
    after = new_game()
    check(after == before + 1, "the other page started no game", (before, after))


def main():
    d = browser()
    try:
        srv, base = start("connect4", PY, CRASHER, RAISER)
        try:
            connect4(d, base)
            d.get(base + "?p1=person&p2=random_engine.py")
            settle(d)
            check(engines_held(srv) == 1, "the page's game holds its engine", engines_held(srv))
            d.get("about:blank")
            end = time.time() + 10
            while engines_held(srv) and time.time() < end:
                time.sleep(0.1)
            check(engines_held(srv) == 0, "closing the page ends its engine", engines_held(srv))
            cross_origin(d, base)
            tmp = tempfile.mkdtemp()
            try:
                training(d, base, tmp)
            finally:
                shutil.rmtree(tmp)
        finally:
            d.get("about:blank")   # the page closes its game
            stop(srv)
        games = [("maxconnect4", maxconnect4), ("nim", nim),
                 # C6 has two moves: a second click on D5 picks one.
                 ("checkers", clicks("checkers", ["row 6 column 3", "row 5 column 4"], "C6-D5")),
                 ("tictactoe", clicks("tictactoe", ["row 2 column 2"], "b2")),
                 ("othello", clicks("othello", ["row 4 column 3"], "c4"))]
        for game, test in games:
            srv, base = start(game)
            try:
                test(d, base)
            finally:
                d.get("about:blank")
                stop(srv)
    finally:
        d.quit()
    print("test-play-browser: ok")


if __name__ == "__main__":
    main()
