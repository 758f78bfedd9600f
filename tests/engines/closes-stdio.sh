#!/bin/sh
# closes-stdio.sh ENGINE IN OUT DEPTH: closes its stdin, stdout and stderr,
# then the real engine plays: odd but sound, so a normal game.
. "${0%/*}/pidlog.sh"
pidlog_self
exec <&- >&- 2>&-
exec "$1" one-move --game connect4 "$2" "$3" "$4"
