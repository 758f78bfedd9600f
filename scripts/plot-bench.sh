#!/bin/sh
# plot-bench.sh BENCH.json [OUT.svg] - depth against CPU time (log scale) from
# the JSON of `engine bench --json`, as an SVG drawn by gnuplot.
set -eu
json=${1:?usage: plot-bench.sh BENCH.json [OUT.svg]}
svg=${2:-${json%.json}.svg}
command -v gnuplot >/dev/null 2>&1 || sh "$(dirname "$0")/install-deps.sh"
data=$(mktemp)
trap 'rm -f "$data"' EXIT
# cJSON prints one member per line: pair each depth with the cpu_s after it.
awk -F: '/"depth"/ { gsub(/[ ,\t]/, "", $2); d = $2 }
         /"cpu_s"/ { gsub(/[ ,\t]/, "", $2); print d, $2 }' "$json" >"$data"
game=$(sed -n 's/.*"game":[[:space:]]*"\([^"]*\)".*/\1/p' "$json")
gnuplot <<GP
set terminal svg size 720,480 font "sans,12"
set output "$svg"
set title "arena engine bench: $game, alpha-beta, CPU time per depth"
set xlabel "search depth (plies)"
set ylabel "CPU seconds (all bench positions)"
set logscale y
set grid
plot "$data" using 1:(\$2 > 0 ? \$2 : 1e-4) with linespoints lw 2 title "$game"
GP
echo "wrote $svg"
