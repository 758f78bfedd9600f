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
# ANCHOR=PROGRAM also runs PROGRAM (words split as the shell splits them, so
# it may carry options) on the same positions right after each set, on this
# machine: a build of another solver, say. It reads one move string per line
# on stdin (an empty line is the empty board) and prints "MOVES SCORE NODES
# MICROSECONDS" per line, as `engine solve` does, the score in the test
# sets' convention. ANCHOR_FORMAT says how its move strings count columns:
#   onebased   (default) 1 to 7, as the Pons sets and `engine solve`;
#   zerobased  0 to 6, as ChristopheSteininger/c4's own sets (tst/data/7x6);
#              the script converts the strings both ways.
# The table then adds the anchor's mean nodes and time and our time's ratio
# to it, which does not depend on how fast this machine is; every score of
# the anchor is compared with ours, line by line, and the first line where
# they differ is named.
#
# C4_SETS=DIR adds the first 20 positions (all 1000 with ALL=1) of
# ChristopheSteininger/c4's opening_L3 and opening_L2 (DIR is its
# tst/data/7x6; the sets are not arena's to ship), solved with a table of
# TT_MB MiB (default 1024, the size that solver is compared with) and
# THREADS threads (default 1), the table kept from one position to the next.
#
# Then the default threads (`engine solve` without --threads: one per core)
# against --threads 1 on End-Easy, whose solves are all small: PAIRS runs of
# each (default 5), in turn, which first alternating; each run's median
# microseconds per position, and the median of those over the runs. The
# default must not be slower.
#
# EMPTY=1 adds the empty board, strong, from a fresh table of TT_MB MiB
# (EMPTY_TT_MB is the older name) with THREADS threads: one solve, timed; no
# published figure.
set -eu
BIN=${1:-bin}
SETS=${SETS:-../shared/reference/connect4-testsets}
SAMPLE=${ALL:+1000}
SAMPLE=${SAMPLE:-50}
C4_SAMPLE=${ALL:+1000}
C4_SAMPLE=${C4_SAMPLE:-20}
C4_SETS=${C4_SETS:-}
TT_MB=${TT_MB:-${EMPTY_TT_MB:-1024}}
THREADS=${THREADS:-1}
ANCHOR=${ANCHOR:-}
ANCHOR_FORMAT=${ANCHOR_FORMAT:-onebased}
PAIRS=${PAIRS:-5}
OUT=results/solver-bench
rm -rf "$OUT"
mkdir -p "$OUT"
if [ ! -d "$SETS" ]; then
    echo "bench-solver: no test sets at $SETS (set SETS=DIR)" >&2
    exit 2
fi
if [ -n "$C4_SETS" ] && [ ! -f "$C4_SETS/opening_L3.txt" ]; then
    echo "bench-solver: no opening_L3.txt in $C4_SETS (C4_SETS is c4's tst/data/7x6)" >&2
    exit 2
fi
case $ANCHOR_FORMAT in
    onebased | zerobased) ;;
    *) echo "bench-solver: ANCHOR_FORMAT is onebased or zerobased, not '$ANCHOR_FORMAT'" >&2
       exit 2 ;;
esac

mean_us() {
    awk '{ us += $NF; n++ } END { printf "%.2f", us / n }' "$1"
}

# shift_columns BY: adds BY to every column digit of each line's move string
# (its first field; an empty move string stays empty), the rest of the line
# kept: ChristopheSteininger/c4 numbers columns from 0, arena from 1.
shift_columns() {
    awk -v by="$1" '{
        moves = ""; rest = ""
        if (substr($0, 1, 1) != " ") { moves = $1; rest = substr($0, length($1) + 1) }
        else rest = $0
        out = ""
        for (i = 1; i <= length(moves); i++) out = out (substr(moves, i, 1) + by)
        print out rest }'
}

# run_anchor IN OUT: the anchor on IN's move strings, its lines in OUT with
# 1-based move strings.
run_anchor() {
    if [ "$ANCHOR_FORMAT" = zerobased ]; then
        cut -d ' ' -f 1 "$1" | shift_columns -1 | $ANCHOR | shift_columns 1 > "$2"
    else
        cut -d ' ' -f 1 "$1" | $ANCHOR > "$2"
    fi
}

# anchor_columns OURS ANCHOR: the anchor's mean nodes, mean time and our
# time's ratio to it, a tab, then whether its scores agree with ours:
# "identical", or the first line where they (or the move strings) differ. The move string
# is what comes before the first space (the empty board's is empty).
anchor_columns() {
    awk -v us="$(mean_us "$1")" '
        function moves() { return substr($0, 1, index($0, " ") - 1) }
        NR == FNR { ours[FNR] = moves(); score[FNR] = $(NF - 2); n = FNR; next }
        { nodes += $(NF - 1); t += $NF; m++
          if (bad == "" && (moves() != ours[FNR] || $(NF - 2) != score[FNR]))
              bad = sprintf("line %d: ours \"%s %s\", anchor \"%s %s\"", FNR, ours[FNR],
                            score[FNR], moves(), $(NF - 2)) }
        END { if (m != n && bad == "") bad = sprintf("%d lines, ours %d", m, n)
              if (m == 0) { printf " %12s %14s %7s\tDIFFER: %s\n", "-", "-", "-", bad; exit }
              printf " %12.0f %14.2f %7.2f\t%s\n", nodes / m, t / m, us / (t / m),
                     bad == "" ? "identical" : "DIFFER: " bad }' "$1" "$2"
}

