#!/bin/sh
# bench-learn.sh - the Q-learning player's benchmarks (`make bench-learn`):
#   1. training speed: 100,000 games against the random opponent;
#   2. the shipped weights rebuilt from their command, compared byte for byte
#      with fixtures/learn/trained.weights;
#   3. the strength table, measured with the referee (colours swapped in
#      pairs, random 4-ply openings so that deterministic engines do not play
#      one game over and over):
#        qlearn (greedy on Q) vs random,
#        qlearn-ab depth 4 vs alpha-beta depth 4 with the SPFIAR evaluation,
#        qlearn-ab depth 4 vs alpha-beta depth 4 with connect4's evaluation;
#   4. a learning curve: the log of a training run and its SVG.
# Writes everything under results/learn/. GAMES_RANDOM, GAMES_AB (game counts)
# and CONCURRENCY (games at once) may be set in the environment.
set -eu
BIN=${1:-bin}
GAMES_RANDOM=${GAMES_RANDOM:-400}
GAMES_AB=${GAMES_AB:-1000}
CONCURRENCY=${CONCURRENCY:-1}
OUT=results/learn
W=fixtures/learn/trained.weights
rm -rf "$OUT"
mkdir -p "$OUT/bin"
# Private copies: a rebuild during the run must not swap the engine mid-game.
cp "$BIN/engine" "$BIN/referee" "$OUT/bin/"
E=$(cd "$OUT/bin" && pwd)/engine
R=$OUT/bin/referee
WA=$(pwd)/$W

echo "== 1. training speed (100,000 games against random)"
t0=$(date +%s.%N)
"$E" train --games 100000 --opponent random --seed 1 --weights-out "$OUT/random-100k.weights"
t1=$(date +%s.%N)
echo "$t0 $t1" | awk '{ printf "wall %.2f s: %.0f games/min\n", $2 - $1, 100000 * 60 / ($2 - $1) }'

echo "== 2. the shipped weights, rebuilt (fixtures/learn/README)"
"$E" train --games 200000 --opponent self --seed 1 --weights-out "$OUT/trained.weights"
if cmp "$OUT/trained.weights" "$W"; then
    echo "identical to $W"
else
    echo "DIFFERENT from $W" >&2
    exit 1
fi

match() {   # NAME GAMES ENGINE1 ENGINE2: GAMES/2 colour-swapped pairs
    name=$1 games=$2
    shift 2
    $R tournament --game connect4 --depth 4 --random-plies 4 --seed 1 \
        --rounds $((games / 2)) --concurrency "$CONCURRENCY" --journal "$OUT/$name.jsonl" \
        --engine "$1" --engine "$2" >"$OUT/$name.out"
    $R report "$OUT/$name.jsonl" >"$OUT/$name.report"
    sed -n '/^Rank/,/^$/p' "$OUT/$name.report"
    grep ' vs .*Elo' "$OUT/$name.report"
}

echo "== 3. strength (referee, depth 4, --random-plies 4 --seed 1)"
match qlearn-vs-random "$GAMES_RANDOM" \
    "name=qlearn,cmd=$E one-move --game connect4 --player qlearn --weights $WA" \
    "name=random,cmd=$E one-move --game connect4 --player random --seed {player} {in} {out} 1"
match qlearn-ab-vs-spfiar "$GAMES_AB" \
    "name=qlearn-ab,cmd=$E one-move --game connect4 --player qlearn-ab --weights $WA" \
    "name=alphabeta-spfiar,cmd=$E one-move --game connect4 --eval spfiar"
match qlearn-ab-vs-alphabeta "$GAMES_RANDOM" \
    "name=qlearn-ab,cmd=$E one-move --game connect4 --player qlearn-ab --weights $WA" \
    "name=alphabeta,cmd=$E one-move --game connect4"

echo "== 4. learning curve (100,000 games against random, from zero weights)"
"$E" train --games 100000 --opponent random --seed 1 --log "$OUT/curve.jsonl" \
    --weights-out "$OUT/curve.weights" >/dev/null
sh scripts/plot-training.sh "$OUT/curve.jsonl" "$OUT/curve.svg"
