#!/bin/sh
# test-play.sh - `make test-browser`'s part for `referee play` (playsrv.h):
# its JSON API over HTTP (test-play-api.py: bad requests, two games, undo,
# a crashing engine's forfeit, the journal read by verify and report), then
# its page in headless Chromium through chromium-driver and Debian's
# python3-selenium (test-play-browser.py). Debian's selenium is the system
# Python's, so both run with /usr/bin/python3. Each script stops the
# servers it starts.
#
#   test-play.sh BIN
set -eu
BIN=$1
DIR=$(dirname "$0")
/usr/bin/python3 "$DIR/test-play-api.py" "$BIN"
/usr/bin/python3 "$DIR/test-play-browser.py" "$BIN"