# row NAME FILE IN PUBLISHED [ENGINE-OPTION...]: solves IN, checks its
# scores, prints the row (and the anchor's columns).
row() {
    name=$1 file=$2 in=$3 published=$4
    shift 4
    if "$BIN/engine" solve "$@" "$in" > "$OUT/$file.out" 2> "$OUT/$file.err"; then
        verdict="identical"
    else
        verdict="DIFFER (see $OUT/$file.err)"
        status=1
    fi
    awk -v set="$name" -v file="$file" -v anchor="$published" '
        { nodes += $(NF - 1); us += $NF; n++ }
        END { printf "%-14s %-10s %5d %12.0f %14.2f %14s %7s", set, file, n, nodes / n,
              us / n, anchor, anchor == "-" ? "-" : sprintf("%.2f", us / n / anchor) }' \
        "$OUT/$file.out"
    if [ -n "$ANCHOR" ]; then
        run_anchor "$in" "$OUT/$file.anchor"
        anchor_columns "$OUT/$file.out" "$OUT/$file.anchor" > "$OUT/$file.cmp"
        printf '%s %s;' "$(cut -f 1 "$OUT/$file.cmp")" "$verdict"
        verdict="anchor $(cut -f 2 "$OUT/$file.cmp")"
        grep -q '	identical$' "$OUT/$file.cmp" || status=1
    fi
    printf ' %s\n' "$verdict"
}

printf '%-14s %-10s %5s %12s %14s %14s %7s' set file n "mean nodes" "mean us" \
    "published us" ratio
[ -n "$ANCHOR" ] && printf ' %12s %14s %7s' "anchor nodes" "anchor us" ratio
printf ' scores (the set%s)\n' "${ANCHOR:+; the anchor against ours}"
status=0
for r in "End-Easy L3_R1 1000 4.568" "Middle-Easy L2_R1 1000 37.45" \
         "Middle-Medium L2_R2 1000 3212" "Begin-Easy L1_R1 1000 254.6" \
         "Begin-Medium L1_R2 1000 96630" "Begin-Hard L1_R3 $SAMPLE 5490000"; do
    set -- $r
    head -n "$3" "$SETS/Test_$2" > "$OUT/$2.in"
    row "$1" "$2" "$OUT/$2.in" "$4" --threads 1
done
if [ -n "$C4_SETS" ]; then
    for c4set in opening_L3 opening_L2; do
        # Its lines are "MOVES SCORE" as the Pons sets' (same score
        # convention), but with 0-based columns: shifted to arena's 1-based.
        head -n "$C4_SAMPLE" "$C4_SETS/$c4set.txt" | shift_columns 1 > "$OUT/$c4set.in"
        row "c4-$c4set" "$c4set" "$OUT/$c4set.in" - --tt-mb "$TT_MB" --threads "$THREADS"
    done
fi
# median_of: the median of the numbers on stdin, one a line.
median_of() {
    sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '\nEnd-Easy, median us per position (median of %d runs each, in turn):\n' "$PAIRS"
: > "$OUT/threads-default.runs"
: > "$OUT/threads-1.runs"
i=0
while [ "$i" -lt "$PAIRS" ]; do
    # Which runs first alternates: the second run of a pair tends to be faster.
    order="default 1"
    [ $((i % 2)) -eq 1 ] && order="1 default"
    for t in $order; do
        opt=""
        [ "$t" = 1 ] && opt="--threads 1"
        # shellcheck disable=SC2086 # opt is empty or two words
        "$BIN/engine" solve $opt "$OUT/L3_R1.in" > "$OUT/threads-$t.out"
        awk '{ print $NF }' "$OUT/threads-$t.out" | median_of >> "$OUT/threads-$t.runs"
    done
    i=$((i + 1))
done
def=$(median_of < "$OUT/threads-default.runs")
one=$(median_of < "$OUT/threads-1.runs")
awk -v d="$def" -v o="$one" -v c="$(getconf _NPROCESSORS_ONLN)" 'BEGIN {
    printf "  default threads (%d cores) %8.2f us\n  --threads 1          %8.2f us\n", c, d, o
    printf "  default / one thread %8.2f\n", d / o }'

if [ -n "${EMPTY:-}" ]; then
    printf ' 1\n' > "$OUT/empty.in"    # no moves; the first player wins with his last disc
    row Empty-board empty "$OUT/empty.in" - --tt-mb "$TT_MB" --threads "$THREADS"
fi
exit $status
