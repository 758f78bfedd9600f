#!/bin/sh
# test-cluster.sh - make test-cluster: `referee slurm` against a real Slurm.
# Starts a single-node Slurm from Debian's packages in a temporary folder
# (munged with its own key and socket, slurmctld and slurmd with a generated
# slurm.conf, ports of their own, no accounting), waits until sinfo shows the
# node idle, then checks that
#   1. a 4-shard round robin submitted with `referee slurm` equals the same
#      tournament played in one process, game for game (engines, colours,
#      openings, moves, results: every field but the timings), header too;
#   2. after `scancel` of one shard mid-run, `referee slurm --resume` still
#      gives that tournament, with no game twice;
#   3. the same tournament through GNU parallel (`referee slurm --parallel`)
#      equals it too;
#   4. tests/grade/class graded in 3 shards with `referee slurm grade` (an
#      array job, then the merge job) gives the grades.csv, byte for byte,
#      and the Gradescope results.json of one `referee grade` process (all
#      but the cpu check's measured times), the shards having graded all.
# Every daemon it starts is stopped when it ends, pass or fail. Daemons log
# to files in the temporary folder, never to this script's output (CI reads
# that to its end). A daemon that cannot start fails the test with its log.
# Installs nothing: scripts/install-deps.sh does (slurmctld slurmd
# slurm-client munge parallel jq).
#
#   ARENA_BIN   the binaries' folder (default bin)
set -eu
cd "$(dirname "$0")/.."
BIN=$(realpath "${ARENA_BIN:-bin}")
REF=$BIN/referee
WAIT_S=120        # at most this long for any one job or daemon

T=$(mktemp -d "${TMPDIR:-/tmp}/arena-cluster.XXXXXX")
PIDS=""
export SLURM_CONF="$T/slurm.conf"

say() { printf 'test-cluster: %s\n' "$*"; }

# The test's failure: what went wrong, the logs that say why, exit 1.
fail() {
    say "FAIL: $1"
    shift
    for log in "$@"; do
        [ -f "$log" ] || continue
        echo "---- $log (last 40 lines)"
        tail -n 40 "$log"
    done
    exit 1
}

stop_daemons() {
    status=$?
    trap - EXIT INT TERM
    if [ -n "$PIDS" ]; then
        scancel --quiet --user="$(id -un)" >/dev/null 2>&1 || true
        # shellcheck disable=SC2086
        kill $PIDS 2>/dev/null || true
        for _ in $(seq 1 50); do
            alive=""
            for p in $PIDS; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
            [ -z "$alive" ] && break
            sleep 0.2
        done
        # shellcheck disable=SC2086
        [ -z "$alive" ] || kill -KILL $alive 2>/dev/null || true
    fi
    if [ "$status" -eq 0 ]; then rm -rf "$T"; else say "kept $T"; fi
    exit "$status"
}
trap stop_daemons EXIT
trap 'exit 130' INT TERM

for tool in munged slurmctld slurmd sbatch squeue sinfo scancel parallel jq; do
    command -v "$tool" >/dev/null 2>&1 ||
        fail "$tool is not installed (scripts/install-deps.sh installs it)"
done

# A daemon in the foreground as this script's child: no terminal, its
# output into its log, no descriptor of ours kept open (make's included).
daemon() {
    log=$1
    shift
    "$@" </dev/null >>"$log" 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
    PIDS="$PIDS $!"
    eval "NAME_$!=\$1"
}

# 1 when TCP port $1 has a listener.
port_used() {
    hex=$(printf ':%04X ' "$1")
    cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -q "$hex"
}

free_port() {
    p=$1
    while port_used "$p" || port_used "$((p + 1))"; do p=$((p + 2)); done
    echo "$p"
}

wait_for() {   # wait_for WHAT LOG... -- COMMAND: until COMMAND succeeds
    what=$1
    shift
    logs=""
    while [ "$1" != -- ]; do logs="$logs $1"; shift; done
    shift
    i=0
    until "$@" >/dev/null 2>&1; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        [ "$i" -le $((WAIT_S * 5)) ] || fail "$what did not happen in $WAIT_S s" $logs
        for p in $PIDS; do
            # shellcheck disable=SC2086
            kill -0 "$p" 2>/dev/null ||
                fail "$(eval "echo \$NAME_$p") (pid $p) ended while waiting for: $what" $logs
        done
        sleep 0.2
    done
}

# --- a single-node Slurm --------------------------------------------------
mkdir -p "$T/munge" "$T/state" "$T/spool"
chmod 755 "$T" "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge/munge.key"
daemon "$T/munged.log" munged --foreground --force --socket="$T/munge/socket" \
    --key-file="$T/munge/munge.key" --pid-file="$T/munge/munged.pid" \
    --log-file="$T/munged.log" --seed-file="$T/munge/seed"
wait_for "munged's socket" "$T/munged.log" -- test -S "$T/munge/socket"

