#!/usr/bin/env bash
# Where the GPU searches' time goes: on the GPU machine, per instance, the GPU engine alone for
# LIMIT seconds (one run at a time, nothing beside it) with `--stats`, and one markdown row from
# its "Time" and "Steps" lines (the kernel's clock, summed over the searches: propagation, of it
# the nogoods of length 2 and 3, conflict analysis, unfounded sets, restarts; literals a
# propagation step takes, of a warp's 32) beside its result and rates. Each run's whole output is
# kept in $OUT/split-NAME-N.txt.
#
# Usage: KIT=.device/kit LIMIT=10 COUNTS="0" bash scripts/lib/gpu-time-split.sh FILE.aspif.xz...
# (a count of 0 means the default: as many searches as fit).
set -uo pipefail
KIT=${KIT:-.device/kit}
BIN=${BIN:-$KIT/yasmin-rs}
LIMIT=${LIMIT:-10}
COUNTS=${COUNTS:-0}
OUT=${OUT:-/tmp}
work=$(mktemp -d)
echo "| instance | searches | result | wall s | conflicts/s | per search | propagation % | short % | analysis % | unfounded % | restarts % | literals/step |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in "$@"; do
    name=$(basename "$f" .aspif.xz)
    plain="$work/$name.aspif"
    xz -dc "$f" > "$plain"
    for n in $COUNTS; do
        extra=()
        [ "$n" != 0 ] && extra=(--gpu-searches "$n")
        start=$(date +%s.%N)
        "$BIN" --engine=gpu --stats -q --time-limit="$LIMIT" "${extra[@]}" "$plain" > "$OUT/split-$name-$n.txt" 2>&1
        secs=$(python3 -c "import sys; print(float(sys.argv[1]) - float(sys.argv[2]))" "$(date +%s.%N)" "$start")
        awk -v inst="$name" -v secs="$secs" '
            /^(SATISFIABLE|UNSATISFIABLE|UNKNOWN|OPTIMUM)/ { res = $1 }
            /^Conflicts *:/ { cps = $6; sub("\\)", "", cps) }
            /^GPU searches *:/ { n = $4 }
            /Per search *:/ { ps = $(NF-1) }
            /^  Time *:/ { for (i = 1; i <= NF; i++) if ($i ~ /%/) { v[++k] = $i; gsub("[%(),]", "", v[k]) } }
            /^  Steps *:/ { st = $3 }
            END { printf "| %s | %s | %s | %.1f | %.0f | %.0f | %s | %s | %s | %s | %s | %s |\n", inst, n, res, secs, cps, ps, v[1], v[2], v[3], v[4], v[5], st }
        ' "$OUT/split-$name-$n.txt"
    done
done
