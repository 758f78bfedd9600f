#!/bin/sh
# test-browser-grade.sh - `make test-browser`'s part for `referee grade`: a
# class of four of tests/grade/class's submissions (alphabeta, random,
# crashfull, cbroken) graded by tests/grade/rubric.json, then its pages in
# headless Chromium (Debian's chromium, as scripts/test-browser.sh runs it).
# From the DOM Chromium renders (--dump-dom), against grades.csv read here:
#   - index.html: a row per submission in id order with its total and each
#     check's score (a score short of its points may say why beneath it,
#     in a <small class="why">), each linking ID/feedback.html, which
#     exists; the histogram's bins count every submission once, each bar
#     labelled with its count, the last labelled "100" counting the full
#     totals; each check's "full points" column counts the rows of
#     grades.csv at that check's points;
#   - each feedback.html: its heading's total and every check's score;
#     crashfull's page draws its failing positions as 6x7 boards of disc
#     cells (classes "c c48", "c c49", "c c50", which its style sheet
#     dresses), says where its games forfeited and quotes its Python
#     traceback; alphabeta's games are captioned "final position", none
#     forfeited; cbroken's shows the compiler's error;
#   - the boards are the page script's, the one board drawing of the report
#     and the play page (boardhtml.h): the page as written holds none, only
#     a div.drawn per board with its board file; rendered, each holds the
#     board drawn cell for cell (its discs: each '1' and '2' of the file) as
#     test-board-dom.py reads it back; with JavaScript off none is drawn and
#     each board file is there as text;
#   - every game of the registry (`engine --help`'s list): a submission
#     running the built-in engine graded by a rubric of that game (two games
#     against random), its two final positions drawn likewise on its page;
#   - no console message on any page;
#   - a screenshot of index.html is a PNG of the window's size, not of one
#     colour.
# A check that cannot run fails; nothing is skipped. No Chromium process
# outlives the script.
#
#   test-browser-grade.sh BIN
set -eu
BIN=$1
TMP=$(mktemp -d)
PGIDS=""
cleanup() {
    for g in $PGIDS; do kill -KILL -- "-$g" 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
fail() { echo "test-browser-grade: FAIL: $*" >&2; exit 1; }
command -v chromium >/dev/null 2>&1 || fail "no chromium (scripts/install-deps.sh installs it)"
command -v python3 >/dev/null 2>&1 || fail "no python3"

browse() {
    out=$1 err=$2
    shift 2
    setsid timeout -s KILL 60 chromium --headless=new --no-sandbox --disable-gpu \
        --user-data-dir="$TMP/profile" --enable-logging=stderr --log-level=0 \
        --no-first-run --hide-scrollbars "$@" >"$out" 2>"$err" &
    pid=$!
    PGIDS="$PGIDS $pid"
    status=0
    wait "$pid" || status=$?
    kill -KILL -- "-$pid" 2>/dev/null || true
    [ "$status" -eq 0 ] || fail "chromium exited with status $status ($*); its log: $err"
}

mkdir "$TMP/class"
for s in alphabeta random crashfull cbroken; do cp -r "tests/grade/class/$s" "$TMP/class/"; done
"$BIN/referee" grade --rubric tests/grade/rubric.json --submissions "$TMP/class" \
    --out "$TMP/out" --concurrency 2 > "$TMP/grade.log" || fail "referee grade failed: $(cat "$TMP/grade.log")"

# dom_check PAGE.dom KIND [ID]: the facts of a rendered page against grades.csv.
dom_check() {
    python3 - "$TMP/out/grades.csv" "$@" <<'EOF'
import csv, sys
from html.parser import HTMLParser
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
checks = [k for k in rows[0].keys() if k not in ('submission', 'total', 'max', 'sha256', 'error')]
page, kind = sys.argv[2], sys.argv[3]
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.table=None; s.rows=[]; s.cell=None; s.bins=[]; s.links=[]
        s.h=None; s.heads=[]; s.boards=[]; s.board=None; s.pres=[]; s.pre=None
        s.cells=set(); s.small=False; s.counts=[]; s.count=None; s.ranges=[]; s.caps=[]
        s.cap=None; s.style=''; s.instyle=False
    def handle_starttag(s, tag, a):
        a = dict(a)
        cls = (a.get('class') or '').split()
        if tag == 'table' and a.get('id'): s.table = a['id']
        if tag == 'table' and 'board' in cls: s.board = 0
        if tag == 'td' and s.board is not None: s.board += 1; s.cells.add(a.get('class'))
        if tag == 'small': s.small = True
        if tag == 'rect' and 'bin' in cls: s.ranges.append(a['data-range'])
        if tag == 'text' and 'count' in cls: s.count = ''
        if tag == 'p' and 'caption' in cls: s.cap = ''
        if tag == 'style': s.instyle = True
        if s.table and tag == 'tr': s.rows.append((s.table, []))
        if s.table and tag in ('td', 'th'): s.cell = ''
        if tag == 'rect' and a.get('class') == 'bin': s.bins.append(int(a['data-count']))
        if tag == 'a' and s.table == 'class': s.links.append(a['href'])
        if tag in ('h1', 'h2'): s.h = ''
        if tag == 'pre': s.pre = ''
    def handle_data(s, d):
        if s.instyle: s.style += d
        if s.count is not None: s.count += d
        if s.cap is not None: s.cap += d
        if s.cell is not None and not s.small: s.cell += d
        if s.h is not None: s.h += d
        if s.pre is not None: s.pre += d
    def handle_endtag(s, tag):
        if tag == 'small': s.small = False
        if tag == 'style': s.instyle = False
        if tag == 'text' and s.count is not None: s.counts.append(int(s.count)); s.count = None
        if tag == 'p' and s.cap is not None: s.caps.append(s.cap); s.cap = None
        if tag in ('td', 'th') and s.cell is not None and s.table:
            s.rows[-1][1].append(s.cell.strip()); s.cell = None
        if tag == 'table':
            if s.board is not None: s.boards.append(s.board); s.board = None
            else: s.table = None
        if tag in ('h1', 'h2') and s.h is not None: s.heads.append(s.h); s.h = None
        if tag == 'pre' and s.pre is not None: s.pres.append(s.pre); s.pre = None
p = P(); p.feed(open(page).read())
def fail(msg): print(msg); sys.exit(1)
if kind == 'index':
    got = [r for t, r in p.rows if t == 'class'][1:]
    want = [[r['submission'], r['total']] + [r[c] for c in checks] for r in rows]
    if got != want: fail('class table %s, grades.csv %s' % (got, want))
    if p.links != [r['submission'] + '/feedback.html' for r in rows]: fail('links %s' % p.links)
    if sum(p.bins) != len(rows): fail('histogram counts %s for %d submissions' % (p.bins, len(rows)))
    if p.counts != p.bins: fail('bars labelled %s, counting %s' % (p.counts, p.bins))
    full = sum(1 for r in rows if float(r['total']) == float(r['max']))
    if p.ranges[-1] != '100' or p.bins[-1] != full:
        fail('bar %s counts %d, full totals %d' % (p.ranges[-1], p.bins[-1], full))
    table = [r for t, r in p.rows if t == 'checks'][1:]
    for c, r in zip(checks, table):
        full = sum(1 for x in rows if float(x[c]) == float(r[2]))
        if r[0] != c or r[3] != '%d of %d' % (full, len(rows)): fail('check row %s' % r)
else:
    sub = sys.argv[4]
    row = [r for r in rows if r['submission'] == sub][0]
    if not p.heads or p.heads[0] != '%s: %s of %s points' % (sub, row['total'], row['max']):
        fail('heading %s' % p.heads[:1])
    for c in checks:
        h = [x for x in p.heads if x.startswith(c + ' (')]
        if not h or ': %s of ' % row[c] not in h[0]: fail('%s: section %s, grades.csv %s' % (sub, h, row[c]))
    text = '\n'.join(p.pres)
    if sub == 'crashfull':
        if not p.boards or any(b != 42 for b in p.boards): fail('crashfull boards %s' % p.boards)
        if not p.cells <= {'c c48', 'c c49', 'c c50'} or not {'c c49', 'c c50'} <= p.cells:
            fail('crashfull cells %s' % p.cells)
        for c in ('.maxconnect4 td.c49{', '.maxconnect4 td.c50{', '.board td{'):
            if c not in p.style: fail('crashfull: no style rule %s' % c)
        if not any(c.startswith('the position it forfeited at (ply ') for c in p.caps):
            fail('crashfull: no forfeit caption in %s' % p.caps)
        if 'ValueError: column' not in text: fail('crashfull: no traceback')
    if sub == 'alphabeta':
        if not any(c.startswith('final position (after ply ') for c in p.caps):
            fail('alphabeta: no final position in %s' % p.caps)
        if any('forfeit' in c for c in p.caps): fail('alphabeta: forfeited? %s' % p.caps)
    if sub == 'cbroken' and 'missing_name' not in text: fail('cbroken: no compiler error')
EOF
}

# drawn PAGE DOM WHAT: the boards of PAGE (as written) rendered in DOM are
# the script's, each the drawing of its board file (test-board-dom.py);
# prints "BOARDS PIECES".
drawn() {
    if grep -q '<table class="board' "$1"; then fail "$3: a board drawn without the script"; fi
    left=$(grep -o '<div class="drawn"' "$1" | wc -l)
    facts=$(python3 scripts/test-board-dom.py "$2" "$left") || fail "$3: $facts"
    [ "${facts%% *}" -eq "$left" ] || fail "$3: $left boards to draw, $facts drawn"
    echo "$facts"
}

browse "$TMP/index.dom" "$TMP/index.log" --dump-dom "file://$TMP/out/index.html"
dom_check "$TMP/index.dom" index || fail "index.html"
if grep 'CONSOLE' "$TMP/index.log"; then fail "index.html: console messages (above)"; fi
for s in alphabeta random crashfull cbroken; do
    [ -f "$TMP/out/$s/feedback.html" ] || fail "no $s/feedback.html"
    browse "$TMP/$s.dom" "$TMP/$s.log" --dump-dom "file://$TMP/out/$s/feedback.html"
    dom_check "$TMP/$s.dom" feedback "$s" || fail "$s/feedback.html"
    if grep 'CONSOLE' "$TMP/$s.log"; then fail "$s/feedback.html: console messages (above)"; fi
    case $s in
    crashfull|alphabeta)
        facts=$(drawn "$TMP/out/$s/feedback.html" "$TMP/$s.dom" "$s/feedback.html")
        [ "${facts#* }" -gt 0 ] || fail "$s/feedback.html: boards without discs ($facts)";;
    esac
