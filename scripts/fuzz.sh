#!/bin/sh
# fuzz.sh: runs one libFuzzer target of tests/fuzz (the Makefile's `fuzz` and
# `fuzz-regress` call it once per target; tests/fuzz/README explains).
#
#   fuzz.sh run BUILD TARGET MAXLEN SEED...
#       copies the seeds, tests/fuzz/seeds/TARGET and tests/fuzz/regress/TARGET
#       into BUILD/corpus/TARGET (named by content, so nothing is copied
#       twice), then fuzzes for FUZZ_SECONDS seconds, or exactly FUZZ_RUNS
#       executions when that is set; appends the execution count to
#       BUILD/summary.txt. A finding is saved in BUILD/artifacts/TARGET.
#   fuzz.sh regress BUILD TARGET 0 SEED...
#       runs the target once on every seed and regression input.
#
# Exits non-zero when the target found something (crash, sanitizer report,
# broken property, timeout, leak), after printing how to reproduce it.
set -u

mode=$1 build=$2 target=$3 maxlen=$4
shift 4
bin=$build/bin/$target
here=tests/fuzz
timeout=${FUZZ_TIMEOUT:-10}
dict=""
[ -f "$here/$target.dict" ] && dict="-dict=$here/$target.dict"

# Every input the target starts from, one path per line.
inputs() {
    for f in "$@"; do [ -f "$f" ] && echo "$f"; done
    for d in "$here/seeds/$target" "$here/regress/$target"; do
        [ -d "$d" ] && find "$d" -type f ! -name README | sort
    done
}

if [ "$mode" = regress ]; then
    list=$(inputs "$@")
    [ -z "$list" ] && { echo "fuzz-regress: $target: no inputs" >&2; exit 1; }
    log=$build/logs/$target.regress.log
    mkdir -p "$build/logs" "$build/artifacts/$target"
    if ! echo "$list" | tr '\n' '\0' | xargs -0 "$bin" -timeout="$timeout" \
        -artifact_prefix="$build/artifacts/$target/" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "fuzz-regress: $target FAILED (log: $log)" >&2
        exit 1
    fi
    echo "fuzz-regress: $target: $(echo "$list" | wc -l) inputs pass"
    exit 0
fi

corpus=$build/corpus/$target
artifacts=$build/artifacts/$target
mkdir -p "$corpus" "$artifacts" "$build/logs"
inputs "$@" | while read -r f; do
    name=$(sha1sum <"$f" | cut -c1-40)
    [ -f "$corpus/$name" ] || cp "$f" "$corpus/$name"
done
if [ -n "${FUZZ_RUNS:-}" ]; then
    limit="-runs=$FUZZ_RUNS"
else
    limit="-max_total_time=${FUZZ_SECONDS:-20}"
fi
# FUZZ_SEED: libFuzzer's seed, so that with FUZZ_RUNS and the same corpus
# (a clean clone's: the seeds) every run makes the same inputs.
[ -n "${FUZZ_SEED:-}" ] && limit="$limit -seed=$FUZZ_SEED"
log=$build/logs/$target.log
echo "fuzz: $target ($limit)"
# shellcheck disable=SC2086
"$bin" $limit $dict -max_len="$maxlen" -timeout="$timeout" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
verdict=ok
[ "$rc" -ne 0 ] && verdict=FOUND
printf '%-20s %12s execs %8s exec/s  %s\n' "$target" "${execs:-?}" "${rate:-?}" "$verdict" \
    >>"$build/summary.txt"
if [ "$rc" -ne 0 ]; then
    # The finding's first words (a broken property, a sanitizer's report),
    # then how the run ended.
    grep -m 1 -A 12 -E 'property broken|ERROR: |runtime error|Assertion' "$log" >&2
    echo "..." >&2
    tail -n 20 "$log" >&2
    found=$(ls -t "$artifacts" 2>/dev/null | head -n 1)
    echo "fuzz: $target found something (log: $log)" >&2
    [ -n "$found" ] && echo "fuzz: reproduce with: $bin $artifacts/$found" >&2
    exit 1
fi
exit 0
