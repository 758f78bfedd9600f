#!/bin/sh
# demo.sh - `make demo`: a full Max-Connect4 game between two settings of the
# engine, alpha-beta at depth 2 (player 1) against depth 6 (player 2), played
# the way two separate programs would: each move is one `engine one-move` run
# that reads the board file the previous one wrote.
set -eu
BIN=${1:-bin}
DEPTH1=${DEPTH1:-2}
DEPTH2=${DEPTH2:-6}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

cp fixtures/maxconnect4/empty.txt "$dir/board.txt"
echo "Max-Connect4: player 1 = engine depth $DEPTH1, player 2 = engine depth $DEPTH2"
while :; do
    player=$(sed -n 7p "$dir/board.txt")
    if [ "$player" = 1 ]; then depth=$DEPTH1; else depth=$DEPTH2; fi
    "$BIN/engine" one-move --game maxconnect4 "$dir/board.txt" "$dir/next.txt" "$depth" \
        >"$dir/stdout" 2>"$dir/info"
    [ -f "$dir/next.txt" ] || break          # the board was full: no move
    move=$(grep '^move ' "$dir/stdout")
    cpu=$(sed -n 's/.* cpu_ms \([0-9.]*\) .*/\1/p' "$dir/info")
    nodes=$(sed -n 's/.* nodes \([0-9]*\) .*/\1/p' "$dir/info")
    printf '%-32s depth %d  %8s nodes  %8s ms CPU\n' "$move" "$depth" "$nodes" "$cpu"
    mv "$dir/next.txt" "$dir/board.txt"
done
echo
sed -n '/game state before move:/,$p' "$dir/stdout"
score=$(grep '^Score:' "$dir/stdout")
p1=$(echo "$score" | sed 's/.*Player 1 = \([0-9]*\),.*/\1/')
p2=$(echo "$score" | sed 's/.*Player 2 = \([0-9]*\)$/\1/')
if [ "$p1" -gt "$p2" ]; then
    echo "Result: player 1 (depth $DEPTH1) wins $p1-$p2"
elif [ "$p2" -gt "$p1" ]; then
    echo "Result: player 2 (depth $DEPTH2) wins $p2-$p1"
else
    echo "Result: a tie, $p1-$p2"
fi
