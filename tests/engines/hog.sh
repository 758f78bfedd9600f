#!/bin/sh
# Allocates without bound: the string doubles until memory runs out.
x=0123456789abcdef
while :; do x="$x$x"; done
