#!/usr/bin/env bash
# Is one GPU search latency-bound or throughput-bound? On the GPU machine, per instance: the
# GPU engine with 1, 32, 264 and the default number of searches for LIMIT seconds each, one at
# a time and nothing beside it, and one markdown row per run from `--stats` (searches, aggregate
# and per-search conflicts/s). If the per-search rate stays where one search has it, a search is
# latency-bound (more searches are free); if it falls as searches are added, they compete for
# the memory system. With NCU=1, also `ncu` on one slice of the default run of the first
# instance (occupancy, memory throughput, warp stall reasons), written to $OUT/ncu-*.txt.
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
echo "| instance | searches | conflicts | conflicts/s | per search conflicts/s | wall s | result |"
echo "|---|---:|---:|---:|---:|---:|---|"
for f in "$@"; do
    name=$(basename "$f" .aspif.xz)
    plain="$work/$name.aspif"
    xz -dc "$f" > "$plain"
    for n in $COUNTS; do
        extra=()
        [ "$n" != 0 ] && extra=(--gpu-searches "$n")
        start=$(date +%s.%N)
        "$BIN" --engine=gpu --stats -q --time-limit="$LIMIT" "${extra[@]}" "$plain" > "$work/out" 2>&1
        secs=$(python3 -c "import sys; print(float(sys.argv[1]) - float(sys.argv[2]))" "$(date +%s.%N)" "$start")
        awk -v inst="$name" -v secs="$secs" '
            /^(SATISFIABLE|UNSATISFIABLE|UNKNOWN)/ { res = $1 }
            /^Conflicts *:/ { c = $3; cps = $6; sub("\\)", "", cps) }
            /^GPU searches *:/ { n = $4 }
            /Per search *:/ { ps = $(NF-1) }
            END { printf "| %s | %s | %s | %.0f | %.0f | %.1f | %s |\n", inst, n, c, cps, ps, secs, res }
        ' "$work/out"
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
