#!/bin/sh
# bench-referee.sh - the referee's benchmarks (`make bench-referee`):
#   1. overhead per move with a near-trivial engine (Nim, perfect player),
#      with the sandbox and without (--sandbox none), side by side, twice
#      each, alternating: the report's "Referee overhead per move" (wall
#      outside the engine; the first move of a game also counts opening the
#      game's sandbox) and the whole run's wall time per move;
#   2. games per second at --concurrency 1 and 2 with CPU-bound engines
#      (Max-Connect4, alpha-beta depth 14, 4 MiB table; CDEPTH and CTT for
#      others) and their ratio, in the sandbox and without, after the
#      machine's own ceiling: the engine as bare processes, 2 at a time;
#   3. a GAMES-game tournament of fast engines, then `referee verify`;
#   4. `referee bench` against a game: the same engine (Max-Connect4,
#      alpha-beta depth 4) in a 10-game match and in a bench of 200 moves
#      (50 positions, 4 times each), twice each, alternating: the referee's
#      overhead per move and the engine's median CPU per move in both;
#   5. `referee bench` of an engine that hides its work in children it never
#      reaps (tests/engines/tree.py: 4 children of 0.2 s CPU each): the CPU
#      billed per move against what the same work costs when reaped, measured
#      outside the referee (the rusage of its reaped children), and the same
#      engine reaping them in the same bench; the journal header's
#      "accounting" says how moves were billed.
# Writes journals and reports under results/referee-bench/.
set -eu
BIN=${1:-bin}
GAMES=${GAMES:-10000}
OUT=results/referee-bench
rm -rf "$OUT"
mkdir -p "$OUT/bin"
# Private copies: a rebuild during the run must not swap the engine mid-game.
cp "$BIN/engine" "$BIN/referee" "$OUT/bin/"
E=$(cd "$OUT/bin" && pwd)/engine
R=$OUT/bin/referee
now() { date +%s.%N; }

echo "== 1. referee overhead per move (Nim, perfect vs random, 200 games), sandbox or not"
printf '%-22s %16s %12s %16s\n' "" "overhead median" "p95" "wall per move"
for run in 1 2; do
    for mode in namespaces none; do
        j="$OUT/overhead-$mode-$run.jsonl"
        t0=$(now)
        $R tournament --game nim --random-plies 2 --rounds 100 --sandbox "$mode" --journal "$j" \
            --engine "name=perfect,cmd=$E one-move --game nim --player perfect" \
            --engine "name=random,cmd=$E one-move --game nim --player random --seed {player} {in} {out} 1" \
            >/dev/null
        t1=$(now)
        moves=$($R verify "$j" | sed -n 's/.* games, \([0-9]*\) moves.*/\1/p')
        $R report "$j" | sed -n 's/^Referee overhead.*median \([0-9.]*\), p95 \([0-9.]*\)/\1 \2/p' |
            awk -v m="--sandbox $mode" -v t="$t0 $t1" -v n="$moves" '{
                split(t, w, " ")
                printf "%-22s %13s ms %9s ms %13.2f ms\n", m, $1, $2, 1000 * (w[2] - w[1]) / n }'
    done
done
$R report "$OUT/overhead-namespaces-1.jsonl" | grep -A3 '^CPU time per move'

# Section 2's engines: alpha-beta at depth 14 with a 4 MiB table, about 40 ms
# of user CPU a move. Shorter moves measure the machine instead: a move of a
# few ms is mostly process start and page faults, which this 2-vCPU VM does
# not run two at a time at full speed (the control line shows it).
CDEPTH=${CDEPTH:-14}
CTT=${CTT:-4}
echo "== 2. concurrency 1 vs 2 (Max-Connect4, depth $CDEPTH both sides, --tt-mb $CTT, 8 games)"
# The ceiling: the same engine's move as bare processes, 40 runs one at a
# time against two at a time, no referee.
printf '0000000\n0000000\n0000000\n0000000\n0000000\n0012100\n2\n' > "$OUT/c-start.txt"
bare() {
    seq 40 | xargs -P "$1" -I{} "$E" one-move --game maxconnect4 --tt-mb "$CTT" \
        "$OUT/c-start.txt" "$OUT/c-out-{}.txt" "$CDEPTH" >/dev/null 2>&1
}
t0=$(now); bare 1; t1=$(now); bare 2; t2=$(now)
echo "$t0 $t1 $t2" | awk '{ printf "bare processes (no referee): 2 at a time / 1: %.2fx\n", ($2 - $1) / ($3 - $2) }'
for mode in namespaces none; do
    rates=""
    for c in 1 2; do
        t0=$(now)
        $R tournament --game maxconnect4 --random-plies 4 --rounds 4 --concurrency $c \
            --sandbox "$mode" \
            --engine "name=a,cmd=$E one-move --game maxconnect4 --tt-mb $CTT {in} {out} $CDEPTH" \
            --engine "name=b,cmd=$E one-move --game maxconnect4 --seed 2 --tt-mb $CTT {in} {out} $CDEPTH" \
            >/dev/null
        t1=$(now)
        rate=$(echo "$t0 $t1" | awk '{ printf "%.3f", 8 / ($2 - $1) }')
        rates="$rates $rate"
        echo "--sandbox $mode, concurrency $c: $(echo "$t0 $t1" |
            awk '{ printf "%.2f s", $2 - $1 }'), $rate games/s"
    done
    echo "$rates" | awk -v m="$mode" '{ printf "--sandbox %s: concurrency 2 / 1: %.2fx\n", m, $2 / $1 }'
