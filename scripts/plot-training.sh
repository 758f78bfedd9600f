#!/bin/sh
# plot-training.sh LOG.jsonl [OUT.svg] - the learning curve of `engine train
# --log`: the learner's win, draw and loss rates over its last 1000 games and
# the mean |TD error|, against games played, as an SVG drawn by gnuplot.
set -eu
log=${1:?usage: plot-training.sh LOG.jsonl [OUT.svg]}
svg=${2:-${log%.*}.svg}
command -v gnuplot >/dev/null 2>&1 || sh "$(dirname "$0")/install-deps.sh"
data=$(mktemp)
trap 'rm -f "$data"' EXIT
# One flat JSON object per line (cJSON, no spaces): "key":value pairs.
awk '{
    n = split($0, kv, ",");
    for (i = 1; i <= n; i++) {
        gsub(/[{}"]/, "", kv[i]);
        split(kv[i], p, ":");
        v[p[1]] = p[2];
    }
    print v["games"], v["win"], v["draw"], v["loss"], v["mean_abs_td"]
}' "$log" >"$data"
gnuplot <<GP
set terminal svg size 800,480 font "sans,12"
set output "$svg"
set title "arena engine train: learning curve"
set xlabel "games played"
set ylabel "rate over the learner's last 1000 games"
set y2label "mean |TD error|"
set yrange [0:1]
set y2tics
set ytics nomirror
set key outside bottom center horizontal
set grid
plot "$data" using 1:2 with lines lw 2 title "win", \
     "$data" using 1:3 with lines lw 2 title "draw", \
     "$data" using 1:4 with lines lw 2 title "loss", \
     "$data" using 1:5 axes x1y2 with lines lw 1 dt 2 title "mean |TD error|"
GP
echo "wrote $svg"
