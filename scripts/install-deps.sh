#!/bin/sh
# install-deps.sh: installs the build and test dependencies of arena from the
# distribution's packages. The Makefile runs it only when pkg-config cannot find
# cJSON or Criterion; it is safe to run by hand and to run twice.
#
#   install-deps.sh        build and test: cJSON, Criterion, valgrind, gnuplot
#                          and jq (scripts/plot-bench.sh), xmllint (the
#                          tests read the plots' SVG with it), Python 3 (the
#                          quick start's engines, the student and sandbox
#                          engines of the e2e tests), a JRE (the sandbox
#                          tests' Java engine, compiled by its jdk.compiler
#                          module), man and
#                          groff (make test-install checks the man pages),
#                          Slurm's daemons and client, munge and GNU
#                          parallel (make test-cluster starts a
#                          single-node Slurm),
#                          chromium (make test-browser opens the HTML report
#                          in it, headless)
#   install-deps.sh fuzz   also clang and its libFuzzer runtime (make fuzz and
#                          make fuzz-regress run it when clang cannot link a
#                          fuzzer)
set -eu

PACKAGES="pkg-config libcjson-dev libcriterion-dev libmicrohttpd-dev gnuplot-nox jq libxml2-utils valgrind python3 default-jre-headless man-db groff-base chromium chromium-driver python3-selenium slurmctld slurmd slurm-client munge parallel"
if [ "${1:-}" = fuzz ]; then
    PACKAGES="$PACKAGES clang"
    # libFuzzer's runtime has its own package from LLVM 14 on (a Recommends
    # of clang, which --no-install-recommends skips); before, clang has it.
    llvm=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9]*\)$/\1/p' | head -n 1)
    if [ -n "$llvm" ] && apt-cache show "libclang-rt-$llvm-dev" >/dev/null 2>&1; then
        PACKAGES="$PACKAGES libclang-rt-$llvm-dev"
    fi
fi

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
