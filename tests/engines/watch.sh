#!/bin/sh
# watch.sh ENGINE IN OUT DEPTH: the real Connect-4 engine, which first looks
# for processes that the hostile opponent's last move left running (the
# ones recorded in $ARENA_PID_LOG) and appends each to $ARENA_PID_LOG.alive.
# A test that plays a hostile engine against it checks that no process of
# the hostile engine outlived its move, at every move.
. "${0%/*}/pidlog.sh"
left=$(pidlog_running)
if [ -n "$left" ] && [ -n "${ARENA_PID_LOG:-}" ]; then
    echo "$left" >> "$ARENA_PID_LOG.alive"
fi
exec "$1" one-move --game connect4 "$2" "$3" "$4"
