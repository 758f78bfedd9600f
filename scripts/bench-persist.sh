#!/bin/sh
# bench-persist.sh - engines that stay for the game, and the clock in CPU
# time (`make bench-persist`):
#   1. the quick start's Python random engine against itself (the system's
#      /usr/bin/python3), GAMES games of Max-Connect4, with proto=file
#      (random_engine.py, a process a move) and proto=persistent (its twin
#      random_engine_persistent.py, a process a game), RUNS times each,
#      alternating: moves per second of each and their ratio;
#   2. the referee's overhead per move for the persistent engine: the
#      report's "Referee overhead per move" (writing the board, reading and
#      judging the answer) and the round trip of the request line (the
#      move's wall time less the engine's CPU), medians over every move;
#   3. under load (one CPU-bound process per core beside the match): LGAMES
#      games between two persistent engines that burn BURN s of CPU a move
#      (about half of what a move may spend), with --tc LTC in CPU time,
#      against the same match with the equivalent wall deadline per move
#      (--timeout-ms LTIMEOUT, the clock's share of a move): losses on time.
# Writes journals under results/persist-bench/.
set -eu
BIN=${1:-bin}
GAMES=${GAMES:-100}
RUNS=${RUNS:-2}
LGAMES=${LGAMES:-40}
LTC=${LTC:-0.5+0.05}
LTIMEOUT=${LTIMEOUT:-74}     # (0.5 s + 21 moves x 0.05 s) / 21 moves
BURN=${BURN:-0.035}
OUT=results/persist-bench
rm -rf "$OUT"
mkdir -p "$OUT/bin"
cp "$BIN/referee" "$OUT/bin/"
R=$(cd "$OUT/bin" && pwd)/referee
Q=$(cd docs/quickstart && pwd)
PY=/usr/bin/python3
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "== 1. the quick start's random engine against itself, $GAMES games of Max-Connect4"
printf '%-26s %10s %12s\n' "" "moves" "moves/s"
for run in $(seq "$RUNS"); do
    for proto in file persistent; do
        script=random_engine.py
        [ "$proto" = persistent ] && script=random_engine_persistent.py
        j="$OUT/$proto-$run.jsonl"
        t0=$(now)
        (cd "$Q" && $R tournament --game maxconnect4 --rounds $((GAMES / 2)) --journal "$OLDPWD/$j" \
            --engine "name=a,proto=$proto,cmd=$PY $script" \
            --engine "name=b,proto=$proto,cmd=$PY $script" >/dev/null)
        t1=$(now)
        moves=$($R verify "$j" | sed -n 's/.* games, \([0-9]*\) moves.*/\1/p')
        echo "$t0 $t1 $moves" | awk -v p="proto=$proto run $run" \
            '{ printf "%-26s %10d %12.1f\n", p, $3, $3 / ($2 - $1) }' | tee -a "$OUT/rates.txt"
    done
done
awk '/proto=file/ { f[++nf] = $NF } /proto=persistent/ { p[++np] = $NF }
     END { for (i = 1; i <= nf; i++) printf "run %d: persistent / file = %.1fx\n", i, p[i] / f[i] }' \
    "$OUT/rates.txt"

echo "== 2. referee overhead per move, persistent engine"
$R report "$OUT/persistent-1.jsonl" | grep '^Referee overhead'
tail -n +2 "$OUT/persistent-1.jsonl" |
    jq -r '.moves[] | select(.ply > 2) | .wall_ms - .cpu_user_ms - .cpu_sys_ms' | median |
    awk '{ printf "request line round trip (wall - engine CPU, moves after the first): median %.3f ms\n", $1 }'

echo "== 3. under load: $LGAMES games, --tc $LTC in CPU time against --timeout-ms $LTIMEOUT"
cat > "$OUT/burner.py" <<EOF
import sys, time
sys.path.insert(0, "$Q")
import random, board
for line in sys.stdin:
    w = line.split()
    if w[:1] != ["move"]:
        continue
    end = time.process_time() + $BURN
    while time.process_time() < end:
        pass
    with open(w[1]) as f:
        rng = random.Random(f.read())
    grid, player = board.read(w[1])
    board.write(w[2], board.drop(grid, rng.choice(board.legal_columns(grid)), player), 3 - player)
    print("done", flush=True)
EOF
hogs=""
for i in $(seq "$(nproc)"); do
    sh -c 'while :; do :; done' &
    hogs="$hogs $!"
done
trap 'kill $hogs 2>/dev/null' EXIT
for mode in cpu wall; do
    limit="--tc $LTC"
    [ "$mode" = wall ] && limit="--timeout-ms $LTIMEOUT"
    j="$OUT/load-$mode.jsonl"
    $R tournament --game maxconnect4 --rounds $((LGAMES / 2)) $limit --sandbox-ro "$Q" \
        --journal "$j" \
        --engine "name=a,proto=persistent,cmd=$PY $OUT/burner.py" \
        --engine "name=b,proto=persistent,cmd=$PY $OUT/burner.py" >/dev/null || true
    lost=$(tail -n +2 "$j" | jq -r 'select(.reason == "out-of-time" or .reason == "timeout") | .reason' | wc -l)
    echo "$limit: $lost of $LGAMES games lost on time"
done
kill $hogs 2>/dev/null
trap - EXIT
