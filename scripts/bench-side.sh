#!/usr/bin/env bash
# Side-by-side comparison of two yasmin-rs binaries on the host engine.
# usage: scripts/bench-side.sh BASE_BIN NEW_BIN LIST [LIMIT_S] [SCHEMES]
#   LIST: file with one ground file per line, relative to benchmarks/cache (e.g.
#         hanoi/0047-hanoi_tower-120-0.aspif), optionally followed by a tab and the expected
#         answer (SAT/UNSAT); lines starting with '#' are skipped. list-host.tsv works too
#         (its `ground` and `expected` columns are used).
#   SCHEMES: learning schemes to run (default "res fwd").
# Both binaries run at the same moment on the same input (2 processes), so their wall times
# are comparable; conflicts and choices are machine-independent. Prints one TSV row per
# instance and scheme: instance scheme base_answer base_s base_conflicts new_answer new_s
# new_conflicts; a `!WRONG` marks an answer that contradicts the expected one.
set -u
BASE=$1 NEW=$2 LIST=$3 LIMIT=${4:-20} SCHEMES=${5:-"res fwd"}
CACHE=${CACHE:-/work/main/benchmarks/cache}
EXTRA=${EXTRA:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

one() { # bin file scheme out
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout $((LIMIT + 30)) "$1" --engine cpu --learning "$3" --time-limit "$LIMIT" $EXTRA --stats -q "$CACHE/$2" >"$4" 2>/dev/null
  rc=$?
  t1=$(date +%s.%N)
  echo "$rc $(echo "$t1 - $t0" | bc)" >"$4.rc"
}

answer() { case $1 in 10) echo SAT ;; 20) echo UNSAT ;; *) echo "?" ;; esac; }
stat() { awk -v k="$2" '$1==k {print $3; exit}' "$1"; }

printf 'instance\tscheme\tbase\tbase_s\tbase_confl\tnew\tnew_s\tnew_confl\n'
grep -v '^#' "$LIST" | while IFS=$'\t' read -r c1 c2 c3 c4 c5 c6 rest; do
  if [[ $c1 == class ]]; then continue; fi
  if [[ -n ${c3:-} && -n ${c6:-} ]]; then file=$c3 exp=$c6; else file=$c1 exp=${c2:-}; fi
  [[ -z $file ]] && continue
  for s in $SCHEMES; do
    one "$BASE" "$file" "$s" "$tmp/b" &
    one "$NEW" "$file" "$s" "$tmp/n" &
    wait
    read -r brc bt <"$tmp/b.rc"
    read -r nrc nt <"$tmp/n.rc"
    ba=$(answer "$brc") na=$(answer "$nrc")
    for x in ba na; do
      if [[ -n $exp && ${!x} != "?" && ${!x} != "$exp" ]]; then printf -v "$x" '%s!WRONG' "${!x}"; fi
    done
    printf '%s\t%s\t%s\t%.2f\t%s\t%s\t%.2f\t%s\n' "${file%.aspif}" "$s" "$ba" "$bt" \
      "$(stat "$tmp/b" Conflicts)" "$na" "$nt" "$(stat "$tmp/n" Conflicts)"
  done
done
