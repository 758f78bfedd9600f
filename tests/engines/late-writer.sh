#!/bin/sh
# late-writer.sh ENGINE IN OUT DEPTH: exits at once without an answer, and
# a grandchild that left its process group (setsid) writes a legal move a
# second later. The move ends when the engine exits: no-output, and the
# grandchild is killed before it writes.
. "${0%/*}/pidlog.sh"
pidlog_self
setsid sh -c '. "$1"; pidlog_self; sleep 1 & pidlog $!; wait
              "$2" one-move --game connect4 "$3" "$4" "$5"' \
    setsid "${0%/*}/pidlog.sh" "$1" "$2" "$3" "$4" >/dev/null 2>&1 &
pidlog $!
exit 0