node=$(slurmd -C | sed -n '1s/^NodeName=\([^ ]*\) .*/\1/p')
[ -n "$node" ] || fail "slurmd -C names no node"
port=$(free_port $((20000 + $$ % 20000)))
cat >"$SLURM_CONF" <<EOF
ClusterName=arena
SlurmctldHost=$node(127.0.0.1)
SlurmUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$T/munge/socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
$(slurmd -C | sed -n 1p) NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=arena Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
daemon "$T/slurmctld.out" slurmctld -D -f "$SLURM_CONF"
daemon "$T/slurmd.out" slurmd -D -N "$node" -f "$SLURM_CONF"
node_idle() { [ "$(sinfo --noheader --nodes="$node" --format=%T 2>/dev/null)" = idle ]; }
wait_for "sinfo showing node $node idle" "$T/slurmctld.log" "$T/slurmctld.out" \
    "$T/slurmd.log" "$T/slurmd.out" "$T/munged.log" -- node_idle
say "slurm up: node $node idle, ports $port-$((port + 1)), in $T"

# --- the tournaments ------------------------------------------------------
# Deterministic engines (alpha-beta at a fixed depth); slow.sh waits before
# each move so that a shard is still playing when the test cancels it.
cat >"$T/slow.sh" <<'EOF'
#!/bin/sh
engine=$1
shift
sleep 0.15
exec "$engine" one-move --game connect4 "$@"
EOF
chmod 755 "$T/slow.sh"
# One option word a line (SPECs hold blanks).
cat >"$T/fast.args" <<EOF
--game
connect4
--random-plies
2
--rounds
2
--engine
name=d1 cmd=$BIN/engine one-move --game connect4 depth=1
--engine
name=d2 cmd=$BIN/engine one-move --game connect4 depth=2
--engine
name=d3 cmd=$BIN/engine one-move --game connect4 depth=3
EOF
sed -e 's|^name=d3 .*|name=slow cmd='"$T"'/slow.sh '"$BIN"'/engine depth=2|' "$T/fast.args" >"$T/slow.args"

# with FILE COMMAND...: runs COMMAND with FILE's lines appended as words.
with() {
    file=$1
    shift
    while IFS= read -r word; do set -- "$@" "$word"; done <"$file"
    "$@"
}

# one_process NAME: the tournament of $T/NAME.args in one process into
# $T/NAME.jsonl (its schedule does not depend on --concurrency).
one_process() {
    with "$T/$1.args" "$REF" tournament --concurrency 2 --journal "$T/$1.jsonl" \
        >"$T/$1.out" 2>&1 || fail "the one-process tournament $1 failed" "$T/$1.out"
}

# What must be equal, one line per game in index order: all but timings.
games() {
    jq -c 'select(has("index")) | {index, pair, players, opening, result, winner, reason,
           moves: [.moves[] | {ply, side, engine, move, status}]}' "$1" | jq -s -c 'sort_by(.index)[]'
}
header() { head -n 1 "$1" | jq -S 'del(.shard)'; }

# same WHOLE MERGED: equal game for game (and header), every game once.
same() {
    games "$1" >"$T/a.txt"
    games "$2" >"$T/b.txt"
    cmp -s "$T/a.txt" "$T/b.txt" || { diff "$T/a.txt" "$T/b.txt" | head -n 20; fail "$2 differs from $1"; }
    header "$1" >"$T/a.txt"
    header "$2" >"$T/b.txt"
    cmp -s "$T/a.txt" "$T/b.txt" || { diff "$T/a.txt" "$T/b.txt" | head -n 20; fail "the headers of $2 and $1 differ"; }
    n=$(jq -s 'map(select(has("index"))) | length' "$2")
    u=$(jq -s 'map(select(has("index")) | .index) | unique | length' "$2")
    want=$(head -n 1 "$1" | jq .games)
    [ "$n" = "$want" ] && [ "$u" = "$want" ] || fail "$2 has $n games ($u different), not $want"
}

job_over() { [ -z "$(squeue --noheader --jobs="$1" --format=%i 2>/dev/null)" ]; }

# wait_merged DIR: until DIR's merge job ends; it must have written the
# reports and verified the merged journal.
wait_merged() {
    wait_for "the merge job of $1" "$1/merge.out" -- job_over "$(jq -r '.jobs[1]' "$1/cluster.json")"
    [ -s "$1/report.txt" ] && [ -s "$1/verify.txt" ] || fail "the merge job of $1 failed" "$1/merge.out"
}

one_process fast
one_process slow

# 1. Four shards through Slurm.
with "$T/fast.args" "$REF" slurm --shards 4 --out "$T/slurm" >"$T/slurm.out" 2>&1 ||
    fail "referee slurm failed" "$T/slurm.out"
grep -q '^shards 1-4: job [0-9]*$' "$T/slurm.out" || fail "no array job id printed" "$T/slurm.out"
wait_merged "$T/slurm"
same "$T/fast.jsonl" "$T/slurm/merged.jsonl"
say "ok: 4 shards through Slurm equal one process, game for game"

# 2. scancel one shard mid-run, then --resume.
with "$T/slow.args" "$REF" slurm --shards 4 --out "$T/cancel" >"$T/cancel.out" 2>&1 ||
    fail "referee slurm failed" "$T/cancel.out"
