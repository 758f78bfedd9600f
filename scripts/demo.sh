#!/bin/sh
# demo.sh - `make demo`: a round-robin Max-Connect4 tournament between five
# settings of the built-in engine (random, alpha-beta depths 1, 3, 5, 7),
# every pair twice per round with colours swapped on a shared random
# opening, as many games at once as there are cores. Prints each result and
# the standings; writes the journal, the reports (report.html: the page to
# open in a browser) and verify's verdict under results/demo/. Then `referee
# bench` measures the same engine's CPU time per move at depths 1-9 (and the
# random player's, flat) and draws it (--svg) as results/demo/bench.svg.
set -eu
BIN=${1:-bin}
E=$(cd "$BIN" && pwd)/engine
OUT=results/demo
CORES=$(nproc 2>/dev/null || echo 2)   # the CPUs this process may use: --concurrency may not exceed them
rm -rf "$OUT"
mkdir -p "$OUT"

spec() { echo "name=$1,cmd=$E one-move --game maxconnect4 $2 {in} {out}"; }
echo "Max-Connect4 round robin: random, depth 1, 3, 5, 7; 4 rounds; concurrency $CORES"
"$BIN/referee" tournament --game maxconnect4 --rounds 4 --random-plies 4 --seed 2026 \
    --concurrency "$CORES" --journal "$OUT/journal.jsonl" \
    --engine "$(spec random '--player random --seed {player} --depth 1')" \
    --engine "$(spec depth1 '--depth 1')" \
    --engine "$(spec depth3 '--depth 3')" \
    --engine "$(spec depth5 '--depth 5')" \
    --engine "$(spec depth7 '--depth 7')"
"$BIN/referee" report "$OUT/journal.jsonl" > "$OUT/report.txt"
"$BIN/referee" report "$OUT/journal.jsonl" --format json > "$OUT/report.json"
for table in standings pairs cpu forfeits; do
    "$BIN/referee" report "$OUT/journal.jsonl" --format csv --table $table > "$OUT/$table.csv"
done
"$BIN/referee" report "$OUT/journal.jsonl" --format html > "$OUT/report.html"
"$BIN/referee" verify "$OUT/journal.jsonl" | tee "$OUT/verify.txt"
echo "Journal and reports: $OUT/"
echo "The tournament to look at (open it in a browser): $OUT/report.html"
"$BIN/referee" bench --game maxconnect4 --depths 1-9 --random-positions 4 --seed 2026 \
    --json "$OUT/bench.json" --svg "$OUT/bench.svg" \
    --engine "$(spec alphabeta '--depth {depth}')" \
    --engine "$(spec random '--player random --seed {player} --depth {depth}')" \
    > "$OUT/bench.txt"
echo "Depth against CPU time per move (referee bench): $OUT/bench.txt"
echo "Its plot: $OUT/bench.svg"
