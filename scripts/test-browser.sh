#!/bin/sh
# test-browser.sh - `make test-browser`: referee report --format html in a
# real browser (Debian's chromium, headless; install-deps.sh installs it).
# For each JOURNAL it writes the page and checks, from the DOM Chromium
# renders (--dump-dom) and a screenshot:
#   - the standings table lists the journal's engines in the order of their
#     points (a win 1, a draw 1/2; ties in the header's order), computed
#     here from the journal with jq;
#   - each crosstable row's W, L and D add up to that engine's wins, losses
#     and draws in the journal (jq);
#   - the Elo and CPU charts are SVG with one series per engine;
#   - the longest game, replayed with the page's own "next" button as many
#     times as it has plies (report.html#test-replay=GAME,N), shows the final
#     position of the journal's moves: for Connect-4 and Max-Connect4 the
#     board file is computed here with jq by dropping the discs, for Nim by
#     taking matches from the rows; for every game (checkers: only) it is
#     also the final board the page prints without a script;
#   - the board it shows is drawn from that board file by the one board
#     drawing (boardhtml.h), cell for cell (test-board-dom.py reads it
#     back: each character's cell, a checkerboard's shades and lettered
#     pieces, a plain grid's characters, Nim's rows of matches);
#   - no console message and no script error at all;
#   - with JavaScript off the tables and charts are there all the same;
#   - the screenshot is a PNG of the window's size, not of one colour.
# A check that cannot run (no chromium, no output) fails; nothing is
# skipped. No Chromium process outlives the script.
#
#   test-browser.sh BIN [--judge CMD] JOURNAL...
#
# --judge CMD: the journal after it is a judge's, replayed through CMD
# (a journal's own command is never run: referee.md).
set -eu
BIN=$1
shift
TMP=$(mktemp -d)
PGIDS=""
cleanup() {
    for g in $PGIDS; do kill -KILL -- "-$g" 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
fail() { echo "test-browser: FAIL: $*" >&2; exit 1; }
command -v chromium >/dev/null 2>&1 || fail "no chromium (scripts/install-deps.sh installs it)"
for t in jq python3; do command -v $t >/dev/null 2>&1 || fail "no $t"; done

# chromium OUT ERR ARGS...: one headless run in a process group of its own
# (setsid), killed whole when it is done or after a minute.
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

# The DOM's facts as lines "KEY VALUE" (python3's HTML parser).
dom_facts() {
    python3 - "$1" <<'EOF'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.stack=[]; s.text=None; s.facts=[]; s.table=None; s.row=None; s.cell=0
        s.svg=None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == 'table' and a.get('id') in ('standings-table', 'crosstable-table'):
            s.table = a['id']
        if s.table and tag == 'tr': s.row = []
        if s.table and tag in ('td', 'th') and s.row is not None:
            s.row.append([a, '']); s.cell = 1
        if tag == 'svg': s.svg = a.get('id')
        if tag == 'g' and s.svg: s.facts.append(('series', s.svg))
        if tag == 'pre' and a.get('id') in ('test-result', 'js-errors'):
            s.text = [a.get('id'), '']
            if a.get('id') == 'test-result': s.facts.append(('result-ply', a.get('data-ply')))
        if tag == 'script': s.facts.append(('script', '1'))
    def handle_data(s, d):
        if s.text is not None: s.text[1] += d
        if s.cell and s.row: s.row[-1][1] += d
    def handle_endtag(s, tag):
        if tag in ('td', 'th'): s.cell = 0
        if tag == 'pre' and s.text is not None:
            s.facts.append((s.text[0], s.text[1].replace('\n', '/'))); s.text = None
        if tag == 'tr' and s.table and s.row:
            if s.table == 'standings-table' and s.row[0][0] == {} and not s.row[0][1].startswith('Rank'):
                s.facts.append(('standing', s.row[1][1]))
            if s.table == 'crosstable-table' and any('data-w' in c[0] for c in s.row):
                w = sum(int(c[0].get('data-w', 0)) for c in s.row)
                l = sum(int(c[0].get('data-l', 0)) for c in s.row)
                d = sum(int(c[0].get('data-d', 0)) for c in s.row)
                s.facts.append(('cross', '%s\t%d %d %d' % (s.row[0][1], w, l, d)))
            s.row = None
        if tag == 'table': s.table = None
        if tag == 'svg': s.svg = None
p = P(); p.feed(open(sys.argv[1], encoding='utf-8').read())
for k, v in p.facts: print(k, v)
EOF
}

# The final board file the page itself shows for game $2 (no script needed),
# newlines as /.
static_final() {
    python3 - "$1" "$2" <<'EOF2'
import html, re, sys
page = open(sys.argv[1], encoding='utf-8').read()
at = page.index('id="game-%s"' % sys.argv[2])
m = re.compile(r'<div class="final"><p>[^<]*</p><pre>([^<]*)</pre>').search(page, at)
print(html.unescape(m.group(1)).replace('\n', '/'))
EOF2
}

check_journal() {
    J=$1
    HTML="$TMP/report.html"
    "$BIN/referee" report --format html ${JUDGE:+--judge "$JUDGE"} "$J" > "$HTML" ||
        fail "$J: referee report --format html"
    xmllint --noout "$HTML" || fail "$J: the page is not well-formed"
    n_engines=$(head -n 1 "$J" | jq '.engines | length')
    game=$(head -n 1 "$J" | jq -r '.game')

    # Expected, from the journal: standings order, and W L D per engine.
    tail -n +2 "$J" | jq -s --argjson hdr "$(head -n 1 "$J")" -r '
        . as $g | $hdr.engines | to_entries
        | map(.value.name as $n | {i: .key, n: $n,
              w: ([$g[] | select(.winner == $n)] | length),
              l: ([$g[] | select(.winner != null and .winner != $n and
                                (.players["1"] == $n or .players["2"] == $n))] | length),
              d: ([$g[] | select(.winner == null and
                                (.players["1"] == $n or .players["2"] == $n))] | length)})
        | sort_by([-(.w + .d / 2), .i]) | .[] | "\(.n)\t\(.w) \(.l) \(.d)"' > "$TMP/expected"
    cut -f 1 "$TMP/expected" > "$TMP/expected-order"

    # The game with the most plies, and its final board file (Connect-4
    # family: discs dropped column by column; a board file lists the top row
    # first, then the side to move).
    tail -n +2 "$J" | jq -s -c 'map({i: .index, m: (.opening + [.moves[] | select(.move != null) | .move])})
        | max_by(.m | length)' > "$TMP/longest"
    gi=$(jq '.i' "$TMP/longest")
    plies=$(jq '.m | length' "$TMP/longest")
    case $game in
    connect4|maxconnect4)
        jq -r 'reduce .m[] as $c ({col: [range(7) | []], p: 1};
                  .col[($c | tonumber) - 1] += [.p] | .p = 3 - .p)
               | ([range(5; -1; -1) as $r | [range(7) as $k | (.col[$k][$r] // 0 | tostring)] | join("")]
                  + [(.p | tostring)]) | join("/") + "/"' "$TMP/longest" > "$TMP/expected-board";;
    nim)   # rows 1 3 5 7; a move ROW:MATCHES takes matches from a row
        jq -r 'reduce .m[] as $mv ({rows: [1, 3, 5, 7], p: 1};
                  ($mv | split(":") | map(tonumber)) as [$r, $k] | .rows[$r] -= $k | .p = 3 - .p)
               | (.rows | map(tostring) | join(" ")) + "/" + (.p | tostring) + "/"' \
            "$TMP/longest" > "$TMP/expected-board";;
    *)     # checkers: no second rule book here; the page's own final board
           # (written by the referee's rules) is what the replay must reach
        : > "$TMP/expected-board";;
    esac
    static_final "$HTML" "$gi" > "$TMP/static-board"

    browse "$TMP/dom.html" "$TMP/dom.log" --dump-dom "file://$HTML#test-replay=$gi,$plies"
    dom_facts "$TMP/dom.html" > "$TMP/facts"
    sed -n 's/^standing //p' "$TMP/facts" > "$TMP/order"
    diff -u "$TMP/expected-order" "$TMP/order" || fail "$J: standings order differs from the journal's"
    [ "$(wc -l < "$TMP/order")" -eq "$n_engines" ] || fail "$J: $n_engines engines expected"
    if [ "$(head -n 1 "$J" | jq -r '.format // "round-robin"')" = round-robin ]; then
        sed -n 's/^cross //p' "$TMP/facts" | sort > "$TMP/cross"
        sort "$TMP/expected" | diff -u - "$TMP/cross" || fail "$J: crosstable sums differ from the journal's"
    fi
    for chart in elo-chart cpu-chart; do
        got=$(grep -c "^series $chart\$" "$TMP/facts" || true)
        [ "$got" -eq "$n_engines" ] || fail "$J: $chart has $got series, $n_engines engines"
    done
    ply=$(sed -n 's/^result-ply //p' "$TMP/facts")
    [ "$ply" = "$plies" ] || fail "$J: replay of game $gi stopped at ply '$ply', not $plies"
    board=$(sed -n 's/^test-result //p' "$TMP/facts")
    if [ -s "$TMP/expected-board" ]; then
        [ "$board" = "$(cat "$TMP/expected-board")" ] \
            || fail "$J: game $gi after $plies steps shows $board, the journal ends at $(cat "$TMP/expected-board")"
    fi
    [ "$board" = "$(cat "$TMP/static-board")" ] \
        || fail "$J: game $gi after $plies steps shows $board, the page's final board is $(cat "$TMP/static-board")"
    drawn=$(python3 scripts/test-board-dom.py "$TMP/dom.html") || fail "$J: $drawn"
    errors=$(sed -n 's/^js-errors //p' "$TMP/facts")
    [ -z "$errors" ] || fail "$J: script errors: $errors"
    if grep 'CONSOLE' "$TMP/dom.log"; then fail "$J: console messages (above)"; fi

    # JavaScript off: the same tables and charts, no replay. (Chromium's
    # --blink-settings=scriptEnabled=false also stops --dump-dom; a copy of
    # the page whose policy forbids every script does not.)
    sed 's|<head>|<head><meta http-equiv="Content-Security-Policy" content="script-src '"'none'"'"/>|' \
        "$HTML" > "$TMP/nojs-report.html"
    grep -q 'script-src' "$TMP/nojs-report.html" || fail "$J: no <head> to put the policy in"
    browse "$TMP/nojs.html" "$TMP/nojs.log" --dump-dom "file://$TMP/nojs-report.html#test-replay=$gi,$plies"
    dom_facts "$TMP/nojs.html" > "$TMP/nojs-facts"
    sed -n 's/^standing //p' "$TMP/nojs-facts" | diff -u "$TMP/expected-order" - \
        || fail "$J: with JavaScript off the standings differ"
    ! grep -q '^result-ply' "$TMP/nojs-facts" || fail "$J: a script ran with JavaScript off"
    [ "$(grep -c '^series ' "$TMP/nojs-facts")" -eq $((2 * n_engines)) ] \
        || fail "$J: with JavaScript off the charts are not all there"

    browse "$TMP/shot.out" "$TMP/shot.log" --window-size=1280,1600 \
        --screenshot="$TMP/shot.png" "file://$HTML#test-replay=$gi,$plies"
    [ -s "$TMP/shot.png" ] || fail "$J: no screenshot"
    python3 - "$TMP/shot.png" <<'EOF' || fail "$J: the screenshot is not a 1280x1600 PNG of the page"
import struct, sys
b = open(sys.argv[1], 'rb').read()
assert b[:8] == b'\x89PNG\r\n\x1a\n' and b[12:16] == b'IHDR', 'not a PNG'
w, h = struct.unpack('>II', b[16:24])
assert (w, h) == (1280, 1600), (w, h)
# A page of one colour compresses to about 5 KB; the report's tables and
# charts to well over 100 KB.
assert len(b) > 30000, 'blank? %d bytes' % len(b)
EOF
    echo "test-browser: $J: $n_engines engines in order, crosstable sums, game $gi replayed to ply $plies and drawn (boards, pieces: $drawn), no console message, works without JavaScript, screenshot $(wc -c < "$TMP/shot.png") bytes"
}

[ $# -gt 0 ] || fail "no journal given"
JUDGE=""
while [ $# -gt 0 ]; do
    if [ "$1" = --judge ]; then
        JUDGE=$2
        shift 2
        continue
    fi
    check_journal "$1"
    JUDGE=""
    shift
done
# Nothing of Chromium's is left: its processes carried the profile's path.
sleep 1
if pgrep -f "$TMP/profile" >/dev/null; then
    pgrep -af "$TMP/profile" >&2
    fail "chromium processes left behind"
fi
echo "test-browser: ok"