array=$(jq -r '.jobs[0]' "$T/cancel/cluster.json")
played() { [ -f "$T/cancel/shard-2.jsonl" ] && [ "$(wc -l <"$T/cancel/shard-2.jsonl")" -ge 2 ]; }
wait_for "shard 2's first game" "$T/cancel/shard-2.out" -- played
scancel "${array}_2"
wait_for "the array job $array to end" -- job_over "$array"
"$REF" status "$T/cancel" >"$T/status.out"
grep -q '^shard 2/4: [12]/3 games, stopped$' "$T/status.out" ||
    fail "shard 2 was not cancelled mid-run" "$T/status.out" "$T/cancel/shard-2.out"
"$REF" slurm --resume "$T/cancel" >"$T/resume.out" 2>&1 || fail "--resume failed" "$T/resume.out"
grep -q '^shards 2: job [0-9]*$' "$T/resume.out" ||
    fail "--resume did not resubmit exactly shard 2" "$T/resume.out"
wait_merged "$T/cancel"
same "$T/slow.jsonl" "$T/cancel/merged.jsonl"
say "ok: scancel of shard 2 mid-run, then --resume, equals one process with no game twice"

# 3. GNU parallel, here.
with "$T/fast.args" "$REF" slurm --shards 4 --parallel --out "$T/parallel" \
    >"$T/parallel.out" 2>&1 || fail "referee slurm --parallel failed" "$T/parallel.out"
same "$T/fast.jsonl" "$T/parallel/merged.jsonl"
[ "$(grep -c 'shard.sh' "$T/parallel/joblog")" -eq 4 ] ||
    fail "parallel's joblog has not 4 shards" "$T/parallel/joblog"
say "ok: 4 shards through GNU parallel equal one process"

# --- a class ----------------------------------------------------------------
# tests/grade/class copied as test_e2e_grade.c's make_class does (the
# neighbour reader told where the copy's alphabeta is), graded by its rubric
# with a wall time per move a loaded machine keeps: the grades must not
# depend on the load. Then in one process, then through Slurm.
G=$T/grade
mkdir "$G"
cp -rL tests/grade/class "$G/class"
echo "$G/class/alphabeta" >"$G/class/peek/neighbour.txt"
sed 's/"timeout_ms": 1500,/"timeout_ms": 5000,/' tests/grade/rubric.json >"$G/rubric.json"
grep -q '"timeout_ms": 5000,' "$G/rubric.json" || fail "tests/grade/rubric.json has no timeout_ms 1500"
GRADE="--rubric $G/rubric.json --submissions $G/class"
# shellcheck disable=SC2086
"$REF" grade $GRADE --out "$G/one" --concurrency 2 >"$G/one.out" 2>&1 ||
    fail "the one-process grade failed" "$G/one.out"
# shellcheck disable=SC2086
"$REF" slurm grade $GRADE --out "$G/slurm" --shards 3 >"$G/slurm.out" 2>&1 ||
    fail "referee slurm grade failed" "$G/slurm.out"
grep -q '^shards 1-3: job [0-9]*$' "$G/slurm.out" || fail "no array job id printed" "$G/slurm.out"
merge=$(sed -n 's/^merge: job \([0-9]*\)$/\1/p' "$G/slurm.out")
[ -n "$merge" ] || fail "no merge job id printed" "$G/slurm.out"
wait_s=$WAIT_S
WAIT_S=900        # the whole class, 2 shards at a time on this machine's cores
wait_for "the grade's merge job $merge" "$G/slurm/merge.out" -- job_over "$merge"
WAIT_S=$wait_s
[ -s "$G/slurm/grades.csv" ] ||
    fail "the grade's merge job wrote no grades.csv" "$G/slurm/merge.out" "$G"/slurm/shard-*.out
cmp "$G/one/grades.csv" "$G/slurm/grades.csv" ||
    { diff "$G/one/grades.csv" "$G/slurm/grades.csv"; fail "grades.csv through Slurm differs"; }
# The merge graded nothing: its journal is the header alone.
[ "$(wc -l <"$G/slurm/journal.jsonl")" -eq 1 ] ||
    fail "the merge job graded what the shards should have" "$G/slurm/merge.out"
# results.json: equal but for the cpu check's output (a measured time)
# and the failures' paragraphs after each output's first line (their stderr
# tails name OUT's work folder, another path in each run, and so cut
# the traceback elsewhere).
cpu=$(jq -c '[.checks[] | select(.kind == "cpu") | .id]' "$G/rubric.json")
for sub in "$G"/class/*/; do
    id=$(basename "$sub")
    for run in one slurm; do
        jq -S --argjson cpu "$cpu" '.tests[].output |= (split("\n")[0])
            | del(.tests[] | select(.name as $n | $cpu | index($n)) | .output)' \
            "$G/$run/$id/results.json" >"$T/$run.json" || fail "$G/$run/$id/results.json is not JSON"
    done
    cmp -s "$T/one.json" "$T/slurm.json" ||
        { diff "$T/one.json" "$T/slurm.json" | head -n 20; fail "$id/results.json through Slurm differs"; }
done
say "ok: a class in 3 shards through Slurm gets the grades of one process"
say "all passed"
