#!/bin/sh
# lingering-child.sh ENGINE IN OUT DEPTH: plays a legal Connect-4 move, then
# exits leaving two processes that hold the output file open: a child in
# its process group and a grandchild that left the group (setsid). Each
# would overwrite the move with garbage after a long sleep. The referee must
# take the move as it was when the engine exited, without waiting for them,
# and kill both before the next move.
. "${0%/*}/pidlog.sh"
pidlog_self
"$1" one-move --game connect4 "$2" "$3" "$4" >/dev/null 2>&1 || exit 1
(
    pidlog_self
    exec 3>>"$3"
    sleep 6043 &
    pidlog $!
    wait
    echo garbage >&3
) &
pidlog $!
setsid sh -c '. "$1"; pidlog_self; exec 3>>"$2"; sleep 6043 & pidlog $!; wait; echo garbage >&3' \
    setsid "${0%/*}/pidlog.sh" "$3" &
pidlog $!
exit 0
