#!/bin/sh
# logged.sh SECONDS PROGRAM ARGS...: a sound engine, slowed down: waits
# SECONDS in a child, then runs PROGRAM ARGS in its place, recording both
# processes (pidlog.sh). For killing a tournament mid-move.
. "${0%/*}/pidlog.sh"
pidlog_self
sleep "$1" &
pidlog $!
wait
shift
exec "$@"
