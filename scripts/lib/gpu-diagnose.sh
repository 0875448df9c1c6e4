#!/usr/bin/env bash
# Where the GPU engine's searches wait (issue 49's diagnosis), on the GPU machine, one run at a
# time and nothing beside it:
#  1. per instance, `--engine=gpu --stats` for LIMIT seconds: searches, result, conflicts/s of
#     all searches and of one, the deepest search's conflicts, propagated literals/s, and the
#     kernel clock's split by phase (scripts/lib/gpu-probe.sh's columns, plus those);
#  2. `ncu` (hardware counters, clocks left alone) on one slice of the search kernel of each of
#     the NCU instances: achieved occupancy, memory throughput (DRAM, L2, L1 hit rates, bytes
#     moved), and the warp stall reasons, written whole to $OUT/ncu-NAME.txt.
#
# Usage: BIN=.device/yasmin-rs LIMIT=10 NCU="a b" bash scripts/lib/gpu-diagnose.sh FILE.aspif.xz...
# (NCU: instance names, the file names without .aspif.xz; default: the first two files).
set -uo pipefail
BIN=${BIN:-.device/yasmin-rs}
LIMIT=${LIMIT:-10}
OUT=${OUT:-/tmp}
work=$(mktemp -d)
names=()
echo "| instance | searches | result | wall s | conflicts | conflicts/s | per search | deepest search | literals/s | propagation % | short % | analysis % | unfounded % | restarts % | literals/step |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in "$@"; do
    name=$(basename "$f" .aspif.xz)
    names+=("$name")
    xz -dc "$f" > "$work/$name.aspif"
    start=$(date +%s.%N)
    "$BIN" --engine=gpu --stats -q --time-limit="$LIMIT" "$work/$name.aspif" > "$OUT/diag-$name.txt" 2>&1
    secs=$(python3 -c "import sys; print(float(sys.argv[1]) - float(sys.argv[2]))" "$(date +%s.%N)" "$start")
    awk -v inst="$name" -v secs="$secs" '
        /^(SATISFIABLE|UNSATISFIABLE|UNKNOWN|OPTIMUM)/ { res = $1 }
        /^Conflicts *:/ { c = $3; cps = $6; sub("\\)", "", cps) }
        /^Propagations *:/ { pps = $6; sub("\\)", "", pps) }
        /^GPU searches *:/ { n = $4 }
        /Per search *:/ { ps = $(NF-1) }
        /Deepest *:/ { deep = $3 }
        /^  Time *:/ { for (i = 1; i <= NF; i++) if ($i ~ /%/) { v[++k] = $i; gsub("[%(),]", "", v[k]) } }
        /^  Steps *:/ { st = $3 }
        END { printf "| %s | %s | %s | %.1f | %s | %.0f | %.0f | %s | %.3g | %s | %s | %s | %s | %s | %s |\n", inst, n, res, secs, c, cps, ps, deep, pps, v[1], v[2], v[3], v[4], v[5], st }
    ' "$OUT/diag-$name.txt"
done
read -r -a profiled <<< "${NCU:-${names[*]:0:2}}"
for name in "${profiled[@]}"; do
    [ -f "$work/$name.aspif" ] || continue
    # The sixth launch: a slice past the first slices' set-up.
    timeout 240 ncu --clock-control none --kernel-name search_k --launch-skip 5 --launch-count 1 \
        --section SpeedOfLight --section Occupancy --section WarpStateStats \
        --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
        --section SchedulerStats --section LaunchStats \
        --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum \
        "$BIN" --engine=gpu -q --time-limit=30 "$work/$name.aspif" > "$OUT/ncu-$name.txt" 2>&1
    echo "ncu $name rc=$?"
done
rm -rf "$work"
