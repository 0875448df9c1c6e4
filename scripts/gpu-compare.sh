#!/usr/bin/env bash
# One device call to check a device-engine change: the corpus check of the new binary
# (scripts/gpu-accept.sh PART=corpus: 2,000 programs x 7 configurations against clingo), then
# the new binary beside a baseline one (scripts/bench-side.sh, ENGINE=gpu, one process at a
# time, base then new per row) on the instances of the paper's Table 1 classes that clingo
# solves in under CLINGO_MAX s.
#
# Usage (GPU machine, kit of scripts/bench-prepare.sh carried, baseline binary copied into it):
#   bash scripts/gpu-compare.sh KIT BASE_BIN [LIMIT_S (default 5)]
#   CLASSES (default visitall|sokoban|graphcol|labyrinth|ppm), CLINGO_MAX (default 10).
# Output: $OUT/compare.tar.gz (corpus logs, side.md); summaries on stdout.
set -uo pipefail
KIT="${1:?kit folder}"
BASE="${2:?baseline binary}"
LIMIT="${3:-5}"
O=/tmp/compare
mkdir -p "$O"
status=0
OUT=$O PART=corpus bash scripts/gpu-accept.sh "$KIT" || status=1
list="$O/list.tsv"
awk -F'\t' -v OFS='\t' -v re="^(${CLASSES:-visitall|sokoban|graphcol|labyrinth|ppm})$" \
    -v max="${CLINGO_MAX:-10}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    $c["class"] ~ re && $c["expected"] != "" && $c["clingo_s"] + 0 < max + 0' "$KIT/list.tsv" > "$list"
echo "side by side: $(($(wc -l < "$list") - 1)) instances, ${LIMIT} s, base $BASE vs $KIT/yasmin-rs"
YASMIN_KERNEL_CACHE=/tmp/kcache ENGINE=gpu CACHE="$KIT/ground" \
    bash scripts/bench-side.sh "$BASE" "$KIT/yasmin-rs" "$list" "$LIMIT" res,fwd > "$O/side.md"
cat "$O/side.md"
grep -c '!' "$O/side.md" | sed 's/^/rows contradicting clingo (lines with !): /'
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$O/env.txt" 2>&1
tar czf "${OUT:-/tmp/out}/compare.tar.gz" -C "$O" .
exit $status
