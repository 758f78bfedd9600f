#!/bin/sh
# Ignores SIGTERM (its child too: an ignored signal stays ignored across
# fork and exec), leaves a child sleeping, and spins past the deadline:
# only SIGKILL ends either.
. "${0%/*}/pidlog.sh"
trap '' TERM
pidlog_self
sleep 6041 &
pidlog $!
while :; do :; done
