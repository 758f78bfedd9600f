#!/bin/sh
# test-install.sh - `make test-install` (docs/install.md): install into
# temporary folders, run the installed commands from elsewhere against the
# installed data, check every man page, uninstall and check nothing is left.
# Run from the repository root; MAKE is the make to call (default make).
set -eu

MAKE=${MAKE:-make}
ROOT=$(pwd)
# Short paths: the man pages print the data folder and must still fit.
T=$(mktemp -d "${TMPDIR:-/tmp}/arena.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "test-install: $*" >&2; exit 1; }
version=$(sed -n 's/^#define ARENA_VERSION "\(.*\)"/\1/p' include/arena/version.h)
tools="engine referee maxconnect4 spfiar checkers nim"

# 1. The packager's flags reach every compile and link command.
flags=$($MAKE -n -B all CPPFLAGS=-DARENA_PROBE_CPPFLAGS CFLAGS=-DARENA_PROBE_CFLAGS \
    LDFLAGS=-Wl,--arena-probe-ldflags)
for line in $(echo "$flags" | grep -n ' -c ' | cut -d: -f1); do
    echo "$flags" | sed -n "${line}p" | grep -q 'ARENA_PROBE_CPPFLAGS.*ARENA_PROBE_CFLAGS' \
        || fail "a compile command lacks CPPFLAGS or CFLAGS: $(echo "$flags" | sed -n "${line}p")"
done
for b in arena $tools; do
    echo "$flags" | grep -- "-o bin/$b " | grep -q -- '--arena-probe-ldflags' \
        || fail "the link of bin/$b lacks LDFLAGS"
done

# 2. Install with PREFIX a temporary folder and use it from another one.
P=$T/p
$MAKE --no-print-directory install PREFIX="$P" >"$T/install.log" 2>&1 \
    || { cat "$T/install.log" >&2; fail "make install PREFIX=$P failed"; }
mkdir "$T/elsewhere"
cd "$T/elsewhere"
PATH=$P/bin:$PATH
export PATH
[ "$(arena --version)" = "arena (arena) $version" ] || fail "arena --version: $(arena --version)"
for t in $tools; do
    [ "$(arena-$t --version)" = "arena-$t (arena) $version" ] || fail "arena-$t --version"
    [ "$(arena "$t" --version)" = "arena-$t (arena) $version" ] || fail "arena $t --version"
done
printf '0000000\n0000000\n0000000\n0000000\n0000000\n0000000\n1\n' >empty.txt
arena engine one-move --game connect4 --player qlearn empty.txt after.txt >move.out 2>move.err \
    || fail "qlearn move without --weights: $(cat move.err)"
grep -q '^info game connect4 player qlearn ' move.err || fail "qlearn move: $(cat move.err)"
[ -s after.txt ] || fail "qlearn move wrote no board"
solved=$(echo 4455 | arena engine solve --book "$P/share/arena/connect4-book.txt")
case $solved in "4455 18 "*) ;; *) fail "solve --book: '$solved'" ;; esac
# The perfect player reads the installed book by itself: the empty board's
# children are in it, so the first move is a look-up. Without the book it is
# a minute's solve; the timeout only turns that regression into a failure.
timeout 60 arena engine one-move --game connect4 --player perfect empty.txt perfect.txt \
    >move.out 2>move.err || fail "perfect move from the empty board: $(cat move.err)"
[ "$(sed -n 6p perfect.txt)" = 0001000 ] || fail "perfect move: $(cat perfect.txt)"
arena referee match --game connect4 --games 2 --depth 2 --random-plies 2 \
    --engine "name=ab,cmd=arena-engine one-move --game connect4" \
    --engine "name=q,cmd=$P/bin/arena engine one-move --game connect4 --player qlearn" \
    >match.out 2>match.err || fail "referee match: $(cat match.out match.err)"
grep -q '^Score of ab vs q: ' match.out || fail "referee match: $(cat match.out)"
grep -q 'forfeits' match.out && fail "an installed engine forfeited: $(cat match.out)"
# The installed plot script draws referee bench's figures.
[ -x "$P/share/arena/plot-bench.sh" ] || fail "no executable $P/share/arena/plot-bench.sh"
arena referee bench --game maxconnect4 --depths 1-2 --random-positions 1 \
    --engine "name=ab,cmd=arena-engine one-move" --svg bench.svg >bench.out 2>bench.err \
    || fail "referee bench --svg: $(cat bench.out bench.err)"
[ "$(tail -n 1 bench.out)" = "wrote bench.svg" ] && xmllint --noout bench.svg \
    || fail "referee bench --svg drew no plot: $(cat bench.out bench.err)"
pages=$(ls "$P/share/man/man1")
[ "$(echo $pages)" = "arena-checkers.1 arena-engine.1 arena-maxconnect4.1 arena-nim.1 arena-referee.1 arena-spfiar.1 arena.1" ] \
    || fail "man pages: $pages"
for page in $pages; do
    MANWIDTH=80 man -l --warnings "$P/share/man/man1/$page" >page.txt 2>page.err \
        || fail "man -l $page failed: $(cat page.err)"
    [ -s page.err ] && fail "man -l --warnings $page: $(cat page.err)"
    grep -q '@DATADIR@\|@VERSION@' page.txt && fail "$page: a placeholder was left"
    [ -s page.txt ] || fail "$page renders empty"
done
MANPATH=$P/share/man man -w arena-referee >/dev/null || fail "man arena-referee: not found"
cd "$ROOT"

# 3. Uninstall leaves nothing of arena.
$MAKE --no-print-directory uninstall PREFIX="$P" >/dev/null
left=$(find "$P" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall: $left"
[ ! -e "$P/share/arena" ] && [ ! -e "$P/share/doc/arena" ] || fail "arena folders left"

# 4. DESTDIR staging: the exact files, then nothing after uninstall.
S=$T/stage
$MAKE --no-print-directory install DESTDIR="$S" PREFIX=/usr >"$T/install.log" 2>&1 \
    || { cat "$T/install.log" >&2; fail "make install DESTDIR=$S failed"; }
staged=$(cd "$S" && find . -type f | sort | tr '\n' ' ')
want="./usr/bin/arena ./usr/bin/arena-checkers ./usr/bin/arena-engine \
./usr/bin/arena-maxconnect4 ./usr/bin/arena-nim ./usr/bin/arena-referee \
./usr/bin/arena-spfiar ./usr/share/arena/connect4-book.txt \
./usr/share/arena/plot-bench.sh ./usr/share/arena/qlearn.weights \
./usr/share/doc/arena/LICENSE \
./usr/share/doc/arena/NEWS ./usr/share/doc/arena/README.md \
./usr/share/doc/arena/install.md ./usr/share/man/man1/arena-checkers.1 \
./usr/share/man/man1/arena-engine.1 ./usr/share/man/man1/arena-maxconnect4.1 \
./usr/share/man/man1/arena-nim.1 ./usr/share/man/man1/arena-referee.1 \
./usr/share/man/man1/arena-spfiar.1 ./usr/share/man/man1/arena.1 "
[ "$staged" = "$want" ] || fail "staged files: $staged"
grep -q '/usr/share/arena/qlearn.weights' "$S/usr/share/man/man1/arena-engine.1" \
    || fail "the staged man page does not name /usr/share/arena"
$MAKE --no-print-directory uninstall DESTDIR="$S" PREFIX=/usr >/dev/null
left=$(find "$S" -type f -o -type l)
[ -z "$left" ] || fail "left after uninstall from DESTDIR: $left"
echo "test-install: installed, used from another folder, man pages clean, uninstalled: ok"
