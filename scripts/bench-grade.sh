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
# machine. Then the class again beside one CPU burner per core: the same
# grades. The grades go to results/bench-grade/quiet and .../busy.
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
# One grading of the class into $OUT/$1: wall time, and the CPU time of
# the referee and everything it ran (user + sys): on a machine others
# share, CPU / 2 is what two idle cores need.
grade() {
    /usr/bin/time -f '%e %U %S' -o "$OUT/$1.time" "$BIN/referee" grade \
        --rubric tests/grade/bench/rubric.json --submissions "$OUT/class" --out "$OUT/$1" \
        --concurrency 2 > "$OUT/$1.log" ||
        say "bench-grade: $1: referee grade exited with status $? (3: too busy to grade)"
    read -r wall user sys < "$OUT/$1.time"
    say "bench-grade: $1: 40 submissions graded in $wall s wall, $(echo "$user + $sys" | bc)" \
        "s CPU (user $user, sys $sys), load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
}

# The grades must not depend on the machine's load (limits are CPU time; a
# starved move is retried, never failed): the class again beside one
# CPU burner per core must get the same grades.csv. BENCH_GRADE_BUSY=0
# leaves that run out.
say() { echo "$*" | tee -a "$OUT/time.txt"; }
burners=""
stop_burners() { if [ -n "$burners" ]; then kill $burners 2>/dev/null; fi; burners=""; }
trap stop_burners EXIT INT TERM
grade quiet
if [ "${BENCH_GRADE_BUSY:-1}" = 1 ]; then
    for _ in $(seq "$(nproc)"); do
        sh -c 'while :; do :; done' &
        burners="$burners $!"
    done
    grade busy
    stop_burners
    if cmp -s "$OUT/quiet/grades.csv" "$OUT/busy/grades.csv"; then
        say "bench-grade: busy: grades.csv identical to the quiet run's" \
            "($(($(wc -l < "$OUT/quiet/grades.csv") - 1)) submissions)"
    else
        say "bench-grade: busy: grades.csv DIFFERS from the quiet run's:"
        diff "$OUT/quiet/grades.csv" "$OUT/busy/grades.csv" | tee -a "$OUT/time.txt"
        exit 1
    fi
fi
say "bench-grade: goal: 600 s wall quiet on 2 idle cores"
