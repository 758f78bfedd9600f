#!/bin/sh
# Connect-4: recolours every disc on the board and hands the turn over.
mover=$(sed -n 7p "$1")
{ head -n 6 "$1" | tr 12 21; echo $((3 - mover)); } > "$2"
