#!/bin/sh
# write-then-hang.sh ENGINE IN OUT DEPTH: writes a legal Connect-4 move,
# then never exits. A move is over when the engine exits: this one times
# out, whatever its file says.
. "${0%/*}/pidlog.sh"
pidlog_self
"$1" one-move --game connect4 "$2" "$3" "$4" >/dev/null 2>&1
exec sleep 6047
