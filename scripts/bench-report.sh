#!/bin/sh
# bench-report.sh - `make bench-report`: referee report in every format on a
# 10,000-game journal (GAMES=N for another count), with /usr/bin/time -v's
# wall time and peak memory. The journal is the demo's games (make demo, run
# first when results/demo/ has none) copied until there are GAMES, each copy
# with new game and pair numbers (jq), so every game is one the referee
# played. Results under results/report-bench/.
set -eu
BIN=${1:-bin}
GAMES=${GAMES:-10000}
OUT=results/report-bench
DEMO=results/demo/journal.jsonl
[ -f "$DEMO" ] || sh scripts/demo.sh "$BIN" > /dev/null
mkdir -p "$OUT"
J=$OUT/journal.jsonl
head -n 1 "$DEMO" > "$J"
tail -n +2 "$DEMO" | jq -c -s --argjson games "$GAMES" '
    length as $n | (map(.pair) | max + 1) as $pairs
    | range(0; $games) as $k | .[$k % $n]
    | .index = $k + 1 | .pair = (($k / $n | floor) * $pairs + .pair)' >> "$J"
echo "journal: $GAMES games, $(wc -c < "$J") bytes"
for f in text json html; do
    /usr/bin/time -v "$BIN/referee" report --format $f "$J" > "$OUT/report.$f" 2> "$OUT/time.$f"
    awk -v f=$f -v size="$(wc -c < "$OUT/report.$f")" '
        /User time/ { u = $NF } /System time/ { s = $NF } /Elapsed/ { w = $NF }
        /Maximum resident/ { m = $NF }
        END { printf "referee report --format %-4s: %s wall, %.2f s CPU, %.1f MB peak, %d bytes out\n", f, w, u + s, m / 1024, size }' \
        "$OUT/time.$f"
done
