#!/bin/sh
# family-sleeper.sh: thinks for ever, with a family: a child in its process
# group and a grandchild that left the group (setsid), all sleeping. Killing
# the referee mid-move (SIGKILL, SIGTERM, SIGINT) must take all three down:
# the engine's leader alone dies with a killed parent (PR_SET_PDEATHSIG).
. "${0%/*}/pidlog.sh"
pidlog_self
sleep 6047 &
pidlog $!
setsid sh -c '. "$1"; pidlog_self; sleep 6047 & pidlog $!; wait' setsid "${0%/*}/pidlog.sh" &
pidlog $!
exec sleep 6047
