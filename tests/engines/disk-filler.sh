#!/bin/sh
# disk-filler.sh MODE IN OUT: writes its output file without end, and a
# child fills another file beside it. RLIMIT_FSIZE stops each at the
# referee's limit (1 MiB):
#   die     SIGXFSZ ends the engine: file-limit
#   ignore  SIGXFSZ ignored, the write fails (EFBIG) and it exits 0 with a
#           file of the limit's size: file-limit all the same
. "${0%/*}/pidlog.sh"
pidlog_self
[ "$1" = ignore ] && trap '' XFSZ
head -c 100000000 /dev/zero > fill.bin &
pidlog $!
line=0000000000000000000000000000000000000000000000000000000000000000
line=$line$line$line$line$line$line$line$line$line$line$line$line$line$line$line$line
while printf '%s\n' "$line"; do :; done > "$3"
exit 0
