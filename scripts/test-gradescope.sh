#!/bin/sh
# test-gradescope.sh - `make test-gradescope`: docs/gradescope's two scripts
# end to end, as Gradescope runs them, under a temporary folder standing for
# /autograder (AUTOGRADER_ROOT):
#   1. source/ holds the autograder's zip as a teacher makes it: arena's
#      tracked files (as `git archive --prefix=arena/` would give them, the
#      working tree's versions) and the rubric; setup.sh installs the build's
#      packages with apt-get and builds arena there from scratch (no bin/ or
#      build/ is copied), then prints the built referee's version;
#   2. run_autograder grades submission/ with that build (no ARENA_REFEREE)
#      and results/results.json has Gradescope's documented fields: score,
#      execution_time, stdout_visibility, and a test a check with name,
#      score, max_score, output and visibility, the hidden checks included.
# setup.sh runs apt-get, so this runs as root (Gradescope's image builder
# does; CI does); another user gets a failure saying so, not a skip.
# tests/test_e2e_gradescope.c checks run_autograder's other paths with the
# tree's own build.
#
#   test-gradescope.sh
set -eu
cd "$(dirname "$0")/.."
fail() { echo "test-gradescope: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "setup.sh installs packages with apt-get: run this as root"
for t in git jq tar; do command -v $t >/dev/null 2>&1 || fail "no $t"; done
T=$(mktemp -d "${TMPDIR:-/tmp}/arena-gradescope.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
root=$T/autograder
mkdir -p "$root/source/arena" "$root/submission"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$root/source/arena"
cp tests/grade/visibility/rubric.json "$root/source/rubric.json"
cp tests/grade/class/alphabeta/engine.py "$root/submission/engine.py"

AUTOGRADER_ROOT=$root sh docs/gradescope/setup.sh > "$T/setup.log" 2>&1 ||
    { tail -n 30 "$T/setup.log" >&2; fail "setup.sh failed (its log's end above)"; }
version=$(tail -n 1 "$T/setup.log")
want=$(bin/referee --version 2>/dev/null || true)
[ -x "$root/source/arena/bin/referee" ] || fail "setup.sh left no source/arena/bin/referee"
case $version in
    "referee (arena) "*) ;;
    *) fail "setup.sh's last line is not the built referee's version: '$version'" ;;
esac
[ -z "$want" ] || [ "$version" = "$want" ] || fail "setup.sh built '$version', the tree is '$want'"

AUTOGRADER_ROOT=$root sh docs/gradescope/run_autograder > "$T/run.log" 2>&1 ||
    { cat "$T/run.log" >&2; fail "run_autograder failed"; }
grep -qx "submission: 45 of 45 points" "$T/run.log" ||
    { cat "$T/run.log" >&2; fail "run_autograder did not grade 45 of 45 (its output above)"; }
r=$root/results/results.json
[ "$(ls -A "$root/results")" = results.json ] || fail "results/ holds $(ls -A "$root/results")"
# The fields and their types, as Gradescope documents them; the checks in
# the rubric's order with its points and visibilities.
got=$(jq -c '[.score, (.execution_time | type), .stdout_visibility,
              [.tests[] | [.name, .score, .max_score, (.output | type), .visibility]]]' "$r")
want='[45,"number","hidden",[["legal",10,10,"string","visible"],["secret",30,30,"string","hidden"],["tardy",5,5,"string","after_due_date"]]]'
[ "$got" = "$want" ] || fail "results.json: $got, not $want"
jq -e '[.tests[].output | length > 0] | all' "$r" > /dev/null || fail "a test without output"
echo "test-gradescope: setup.sh built $version from the source; run_autograder graded 45 of 45, results.json as Gradescope documents it"
