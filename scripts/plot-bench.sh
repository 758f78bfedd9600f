#!/bin/sh
# plot-bench.sh BENCH.json [OUT.svg] - CPU time per move against search depth,
# one line per engine (its median) with whiskers up to the 95th percentile, on
# a log time axis, as an SVG drawn by gnuplot.
#
# BENCH.json is an arena.bench/1 document: the one `engine bench --json`
# writes (one engine, named by "player"), or one whose "engines" array holds
# several engines of that shape ("name", "depths"). Each depth needs "depth"
# and "cpu_ms" {"median", "p95"}. The JSON is read with jq, so any layout of
# the same document draws the same picture. A bad document: a message and
# exit status 2, and OUT.svg is left as it was.
set -eu
json=${1:?usage: plot-bench.sh BENCH.json [OUT.svg]}
svg=${2:-${json%.json}.svg}
# In the source tree, install-deps.sh brings what is missing; installed
# (share/arena/plot-bench.sh), the package manager's job is to.
for tool in jq gnuplot; do
    command -v "$tool" >/dev/null 2>&1 && continue
    deps="$(dirname "$0")/install-deps.sh"
    [ -f "$deps" ] && sh "$deps" && continue
    echo "plot-bench.sh: needs $tool (Debian: apt install jq gnuplot-nox)" >&2
    exit 2
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The document as gnuplot input: the game's name, the engines' titles (as
# gnuplot strings: single quotes, a quote doubled; the terminal is
# noenhanced, so nothing else in a name is markup) and one data block whose
# sections, two blank lines apart, are the engines' "depth median_s p95_s"
# rows. A log axis cannot show 0 s: a depth measured as 0 (below the clock's
# resolution, or every move failed) is NaN, a gap in its line; "timed"
# counts the others.
if ! jq -r '
    def fail(msg): error("\(msg)");
    def gp: "'"'"'" + gsub("'"'"'"; "'"'"''"'"'") + "'"'"'";
    def seconds: if . > 0 then . / 1000 else "NaN" end;
    if .schema != "arena.bench/1" then fail("not an arena.bench/1 document") else . end
    | (.game // "") as $game
    | (.engines // [.])
    | if length == 0 then fail("no engine") else . end
    | [to_entries[] | .key as $i | .value
       | {name: ((.name // .player // "engine \($i + 1)") | tostring), depths}] as $engines
    | [$engines[].depths[]? | objects] as $rows
    | "game = \($game | tostring | gp)",
      "engines = \($engines | length)",
      "timed = \([$rows[] | select((.cpu_ms.median | type) == "number" and .cpu_ms.median > 0)]
                 | length)",
      "dmin = \([$rows[].depth | numbers] | min // 1)",
      "dmax = \([$rows[].depth | numbers] | max // 1)",
      "array titles[\($engines | length)]",
      ($engines | to_entries[] | "titles[\(.key + 1)] = \(.value.name | gp)"),
      "$data << EOD",
      ($engines | to_entries[] | .value as $e
       | if .key > 0 then "\n" else empty end,
         (if ($e.depths | type) != "array" or ($e.depths | length) == 0
          then fail("engine \($e.name): no \"depths\"") else $e.depths[] end
          | if (.depth | type) != "number" or (.cpu_ms.median | type) != "number"
               or (.cpu_ms.p95 | type) != "number"
            then fail("engine \($e.name): a depth without \"depth\" and \"cpu_ms\" {\"median\", \"p95\"}")
            else "\(.depth) \(.cpu_ms.median | seconds) \(.cpu_ms.p95 | seconds)" end)),
      "EOD"
' "$json" >"$work/data.gp" 2>"$work/error"; then
    echo "plot-bench.sh: $json: $(sed 's/^jq: error (at [^)]*): //' "$work/error")" >&2
    exit 2
fi

gnuplot >"$work/gnuplot.log" 2>&1 <<GP || { cat "$work/gnuplot.log" >&2; exit 1; }
set encoding utf8
set terminal svg size 800,500 dynamic noenhanced background rgb 'white' font 'sans,12'
set output '$work/plot.svg'
load '$work/data.gp'
set title (strlen(game) ? game . ': ' : '') . 'CPU time per move against search depth'
set xlabel 'search depth (plies)'
set ylabel 'CPU time per move (line: median, whisker: 95th percentile)'
set logscale y
set ytics ('1 ns' 1e-9, '10 ns' 1e-8, '100 ns' 1e-7, '1 µs' 1e-6, '10 µs' 1e-5, \
           '100 µs' 1e-4, '1 ms' 1e-3, '10 ms' 1e-2, '100 ms' 0.1, '1 s' 1, '10 s' 10, \
           '100 s' 100, '1000 s' 1000)
set mytics 10
set xtics 1
set autoscale xfix
set offsets 0.5, 0.5, 0, 0
set grid xtics ytics
set key top left Left reverse box
# Nothing timed (every move failed): gnuplot cannot autoscale on no point,
# so the axes are fixed and the legend still names every engine.
if (timed == 0) { set yrange [1e-3:1]; set xrange [dmin - 0.5:dmax + 0.5] }
plot for [i=1:engines] \$data index i - 1 using 1:2:2:3 with yerrorlines lw 2 pt 7 \
     title titles[i]
GP
mv "$work/plot.svg" "$svg"
echo "wrote $svg"
