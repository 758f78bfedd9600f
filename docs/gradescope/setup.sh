#!/bin/sh
# setup.sh - Gradescope runs this once, as root, when it builds the
# autograder's image (docs/grading.md#gradescope): it installs what building
# arena needs and builds it from the source in the autograder's zip,
# SOURCE/arena (a copy of the repository: `git archive --prefix=arena/`).
#
# `make all` needs pkg-config to find cJSON, Criterion and libmicrohttpd:
# its `deps` step checks all three before compiling anything (and would
# otherwise run scripts/install-deps.sh, whose test tools take far longer),
# so libcriterion-dev is installed although nothing built here links it.
# Python 3 is for run_autograder (the results' last fields) and for
# submissions in Python.
#
# AUTOGRADER_ROOT (default /autograder) stands for Gradescope's folder, so
# the script can be tried elsewhere.
set -eu
root=${AUTOGRADER_ROOT:-/autograder}
src=$root/source/arena
if [ ! -f "$src/Makefile" ]; then
    echo "setup.sh: no arena source in $src: put a copy of the repository there" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends build-essential pkg-config libcjson-dev \
    libcriterion-dev libmicrohttpd-dev python3
make -C "$src" -j"$(nproc)" all
"$src/bin/referee" --version
