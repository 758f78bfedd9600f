#!/bin/sh
# bench-solver.sh - the Connect-4 solver against the public test sets
# (`make bench-solver`): every position of End-Easy, Middle-Easy,
# Middle-Medium, Begin-Easy and Begin-Medium, and the first 50 of Begin-Hard
# (all 1000 with ALL=1). Every score is checked against the set's own;
# prints mean nodes and mean elapsed microseconds per position next to the
# anchor's published figures (Pons, "Solving Connect 4", strong solver).
# The solver keeps its table from one position to the next, as the anchor's
# benchmark does. Outputs under results/solver-bench/.
#
# ANCHOR=PROGRAM also runs PROGRAM on the same positions right after each
# set, on this machine (a build of the anchor, say): it reads move strings
# on stdin and prints "MOVES SCORE NODES MICROSECONDS" per line, as
# `engine solve` does. The table then adds its mean time and the ratio to
# it, which does not depend on how fast this machine is.
#
# EMPTY=1 adds the empty board, strong, from a fresh table of EMPTY_TT_MB
# MiB (default 1024, the size the other solvers are compared with) with
# THREADS threads (default 1): one solve, timed; no published figure.
set -eu
BIN=${1:-bin}
SETS=${SETS:-../shared/reference/connect4-testsets}
SAMPLE=${ALL:+1000}
SAMPLE=${SAMPLE:-50}
ANCHOR=${ANCHOR:-}
OUT=results/solver-bench
rm -rf "$OUT"
mkdir -p "$OUT"
if [ ! -d "$SETS" ]; then
    echo "bench-solver: no test sets at $SETS (set SETS=DIR)" >&2
    exit 2
fi

mean_us() {
    awk '{ us += $4; n++ } END { printf "%.2f", us / n }' "$1"
}

printf '%-14s %-6s %5s %12s %14s %14s %7s' set file n "mean nodes" "mean us" \
    "anchor us" ratio
[ -n "$ANCHOR" ] && printf ' %14s %7s' "here anchor us" ratio
printf ' %s\n' scores
status=0
for row in "End-Easy L3_R1 1000 4.568" "Middle-Easy L2_R1 1000 37.45" \
           "Middle-Medium L2_R2 1000 3212" "Begin-Easy L1_R1 1000 254.6" \
           "Begin-Medium L1_R2 1000 96630" "Begin-Hard L1_R3 $SAMPLE 5490000"; do
    set -- $row
    head -n "$3" "$SETS/Test_$2" > "$OUT/$2.in"
    if "$BIN/engine" solve --threads 1 "$OUT/$2.in" > "$OUT/$2.out" 2> "$OUT/$2.err"; then
        verdict="identical"
    else
        verdict="DIFFER (see $OUT/$2.err)"
        status=1
    fi
    us=$(mean_us "$OUT/$2.out")
    awk -v set="$1" -v file="$2" -v anchor="$4" -v us="$us" '
        { nodes += $3; n++ }
        END { printf "%-14s %-6s %5d %12.0f %14.2f %14.2f %7.2f", set, file, n,
              nodes / n, us, anchor, us / anchor }' "$OUT/$2.out"
    if [ -n "$ANCHOR" ]; then
        cut -d ' ' -f 1 "$OUT/$2.in" | "$ANCHOR" > "$OUT/$2.anchor"
        here=$(mean_us "$OUT/$2.anchor")
        awk -v us="$us" -v here="$here" 'BEGIN { printf " %14.2f %7.2f", here, us / here }'
    fi
    printf ' %s\n' "$verdict"
done
if [ -n "${EMPTY:-}" ]; then
    printf ' 1\n' > "$OUT/empty.in"    # no moves; the first player wins with his last disc
    if "$BIN/engine" solve --tt-mb "${EMPTY_TT_MB:-1024}" --threads "${THREADS:-1}" \
        "$OUT/empty.in" > "$OUT/empty.out" 2> "$OUT/empty.err"; then
        verdict="identical"
    else
        verdict="DIFFER (see $OUT/empty.err)"
        status=1
    fi
    # The line starts with the empty move string: count fields from the end.
    awk '{ printf "%-14s %-6s %5d %12.0f %14.2f %14s %7s", "Empty-board", "-", 1, $(NF - 1),
           $NF, "-", "-" }' "$OUT/empty.out"
    if [ -n "$ANCHOR" ]; then
        printf '\n' | "$ANCHOR" > "$OUT/empty.anchor"
        here=$(awk '{ print $NF }' "$OUT/empty.anchor")
        us=$(awk '{ print $NF }' "$OUT/empty.out")
        awk -v us="$us" -v here="$here" 'BEGIN { printf " %14.2f %7.2f", here, us / here }'
    fi
    printf ' %s\n' "$verdict"
fi
exit $status
