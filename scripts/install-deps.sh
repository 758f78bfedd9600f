#!/bin/sh
# install-deps.sh: installs the build and test dependencies of arena from the
# distribution's packages. The Makefile runs it only when pkg-config cannot find
# cJSON or Criterion; it is safe to run by hand and to run twice.
set -eu

PACKAGES="pkg-config libcjson-dev libcriterion-dev gnuplot-nox valgrind"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: no apt-get; install these packages by hand:$missing" >&2
    exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install-deps: installing$missing" >&2
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >&2
