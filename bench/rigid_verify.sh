#!/bin/sh
# The rigid kernels against their oracle: `simdccd random --verify` for every
# runnable implementation, mode, motion and expel zone (0 and 0.05), COUNT
# queries of each type (default 100000), one row a run in OUT (default
# rigid_verify.tsv). Progress on stderr. Usage: bench/rigid_verify.sh [COUNT] [OUT]
set -eu
tool=${SIMDCCD_TOOL:-./build/tools/simdccd}
count=${1:-100000}
out=${2:-rigid_verify.tsv}
targets="$("$tool" targets | sed -n "s/^runnable: *//p")"
printf 'target\tmode\tmodel\texpel\ttype\tqueries\tpositives\tuncertain\tfalse_negatives\tfalse_positives\tlate_toi\n' >"$out"
for t in $targets; do
  for mode in exact conservative; do
    for model in translation rotation; do
      for expel in 0 0.05; do
        echo "rigid_verify: $t $mode $model expel $expel" >&2
        "$tool" random --model "$model" --expel "$expel" --count "$count" --verify --json --target "$t" --mode "$mode" |
          awk -v t="$t" -v m="$mode" -v model="$model" -v e="$expel" '
            function key(k,   r) { r = $0; sub(".*\"" k "\": *\"?", "", r); sub("[\",}].*", "", r); return r }
            { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t, m, model, e, key("type"), key("queries"),
                     key("positives"), key("uncertain"), key("oracle_false_negatives"),
                     key("oracle_false_positives"), key("oracle_late_toi") }' >>"$out"
      done
    done
  done
done
echo "rigid_verify: wrote $out" >&2
