# pidlog.sh - sourced by the fault-test engines (not an engine itself).
# Records every process an engine creates in the file $ARENA_PID_LOG, one
# "PID STARTTIME" line each (the start time, field 22 of /proc/PID/stat,
# tells a reused pid from ours), so that a test can check that none of them
# outlives its move. Without ARENA_PID_LOG nothing is recorded.

# pidlog PID: records PID, this shell or a child of it (a child that has
# already exited is still in /proc: nobody has reaped it).
pidlog() {
    [ -n "${ARENA_PID_LOG:-}" ] || return 0
    _pidlog_pid=$1
    read -r _pidlog_stat < "/proc/$_pidlog_pid/stat" || return 0
    set -- ${_pidlog_stat##*) }
    echo "$_pidlog_pid ${20}" >> "$ARENA_PID_LOG"
}

# pidlog_self: records this shell (a subshell too: the builtin read opens
# /proc/self in the process that runs it).
pidlog_self() {
    read -r _pidlog_stat < /proc/self/stat
    pidlog "${_pidlog_stat%% *}"
}

# pidlog_running: prints "PID STATE" for every recorded process that still
# exists, a zombie included.
pidlog_running() {
    [ -n "${ARENA_PID_LOG:-}" ] && [ -f "$ARENA_PID_LOG" ] || return 0
    while read -r _pidlog_pid _pidlog_start; do
        read -r _pidlog_stat 2>/dev/null < "/proc/$_pidlog_pid/stat" || continue
        set -- ${_pidlog_stat##*) }
        [ "${20}" = "$_pidlog_start" ] && echo "$_pidlog_pid $1"
    done < "$ARENA_PID_LOG"
}
