#!/usr/bin/env bash
# Sweep one environment knob of the device engine (e.g. YASMIN_LOCAL_ROUNDS) on a few instances,
# one process at a time, and print a table: props/s, choices, conflicts per value.
#
# Usage (GPU machine, kit of scripts/bench-prepare.sh carried):
#   VAR=YASMIN_LOCAL_ROUNDS VALUES="0 8 32" LIMIT=3 bash scripts/gpu-env-sweep.sh KIT INSTANCE...
#   INSTANCE: a substring of a list.tsv instance path, e.g. sokoban/instances/0407.
#   LEARNINGS (default "res fwd").
set -uo pipefail
KIT="${1:?kit folder}"; shift
VAR="${VAR:?VAR=name of the environment variable}"
export YASMIN_KERNEL_CACHE=/tmp/kcache
echo "| instance | learning | $VAR | answer | props/s | choices | conflicts |"
echo "|---|---|---:|---|---:|---:|---:|"
for i in "$@"; do
    g=$(awk -F'\t' -v i="$i" 'index($2, i) {print $3; exit}' "$KIT/list.tsv")
    [ -n "$g" ] || { echo "no instance $i" >&2; continue; }
    f=/tmp/sweep.aspif
    xz -dc "$KIT/ground/$g.xz" > "$f" 2>/dev/null || cp "$KIT/ground/$g" "$f"
    for l in ${LEARNINGS:-res fwd}; do
        for v in ${VALUES:?VALUES=\"a b ...\"}; do
            out=$(env "$VAR=$v" "$KIT/yasmin-rs" --engine gpu --learning "$l" \
                --time-limit "${LIMIT:-3}" --stats -q "$f" 2>&1)
            ans=$(grep -m1 -E '^(SATISFIABLE|UNSATISFIABLE|UNKNOWN)' <<<"$out")
            num() { sed -n "s/^$1 *: *\([0-9]*\).*/\1/p" <<<"$out" | head -1; }
            pps=$(sed -n 's/^Propagations.*Per second: *\([0-9.]*\).*/\1/p' <<<"$out" | head -1)
            echo "| $i | $l | $v | ${ans:-?} | ${pps%.*} | $(num Choices) | $(num Conflicts) |"
        done
    done
done
