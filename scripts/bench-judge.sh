#!/bin/sh
# bench-judge.sh - `make bench-judge`: what a judge costs a move. RUNS (5)
# paired runs, each a tic-tac-toe match of GAMES (20) games between the
# built-in engine's depths 1 and 3 through the built-in game and through
# docs/judges/tictactoe.py, same engines and seed (the same games, move for
# move). A run's figure is the median of its moves' referee_ms (the
# referee's wall time outside the engine, from the log); printed: each
# side's median over the runs and the median of the paired differences.
# Results under results/judge-bench/.
set -eu
BIN=${1:-bin}
RUNS=${RUNS:-5}
GAMES=${GAMES:-20}
OUT=results/judge-bench
mkdir -p "$OUT"
ENGINE=$(cd "$BIN" && pwd)/engine
A="name=d1,depth=1,cmd=$ENGINE one-move --game tictactoe"
B="name=d3,depth=3,cmd=$ENGINE one-move --game tictactoe"
JUDGE="python3 $(pwd)/docs/judges/tictactoe.py"
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
move_median() { jq '.games[].moves[].referee_ms' "$1" | median; }
: > "$OUT/pairs.txt"
for k in $(seq 1 "$RUNS"); do
    "$BIN/referee" match --game tictactoe --engine "$A" --engine "$B" --games "$GAMES" \
        --random-plies 2 --seed "$k" --log "$OUT/built-$k.json" > /dev/null
    "$BIN/referee" match --judge "$JUDGE" --engine "$A" --engine "$B" --games "$GAMES" \
        --random-plies 2 --seed "$k" --log "$OUT/judge-$k.json" > /dev/null
    echo "$(move_median "$OUT/built-$k.json") $(move_median "$OUT/judge-$k.json")" >> "$OUT/pairs.txt"
done
printf 'referee overhead per move, tic-tac-toe, medians of %d paired runs of %d games:\n' "$RUNS" "$GAMES"
printf '  built-in game: %.3f ms\n' "$(cut -d' ' -f1 "$OUT/pairs.txt" | median)"
printf '  judge (python3 docs/judges/tictactoe.py): %.3f ms\n' "$(cut -d' ' -f2 "$OUT/pairs.txt" | median)"
printf '  added by the judge: %.3f ms a move\n' "$(awk '{ print $2 - $1 }' "$OUT/pairs.txt" | median)"
