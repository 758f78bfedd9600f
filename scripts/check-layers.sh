#!/bin/sh
# check-layers.sh - the include graph of src/ and include/ against the layer
# order; `make test` runs it first. Exit 1 with one line per violation.
#
# Layers, lowest first. A file may include the headers of its own module and
# of modules in lower layers, never those of a peer in its layer or of a
# higher layer:
#
#   0 core     src/core        what the games build on: err, textfile, clock,
#                              rng, sha256, tt, cli (option helpers), stats
#                              (Elo, SPRT, percentiles), game
#                              (the interface, game.h) and search
#   1 games    src/games/G     one module per game folder (connect4, nim,
#                              checkers, othello, tictactoe); games never
#                              include each other.
#                              Capabilities (oracle, learned player, other
#                              evaluations) are members of struct game.
#   2 engine   src/engine      registry (the one file naming every game; each
#                              game_NAME under src/games is one GAME(NAME) line),
#                              player, onemove, bench, benchdoc (the
#                              arena.bench/1 document of both benches)
#   3 learn    src/learn       the weights file and Connect-4's training
#   3 referee  src/referee     a layer of its own inside (REFEREE_LAYERS below):
#                              each folder is a module in a sub-layer 3.K,
#                              lowest first; a folder may include a folder of
#                              a lower sub-layer, never a peer or a higher one
#     3.0 rules    the rules of a game (placeholders, openings, the end, an
#                  answer judged), the game record, the schedule
#     3.1 run      running an engine: spec, runner, launchers, persist,
#                  sandbox, cgroup, cpus, gamedir, shim (no journal, no
#                  options, no play: they hand run plain values)
#     3.2 journal  the journal and its header (the header writers fill it
#                  from run's values)
#     3.3 judge    an external judge's game
#     3.4 report   tally, penta, analyze, verify, the reports (text, CSV,
#                  JSON, HTML)
#     3.5 play     a game, a match, a tournament, the worker pool, books,
#                  forfeit reasons, referee bench
#     3.6 cluster  Slurm and GNU parallel;  serve  referee play's server
#     3.7 options  the referee's options, preflight (checks them all)
#     3.8 grade    referee grade (its options are refopts')
#                  learn and every folder of the referee are peers.
#   4 cli      src/cli         the binaries' mains
#
# Units: a header and the .c files that implement it ("one prefix = one
# header = one .c"). A .c file implements the header of its own name in
# include/ unless UNITS below says otherwise ("-": it implements none, as the
# mains, and the connect4 and maxconnect4 game records, which sit on top of
# their folder).
# A header's module is the module of its implementing files (so
# include/arena/rules.h is the referee folder rules', as rules.c is); a
# header nobody implements is an error (add it to UNITS). Unit A depends on unit B when a
# file of A includes B's header; no such dependency may go round in a circle.
#
# CYCLE_EXCEPTIONS lists, one per line, the units of the known cycles that
# are still allowed (space-separated, sorted); remove a line once its cycle
# is broken (the checker then fails if the cycle comes back).
set -eu
cd "$(dirname "$0")/.."

# file regex (extended)                                   implemented header
UNITS='
^src/cli/                                                 -
^src/games/connect4/board\.[ch]$                          include/arena/connect4.h
^src/games/connect4/(connect4|maxconnect4)\.c$            -
^src/games/connect4/spfiar_[a-z]+\.c$                     include/arena/spfiar.h
^src/games/nim/(game|session)\.c$                         include/arena/nimgame.h
^src/games/nim/nimhelp\.c$                                include/nim.h
^src/games/checkers/[a-z]+\.c$                            include/arena/checkers.h
^src/referee/report/report_html_page\.c$                  src/referee/report/report_html.h
^src/referee/serve/playsrv_(page|api)\.c$                  include/arena/playsrv.h
'

# Headers with no .c (macros and inline functions only), and their module.
HEADER_ONLY='
include/arena/check.h                                     core
include/arena/limits.h                                    core
include/arena/version.h                                   core
include/arena/c4score.h                                   games/connect4
'

CYCLE_EXCEPTIONS='
'

# The folders of src/referee, lowest first, one sub-layer a line (peers on
# one line may not include each other). A folder not named here is an error.
REFEREE_LAYERS='
rules
run
journal
judge
report
play
cluster serve
options
grade
'

