#!/bin/sh
# nim-first.sh IN OUT [DEPTH]: a Nim engine in plain sh for the referee's
# tests: takes one match from the first heap that has any.
{ read -r heaps; read -r player; } < "$1"
out="" taken=0
for h in $heaps; do
    if [ "$taken" = 0 ] && [ "$h" -gt 0 ]; then
        h=$((h - 1))
        taken=1
    fi
    out="$out${out:+ }$h"
done
printf '%s\n%s\n' "$out" $((3 - player)) > "$2"
