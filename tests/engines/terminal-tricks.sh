#!/bin/sh
# Says things to the terminal on stderr (retitles it, clears it, a C1 CSI)
# and answers nothing: the referee shows them escaped, never raw.
printf 'starting\n' >&2
printf '\033]0;owned\007\033[2J\302\233Jcleared\n' >&2
exit 1
