#!/bin/sh
# bench-grade.sh - `make bench-grade`: referee grade on a class of 40
# Python Max-Connect4 submissions with the issue's rubric
# (tests/grade/bench/rubric.json: legal 20 positions, exact 20 positions at
# depth 4, 10 games against random and 10 against alphabeta:3 at depth 4,
# CPU at depth 7 over 5 positions), two at a time. The class: 32 copies of
# tests/grade/bench/engine.py (a good student's alpha-beta), 4 random
# players and 4 that crash on a full column (tests/grade/class), each copy
# made unique by a comment so that every hash differs. Prints the wall
# time and the CPU time; the goal is at most 10 minutes on a 2-core
# machine. The grades go to results/bench-grade/out.
#
#   bench-grade.sh BIN
set -eu
BIN=$1
OUT=results/bench-grade
rm -rf "$OUT"
mkdir -p "$OUT/class"
i=0
while [ $i -lt 40 ]; do
    id=$(printf 'student%02d' $i)
    mkdir "$OUT/class/$id"
    if [ $i -lt 32 ]; then src=tests/grade/bench/engine.py
    elif [ $i -lt 36 ]; then src=tests/grade/class/random/engine.py
    else src=tests/grade/class/crashfull/engine.py
    fi
    cp "$src" "$OUT/class/$id/engine.py"
    echo "# $id" >> "$OUT/class/$id/engine.py"
    i=$((i + 1))
done
# Wall time, and the CPU time of the referee and everything it ran (user +
# sys): on a machine others share, CPU / 2 is what two idle cores need.
/usr/bin/time -f '%e %U %S' -o "$OUT/time.raw" "$BIN/referee" grade \
    --rubric tests/grade/bench/rubric.json --submissions "$OUT/class" --out "$OUT/out" \
    --concurrency 2 > "$OUT/grade.log"
read -r wall user sys < "$OUT/time.raw"
echo "bench-grade: 40 submissions graded in $wall s wall, $(echo "$user + $sys" | bc) s CPU" \
    "(user $user, sys $sys); goal: 600 s wall on 2 idle cores" | tee "$OUT/time.txt"
