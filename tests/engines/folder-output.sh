#!/bin/sh
# folder-output.sh MODE ENGINE IN OUT DEPTH: something that is no file where
# the output goes.
#   folder  a folder, with a legal move inside it as out.txt
#   fifo    a named pipe: a referee that opened it to read would hang
#   input   plays a legal move, then makes the input file a folder: the
#           referee's next board goes there
. "${0%/*}/pidlog.sh"
pidlog_self
mode=$1 engine=$2 in=$3 out=$4 depth=$5
case $mode in
folder)
    mkdir "$out" && "$engine" one-move --game connect4 "$in" "$out/out.txt" "$depth" \
        >/dev/null 2>&1 ;;
fifo)
    mkfifo "$out" ;;
input)
    "$engine" one-move --game connect4 "$in" "$out" "$depth" >/dev/null 2>&1 || exit 1
    rm -f "$in" && mkdir "$in" ;;
esac
