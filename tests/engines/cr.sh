#!/bin/sh
# cr.sh ENGINE IN OUT DEPTH: the real engine, its board file rewritten with
# CR-only line endings, as the course's old sample program writes.
"$1" one-move --game connect4 "$2" "$3.tmp" "$4" >/dev/null 2>&1 || exit 1
tr '\n' '\r' < "$3.tmp" > "$3"
rm -f "$3.tmp"
