#!/bin/sh
# valgrind-symbols.sh BINDIR CMD [ARG...] - runs CMD with valgrind reading
# only the symbol tables of the system's separate debug files for the
# libraries BINDIR's programs load (make test-valgrind runs the end-to-end
# suite through it).
#
# Why: valgrind on Debian needs libc6-dbg (the dynamic linker's symbols, for
# its mandatory strlen redirect), and then reads the C library's whole
# DWARF at every start: 4 MB of compressed sections, decompressed again by
# each of the suite's thousands of valgrind processes, a third of a short
# run's CPU. The symbol tables keep every function name (the
# suppressions', the redirects', a finding's libc frames); only libc's
# own line numbers go, and a finding's lines in arena's code come from
# arena's binaries as before.
#
# How: a folder of its own gets, at each library's build-id path, its debug
# file with the debug sections stripped, and CMD runs in a private mount
# namespace with that folder bound over /usr/lib/debug, so nothing outside
# the run sees a change, and the folder is removed after. That takes root
# (CI, the containers this suite runs in); elsewhere, or where the copies
# cannot be made, CMD runs as it is, reading the full files: the same
# results, slower.
set -eu
bins=$1
shift
debug=/usr/lib/debug
# The build-id of ELF file $1 (readelf -n's "Build ID: 7ebc..."), or nothing.
build_id() {
    readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p' | head -n 1
}
# Each library BINDIR's programs load, once.
libraries() {
    for b in "$bins"/*; do
        if [ -f "$b" ] && [ -x "$b" ]; then
            ldd "$b" 2>/dev/null || true   # a script: no libraries
        fi
    done | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' | sort -u
}
# Into $1: the stripped copy of each library's debug file; 1 when none.
mirror() {
    n=0
    for lib in $(libraries); do
        id=$(build_id "$lib")
        [ -n "$id" ] || continue
        rest=${id#??}
        f=".build-id/${id%"$rest"}/$rest.debug"
        [ -f "$debug/$f" ] || continue
        mkdir -p "$1/${f%/*}"
        strip -g -o "$1/$f" "$debug/$f" || return 1
        n=$((n + 1))
    done
    [ "$n" -gt 0 ] && chmod -R a+rX "$1"
}
if [ "$(id -u)" -eq 0 ] && [ -d "$debug" ] && command -v strip >/dev/null 2>&1 &&
   command -v readelf >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/arena-valgrind-debug.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
    trap 'exit 130' INT TERM
    if mirror "$dir"; then
        rc=0
        # shellcheck disable=SC2016 # the inner shell expands $0 and $@
        unshare -m sh -c 'mount --bind "$0" /usr/lib/debug && exec "$@"' "$dir" "$@" || rc=$?
        exit "$rc"
    fi
fi
exec "$@"
