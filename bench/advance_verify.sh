#!/bin/sh
# Conservative advancement on every runnable implementation: `simdccd advance`
# (TRIALS judged trials, default 200, seed 1) for every scene and method with
# the scenes' own motions, then on the active implementation PURE trials
# (default 20) of the rigid scenes' pure translations and rotations, which the
# exact oracle judges (slowly on the meshing gears: thousands of near feature
# pairs). One row a run in OUT (default advance_verify.tsv); equal answers
# across implementations show as equal collision counts. Progress on stderr.
# Usage: bench/advance_verify.sh [TRIALS] [PURE] [OUT]
set -eu
tool=${SIMDCCD_TOOL:-./build/tools/simdccd}
trials=${1:-200}
pure=${2:-20}
out=${3:-advance_verify.tsv}
targets="$("$tool" targets | sed -n "s/^runnable: *//p")"
printf 'target\tscene\tmotion\tmethod\ttrials\tcollisions\tmissed\tlate_toc\tabove_threshold\tunverified\titeration_limit\tmax_toc_gap\n' >"$out"
run() {  # target scene motion method trials
  echo "advance_verify: $*" >&2
  "$tool" advance --target "$1" --scene "$2" --motion "$3" --method "$4" --trials "$5" --threads 2 --no-fcl --json |
    awk -v t="$1" '
      function key(k,   r) { r = $0; sub(".*\"" k "\": *\"?", "", r); sub("[\",}].*", "", r); return r }
      { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t, key("scene"), key("motion"), key("method"),
               key("trials"), key("collisions"), key("missed"), key("late_toc"), key("above_threshold"),
               key("unverified"), key("iteration_limit"), key("max_toc_gap") }' >>"$out"
}
scenes="$("$tool" advance --list)"
for t in $targets; do
  for scene in $scenes; do
    for method in ca c2a hca; do run "$t" "$scene" general "$method" "$trials"; done
  done
done
active="$("$tool" targets | sed -n "s/^active: *\([^ ]*\).*/\1/p")"
for scene in $scenes; do
  case $scene in chain | hand) continue ;; esac
  for motion in translation rotation; do
    for method in ca c2a hca; do run "$active" "$scene" "$motion" "$method" "$pure"; done
  done
done
echo "advance_verify: wrote $out" >&2