done

echo "== 3. $GAMES games (Nim, perfect vs random), then verify"
t0=$(now)
$R tournament --game nim --random-plies 3 --rounds $((GAMES / 2)) --concurrency 2 \
    --journal "$OUT/big.jsonl" \
    --engine "name=perfect,cmd=$E one-move --game nim --player perfect" \
    --engine "name=random,cmd=$E one-move --game nim --player random --seed {player} {in} {out} 1" \
    >"$OUT/big.out"
t1=$(now)
echo "$GAMES games: $(echo "$t0 $t1" | awk -v g="$GAMES" '{ printf "%.1f s, %.1f games/s", $2 - $1, g / ($2 - $1) }')"
$R verify "$OUT/big.jsonl"

echo "== 4. referee bench vs a game: the same engine at depth 4, overhead and CPU per move"
printf '%-14s %16s %10s %16s\n' "" "overhead median" "p95" "engine CPU median"
AB="$E one-move --game maxconnect4 {in} {out} {depth}"
for run in 1 2; do
    $R match --game maxconnect4 --games 10 --random-plies 6 --depth 4 --log "$OUT/game-$run.json" \
        --engine "name=ab,cmd=$AB" --engine "name=ab2,cmd=$AB" >/dev/null
    $R report "$OUT/game-$run.json" | awk '
        /^ab / { cpu = $4 }
        /^Referee overhead/ { sub(/,/, "", $11); printf "%-14s %13s ms %7s ms %13s ms\n", "game", $11, $13, cpu }'
    $R bench --game maxconnect4 --depths 4-4 --random-positions 50 --repeat 4 \
        --engine "name=ab,cmd=$AB" >"$OUT/bench-$run.txt"
    awk '
        /^ab / { cpu = $5 }
        /^Referee overhead/ { sub(/,/, "", $11); printf "%-14s %13s ms %7s ms %13s ms\n", "referee bench", $11, $13, cpu }' \
        "$OUT/bench-$run.txt"
done

echo "== 5. referee bench of a forking engine: billed CPU against the work reaped"
TREE=$(cd "$(dirname "$0")/.." && pwd)/tests/engines/tree.py
PLAY="$E one-move --game nim --player random --seed 1 {in} {out} {depth}"
$R bench --game nim --depths 1-1 --random-positions 10 --repeat 1 --json "$OUT/tree.json" \
    --engine "name=unreaped,cmd=python3 $TREE unreaped 4 0.2 $PLAY" \
    --engine "name=reaped,cmd=python3 $TREE reaped 4 0.2 $PLAY" >"$OUT/tree.txt"
WORK=$(python3 -c '
import resource, subprocess, sys
for _ in range(5):
    subprocess.run(["python3", sys.argv[1], "reaped", "4", "0.2", "true"], check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.1f" % ((r.ru_utime + r.ru_stime) * 1000 / 5))' "$TREE")
echo "accounting: $(sed -n 's/.*"accounting":[[:space:]]*"\([a-z0-9-]*\)".*/\1/p' "$OUT/tree.json")"
echo "the work reaped, outside the referee (mean of 5): $WORK ms"
awk -v w="$WORK" '/^(unreaped|reaped) / {
    printf "%-9s billed median %8.1f ms, p95 %8.1f ms: %.2f of the work\n", $1, $5, $6, $5 / w }' \
    "$OUT/tree.txt"