# One awk over every file (paths have no spaces; about a hundred of them).
# shellcheck disable=SC2046
set -- $(find src include -name '*.[ch]' | LC_ALL=C sort)
awk -v units="$UNITS" -v headeronly="$HEADER_ONLY" -v allowed="$CYCLE_EXCEPTIONS" \
    -v reflayers="$REFEREE_LAYERS" '
function module_of(path,    p) {
    if (path ~ /^src\/core\//) return "core"
    if (path ~ /^src\/games\/[^\/]+\//) { split(path, p, "/"); return "games/" p[3] }
    if (path ~ /^src\/referee\//) { split(path, p, "/"); return "referee/" p[3] }
    if (path ~ /^src\/(engine|learn|cli)\//) { split(path, p, "/"); return p[2] }
    return ""   # a public header: its implementing files decide
}
function layer_of(m) {
    if (m == "core") return 0
    if (m ~ /^games\//) return 1
    if (m == "engine") return 2
    if (m == "learn" || m ~ /^referee\//) return 3
    if (m == "cli") return 4
    return -1
}
# "3.K" for a folder of the referee (K: its REFEREE_LAYERS line from 0),
# else the layer.
function layer_name(m) {
    return m ~ /^referee\// ? layer_of(m) "." refsub[substr(m, 9)] : layer_of(m)
}
# 1 when module b is below module a: a lower layer, or both folders of the
# referee with b in a lower sub-layer.
function below(b, a) {
    if (layer_of(b) != layer_of(a)) return layer_of(b) < layer_of(a)
    return a ~ /^referee\// && b ~ /^referee\// && refsub[substr(b, 9)] < refsub[substr(a, 9)]
}
function fail(msg) { print "check-layers: " msg > "/dev/stderr"; bad = 1 }
function exists(path) { return path in isfile }
BEGIN {
    n = split(units, lines, "\n")
    for (i = 1; i <= n; i++)
        if (split(lines[i], fld, /[ \t]+/) == 2) { nrule++; rule_re[nrule] = fld[1]; rule_to[nrule] = fld[2] }
    n = split(headeronly, lines, "\n")
    for (i = 1; i <= n; i++)
        if (split(lines[i], fld, /[ \t]+/) == 2) hmod[fld[1]] = fld[2]
    n = split(allowed, lines, "\n")
    for (i = 1; i <= n; i++)
        if (lines[i] != "") exception[lines[i]] = 1
    n = split(reflayers, lines, "\n")
    for (i = 1; i <= n; i++)
        if (lines[i] != "") { for (j = split(lines[i], fld, /[ \t]+/); j > 0; j--) refsub[fld[j]] = nsub; nsub++ }
    for (i = 1; i < ARGC; i++) { isfile[ARGV[i]] = 1; files[++nfiles] = ARGV[i] }
}
/^[ \t]*#[ \t]*include[ \t]*[<"]/ {
    # Quoted or angled: a name is looked for beside the file, in include/,
    # then in src/ (headers beside their code, as "referee/run/runner.h").
    # An angled name found in none of them is a system header.
    angled = $0 ~ /include[ \t]*</
    name = $0
    sub(/^[^<"]*[<"]/, "", name); sub(/[>"].*/, "", name)
    dir = FILENAME; sub(/[^\/]*$/, "", dir)
    target = !angled && exists(dir name) ? dir name : exists("include/" name) ? "include/" name \
           : exists("src/" name) ? "src/" name : ""
    if (target == "" && angled) next
    if (target == "") { fail(FILENAME ":" FNR ": \"" name "\" is not in src/ or include/"); next }
    ninc++; inc_from[ninc] = FILENAME; inc_to[ninc] = target; inc_line[ninc] = FNR
}
END {
    # Units and modules.
    for (i = 1; i <= nfiles; i++) {
        f = files[i]
        if (f ~ /^include\//) { unit[f] = f; continue }
        u = ""
        for (r = 1; r <= nrule; r++)
            if (f ~ rule_re[r]) { u = rule_to[r]; break }
        if (u == "") {
            base = f; sub(/^.*\//, "", base); sub(/\.c$/, ".h", base)
            here = f; sub(/[^\/]*$/, "", here)
            u = exists(here base) ? here base \
              : exists("include/arena/" base) ? "include/arena/" base \
              : exists("include/" base) ? "include/" base : "-"
        }
        if (u == "-") u = f
        else if (!exists(u)) { fail(f ": UNITS names " u ", which does not exist"); u = f }
        unit[f] = u
        m = module_of(f)
        if (m ~ /^referee\// && !(substr(m, 9) in refsub))
            fail(f ": src/" m " is not a folder of REFEREE_LAYERS (scripts/check-layers.sh)")
        if (u != f) {
            if (u in umod && umod[u] != m)
                fail(u ": implemented in two modules, " umod[u] " and " m)
            umod[u] = m
        }
        umod[f] = m
    }
    for (i = 1; i <= nfiles; i++) {
        f = files[i]
        if (f ~ /^include\// && !(f in umod) && (f in hmod)) umod[f] = hmod[f]
        if (f ~ /^include\// && !(f in umod)) fail(f ": no .c file implements it; classify it in UNITS")
    }
    if (bad) exit 1

    # Layers: every include goes to the same module or a lower layer.
    for (i = 1; i <= ninc; i++) {
        a = umod[unit[inc_from[i]]]; b = umod[unit[inc_to[i]]]
        if (a != b && !below(b, a))
            fail(inc_from[i] ":" inc_line[i] ": " a " (layer " layer_name(a) ") includes " \
                 inc_to[i] " of " b " (layer " layer_name(b) ")")
        ua = unit[inc_from[i]]; ub = unit[inc_to[i]]
        if (ua != ub && !((ua, ub) in reach)) {
            reach[ua, ub] = 1
            if (!(ua in seen)) { seen[ua] = 1; node[++nn] = ua }
            if (!(ub in seen)) { seen[ub] = 1; node[++nn] = ub }
        }
    }

    # Cycles: the transitive closure, then each strongly connected set of
    # units (sorted names) once.
    for (k = 1; k <= nn; k++)
        for (i = 1; i <= nn; i++)
            if ((node[i], node[k]) in reach)
                for (j = 1; j <= nn; j++)
                    if ((node[k], node[j]) in reach) reach[node[i], node[j]] = 1
    for (i = 1; i <= nn; i++) {
        if (!((node[i], node[i]) in reach) || node[i] in reported) continue
        cnt = 0
        for (j = 1; j <= nn; j++)
            if ((node[i], node[j]) in reach && (node[j], node[i]) in reach) { cyc[++cnt] = node[j]; reported[node[j]] = 1 }
        for (x = 2; x <= cnt; x++)   # insertion sort, a handful of names
            for (y = x; y > 1 && cyc[y - 1] > cyc[y]; y--) { t = cyc[y]; cyc[y] = cyc[y - 1]; cyc[y - 1] = t }
        set = cyc[1]
        for (x = 2; x <= cnt; x++) set = set " " cyc[x]
        if (set in exception) { used[set] = 1; continue }
        fail("include cycle between units: " set)
    }
    for (s in exception)
        if (!(s in used)) fail("CYCLE_EXCEPTIONS: no cycle " s " any more; remove the line")
    exit bad
}' "$@" || status=1

# Games: every `const struct game game_NAME` defined under src/games is one
# GAME(NAME) line of REGISTRY_GAMES in src/engine/registry.c and every such
# line names one, so that a new game is its folder plus that one line.
defined=" $(grep -rhoE '^const struct game game_[a-z0-9_]+ =' src/games |
    sed -E 's/^const struct game game_([a-z0-9_]+) =/\1/' | tr '\n' ' ')"
registered=" $(sed -nE 's/^ *GAME\(([a-z0-9_]+)\).*/\1/p' src/engine/registry.c | tr '\n' ' ')"
for g in $defined; do
    case "$registered" in
    *" $g "*) ;;
    *) echo "check-layers: src/games: game_$g is not registered (a GAME($g) line in src/engine/registry.c)" >&2
       status=1 ;;
    esac
done
for g in $registered; do
    case "$defined" in
    *" $g "*) ;;
    *) echo "check-layers: src/engine/registry.c: GAME($g) names no game_$g defined under src/games" >&2
       status=1 ;;
    esac
done
exit "${status:-0}"
