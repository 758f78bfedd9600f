#!/bin/sh
# Connect-4: drops a disc of the opponent on the bottom row and leaves the
# player line as it was.
mover=$(sed -n 7p "$1")
other=$((3 - mover))
{ head -n 5 "$1"; sed -n 6p "$1" | sed "s/0/$other/"; echo "$mover"; } > "$2"
