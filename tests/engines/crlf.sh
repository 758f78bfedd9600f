#!/bin/sh
# crlf.sh ENGINE IN OUT DEPTH: the real engine (a Connect-4 one-move program),
# its board file rewritten with CRLF line endings, as Windows programs write.
"$1" one-move --game connect4 "$2" "$3.tmp" "$4" >/dev/null 2>&1 || exit 1
sed 's/$/\r/' "$3.tmp" > "$3"
rm -f "$3.tmp"
