#!/bin/sh
# symlink.sh MODE ENGINE TARGET IN OUT DEPTH: symbolic links where the
# referee reads and writes. TARGET is a file outside the engine's folder.
#   out-outside  the output is a link to TARGET (a legal move, if followed)
#   out-inside   the output is a link to a legal move written beside it
#   in           plays a legal move, then makes the input file a link to
#                TARGET: the referee's next board must not land there
#   folder       plays a legal move, then moves its folder away and puts a
#                link to TARGET's folder in its place
. "${0%/*}/pidlog.sh"
pidlog_self
mode=$1 engine=$2 target=$3 in=$4 out=$5 depth=$6
case $mode in
out-outside)
    ln -s "$target" "$out" ;;
out-inside)
    "$engine" one-move --game connect4 "$in" "$out.real" "$depth" >/dev/null 2>&1 || exit 1
    ln -s "${out##*/}.real" "$out" ;;
in)
    "$engine" one-move --game connect4 "$in" "$out" "$depth" >/dev/null 2>&1 || exit 1
    rm -f "$in" && ln -s "$target" "$in" ;;
folder)
    "$engine" one-move --game connect4 "$in" "$out" "$depth" >/dev/null 2>&1 || exit 1
    dir=${in%/*}
    mv "$dir" "$dir.moved" && ln -s "${target%/*}" "$dir" ;;
esac
