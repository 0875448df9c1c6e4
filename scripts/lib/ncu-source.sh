#!/usr/bin/env bash
# Where the search kernel's warps stall, per line of its source (issue 49's diagnosis), on the
# GPU machine: Nsight Compute's PC sampling (SourceCounters) on one slice of `search_k` (the
# sixth launch, clocks left alone), exported per SASS instruction, beside the very CUBIN that
# ran (compiled into an empty kernel cache for the run, so it is this binary's kernel, with
# line information: src/engine/gpu/cache.rs). On any machine, scripts/lib/ncu_lines.py then
# places each instruction on its source line (nvdisasm's line table; the source is
# kernel_source.py's) and sums the samples per line and per kernel function.
#
# Usage (GPU machine): BIN=.device/kit/yasmin-rs OUT=dir bash scripts/lib/ncu-source.sh FILE.aspif...
#   writes OUT/NAME-sass.csv and OUT/NAME.cubin
# then (anywhere): python3 scripts/lib/ncu_lines.py OUT/NAME-sass.csv OUT/NAME.cubin
set -uo pipefail
BIN=${BIN:-.device/kit/yasmin-rs}
OUT=${OUT:-/tmp}
for f in "$@"; do
    name=$(basename "$f" .aspif)
    work=$(mktemp -d)
    YASMIN_KERNEL_CACHE=$work/cache timeout 300 ncu --clock-control none --kernel-name search_k \
        --launch-skip 5 --launch-count 1 --section SourceCounters -f -o "$work/rep" \
        "$BIN" --engine=gpu -q --time-limit=60 "$f" > "$work/log" 2>&1
    echo "ncu $name: exit $? ($(grep -c '==PROF==' "$work/log") profiler lines)"
    ncu -i "$work/rep.ncu-rep" --page source --csv --print-source sass > "$OUT/$name-sass.csv"
    # The cache file is the CUBIN followed by its 8-byte hash.
    cubin=$(find "$work/cache" -type f | head -1)
    head -c -8 "$cubin" > "$OUT/$name.cubin"
    rm -rf "$work"
done