done

# JavaScript off (a copy whose policy forbids every script, as
# test-browser.sh does): no board drawn, each board file still there.
sed 's|<head>|<head><meta http-equiv="Content-Security-Policy" content="script-src '"'none'"'">|' \
    "$TMP/out/crashfull/feedback.html" > "$TMP/out/crashfull/nojs.html"
browse "$TMP/nojs.dom" "$TMP/nojs.log" --dump-dom "file://$TMP/out/crashfull/nojs.html"
if grep -q '<table class="board' "$TMP/nojs.dom"; then fail "crashfull: drawn with JavaScript off"; fi
[ "$(grep -c '<pre class="board-text">' "$TMP/nojs.dom")" -eq \
  "$(grep -o '<div class="drawn"' "$TMP/out/crashfull/feedback.html" | wc -l)" ] \
    || fail "crashfull: with JavaScript off, a board file is missing"

# Every game of the registry: the built-in engine's two games against
# random, each final position drawn on its feedback page.
games=$("$BIN/engine" --help | sed -n 's/^Games: //p' | sed 's/ (default)//g; s/[,.]//g')
[ -n "$games" ] || fail "no games in engine --help"
bin=$(cd "$BIN" && pwd)
mkdir -p "$TMP/builtin/class/engine"
: > "$TMP/builtin/class/engine/README"
for g in $games; do
    printf '{ "game": "%s", "engine": "%s/engine one-move --game %s {in} {out} {depth}",
  "timeout_ms": 5000, "seed": 1, "random_plies": 2,
  "checks": [ {"id": "random", "kind": "match", "points": 10, "opponent": "random",
               "games": 2, "min_score": 0.5, "depth": 1} ] }\n' "$g" "$bin" "$g" \
        > "$TMP/builtin/$g.json"
    "$BIN/referee" grade --rubric "$TMP/builtin/$g.json" --submissions "$TMP/builtin/class" \
        --sandbox-ro "$bin" --out "$TMP/builtin/out-$g" > "$TMP/builtin/$g.log" \
        || fail "$g: referee grade failed: $(cat "$TMP/builtin/$g.log")"
    page="$TMP/builtin/out-$g/engine/feedback.html"
    browse "$TMP/builtin/$g.dom" "$TMP/builtin/$g.err" --dump-dom "file://$page"
    if grep 'CONSOLE' "$TMP/builtin/$g.err"; then fail "$g: console messages (above)"; fi
    facts=$(drawn "$page" "$TMP/builtin/$g.dom" "$g")
    [ "${facts%% *}" -eq 2 ] || fail "$g: $facts: two final positions expected"
    echo "test-browser-grade: $g: boards and pieces drawn: $facts"
done
browse "$TMP/shot.out" "$TMP/shot.log" --window-size=1024,900 \
    --screenshot="$TMP/shot.png" "file://$TMP/out/index.html"
python3 - "$TMP/shot.png" <<'EOF' || fail "the screenshot is not a 1024x900 PNG of the page"
import struct, sys
b = open(sys.argv[1], 'rb').read()
assert b[:8] == b'\x89PNG\r\n\x1a\n' and b[12:16] == b'IHDR', 'not a PNG'
assert struct.unpack('>II', b[16:24]) == (1024, 900)
assert len(b) > 15000, 'blank? %d bytes' % len(b)
EOF
sleep 1
if pgrep -f "$TMP/profile" >/dev/null; then
    pgrep -af "$TMP/profile" >&2
    fail "chromium processes left behind"
fi
echo "test-browser-grade: ok: index.html and 4 feedback pages agree with grades.csv, boards drawn by the script (every registry game's too), no console message"
