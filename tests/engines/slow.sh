#!/bin/sh
# A slow but sound Nim engine: slow.sh ENGINE SECONDS IN OUT waits SECONDS,
# then the random player of ENGINE moves. Slow enough to kill a tournament
# mid-run; tests tell their engines apart by SECONDS.
sleep "$2"
exec "$1" one-move --game nim --player random --seed 3 "$3" "$4" 1
