#!/usr/bin/env bash
# Side-by-side run of two host-engine binaries on the list-host.tsv instances with sum bodies
# (kind contains card or weight): both learning schemes, one time limit, at most JOBS runs at
# once. Writes one TSV row per run: binary, instance, scheme, expected, answer, wall s, peak KB,
# conflicts, choices, completion nogoods.
#
#   scripts/bench-agg.sh BASELINE_BIN NEW_BIN OUT.tsv [LIMIT=60] [JOBS=2] [FILTER=regex]
set -euo pipefail
base=$1 new=$2 out=$3 limit=${4:-60} jobs=${5:-2} filter=${6:-.}
list=${LIST:-/work/main/benchmarks/list-host.tsv}
cache=${CACHE:-/work/main/benchmarks/cache}
one() { # bin-label bin instance expected scheme
  local label=$1 bin=$2 inst=$3 exp=$4 scheme=$5 log
  log=$(mktemp)
  /usr/bin/time -f "WALLMEM %e %M" "$bin" --engine cpu --learning "$scheme" --time-limit "$limit" \
    --stats -q "$cache/$inst" >"$log" 2>&1 || true
  local ans=$(grep -m1 -E '^(SATISFIABLE|UNSATISFIABLE|UNKNOWN)' "$log" || echo ERROR)
  local t=$(awk '/^WALLMEM/{print $2, $3}' "$log")
  local confl=$(awk '/^Conflicts/{print $3}' "$log")
  local ch=$(awk '/^Choices/{print $3}' "$log")
  local ng=$(sed -n 's/.*Complete.* \([0-9]*\) nogoods.*/\1/p' "$log")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$inst" "$scheme" "$exp" "$ans" \
    "${t% *}" "${t#* }" "$confl" "$ch" "$ng"
  rm -f "$log"
}
export -f one; export limit cache
awk -F'\t' 'NR>1 && $4 ~ /card|weight/ {print $3"\t"$6}' "$list" | grep -E "$filter" |
while IFS=$'\t' read -r inst exp; do
  for s in res fwd; do
    printf 'base\t%s\t%s\t%s\t%s\n' "$base" "$inst" "$exp" "$s"
    printf 'new\t%s\t%s\t%s\t%s\n' "$new" "$inst" "$exp" "$s"
  done
done | xargs -P "$jobs" -L 1 bash -c 'one "$@"' _ >"$out"
