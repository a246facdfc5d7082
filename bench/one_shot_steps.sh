#!/bin/sh
# The first step of a process: `simdccd step --mode exact --threads T --json`
# once a process on each bundled scene (tests/data/simulation), 1 and 2
# threads, ROUNDS rounds (default 5); with several tools (NAME=PATH, e.g. two
# builds) they alternate within each round. One row a run in OUT (default
# one_shot_steps.tsv), progress on stderr. simdccd_bench step reports the best
# of repeated steps instead, whose buffers are no longer fresh memory.
# Usage: bench/one_shot_steps.sh [ROUNDS] [OUT] [NAME=TOOL...]
set -eu
rounds=${1:-5}
out=${2:-one_shot_steps.tsv}
[ $# -ge 2 ] && shift 2 || shift $#
builds=${*:-main=./build/tools/simdccd}  # no spaces in names or paths
data=tests/data/simulation
{
  echo "# simdccd step --mode exact --threads T --json FRAME0 FRAME1, one step a process; seconds"
  echo "# cpu: $(lscpu | sed -n 's/^Model name: *//p')"
  printf 'round\tbuild\tscene\tthreads\tbroad_seconds\tnarrow_seconds\n'
} >"$out"
round=1
while [ "$round" -le "$rounds" ]; do
  echo "one_shot_steps: round $round of $rounds" >&2
  for build in $builds; do
    name=${build%%=*} tool=${build#*=}
    for threads in 1 2; do
      for scene in "cloth-funnel 227 228" "rod-twist 3036 3037" "n-body-simulation balls16_18 balls16_19"; do
        set -- $scene
        "$tool" step --mode exact --threads "$threads" --json "$data/$1/frames/$2.ply" "$data/$1/frames/$3.ply" |
          awk -v r="$round" -v b="$name" -v s="$1" -v t="$threads" '
            function key(k,   v) { v = $0; sub(".*\"" k "\": *", "", v); sub("[,}].*", "", v); return v }
            { printf "%s\t%s\t%s\t%s\t%s\t%s\n", r, b, s, t, key("broad_seconds"), key("narrow_seconds") }' >>"$out"
      done
    done
  done
  round=$((round + 1))
done
echo "one_shot_steps: wrote $out" >&2
