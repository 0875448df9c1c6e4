#!/usr/bin/env bash
# Is one GPU search latency-bound or throughput-bound, and where does its time go? On the GPU
# machine, per instance: the GPU engine with 1, 32, 264 and the default number of searches for
# LIMIT seconds each, one at a time and nothing beside it, and one markdown row per run from
# `--stats`: searches, result, aggregate and per-search conflicts/s, and the kernel's clock by
# phase summed over the searches (the `Time` line: propagation, of it the nogoods of length 2
# and 3, conflict analysis, unfounded sets, restarts) and the literals a propagation step took
# (`Steps`, of a warp's 32). If the per-search rate stays where one search has it, a search is
# latency-bound (more searches are free); if it falls as searches are added, they compete for
# the memory system. Each run's whole output is kept in $OUT/probe-NAME-N.txt. With NCU=1,
# also `ncu` on one slice of the default run of the first instance (occupancy, memory
# throughput, warp stall reasons), written to $OUT/ncu-*.txt.
#
# Usage: KIT=.device/kit LIMIT=10 COUNTS="1 32 264 0" bash scripts/lib/gpu-probe.sh FILE.aspif.xz...
# (a count of 0 means the default: as many searches as fit).
set -uo pipefail
KIT=${KIT:-.device/kit}
BIN=${BIN:-$KIT/yasmin-rs}
LIMIT=${LIMIT:-10}
COUNTS=${COUNTS:-1 32 264 0}
OUT=${OUT:-/tmp}
work=$(mktemp -d)
echo "| instance | searches | result | wall s | conflicts | conflicts/s | per search | propagation % | short % | analysis % | unfounded % | restarts % | literals/step |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in "$@"; do
    name=$(basename "$f" .aspif.xz)
    plain="$work/$name.aspif"
    xz -dc "$f" > "$plain"
    for n in $COUNTS; do
        extra=()
        [ "$n" != 0 ] && extra=(--gpu-searches "$n")
        start=$(date +%s.%N)
        "$BIN" --engine=gpu --stats -q --time-limit="$LIMIT" "${extra[@]}" "$plain" > "$OUT/probe-$name-$n.txt" 2>&1
        secs=$(python3 -c "import sys; print(float(sys.argv[1]) - float(sys.argv[2]))" "$(date +%s.%N)" "$start")
        awk -v inst="$name" -v secs="$secs" '
            /^(SATISFIABLE|UNSATISFIABLE|UNKNOWN|OPTIMUM)/ { res = $1 }
            /^Conflicts *:/ { c = $3; cps = $6; sub("\\)", "", cps) }
            /^GPU searches *:/ { n = $4 }
            /Per search *:/ { ps = $(NF-1) }
            /^  Time *:/ { for (i = 1; i <= NF; i++) if ($i ~ /%/) { v[++k] = $i; gsub("[%(),]", "", v[k]) } }
            /^  Steps *:/ { st = $3 }
            END { printf "| %s | %s | %s | %.1f | %s | %.0f | %.0f | %s | %s | %s | %s | %s | %s |\n", inst, n, res, secs, c, cps, ps, v[1], v[2], v[3], v[4], v[5], st }
        ' "$OUT/probe-$name-$n.txt"
    done
done
if [ "${NCU:-0}" = 1 ] && [ $# -gt 0 ]; then
    f=$1
    name=$(basename "$f" .aspif.xz)
    # The sixth launch: a slice of 32 ms, past the first slices' set-up.
    timeout 300 ncu --kernel-name search_k --launch-skip 5 --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section WarpStateStats \
        --section MemoryWorkloadAnalysis --section SchedulerStats --section LaunchStats \
        "$BIN" --engine=gpu -q --time-limit=20 "$work/$name.aspif" > "$OUT/ncu-$name.txt" 2>&1
    echo "ncu rc=$? ($OUT/ncu-$name.txt)"
fi
rm -rf "$work"
