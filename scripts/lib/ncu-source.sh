#!/usr/bin/env bash
# Where the search kernel's warps stall, per line of its source (issue 49's diagnosis): on the
# GPU machine, Nsight Compute's PC sampling (SourceCounters) on one slice of `search_k` (the
# sixth launch, clocks left alone), exported as the CUDA source view with the samples of each
# line; then scripts/lib/ncu_lines.py sums them per line and per kernel function.
#
# NVRTC names the source `yasmin.cu` in the working directory (src/engine/gpu/cache.rs), so
# the concatenated source (src/engine/gpu/device.rs::many_source, rebuilt here from the same
# file list) is written there first, for ncu to import.
#
# Usage: BIN=.device/kit/yasmin-rs OUT=dir bash scripts/lib/ncu-source.sh FILE.aspif...
#   writes OUT/NAME-lines.csv (the CUDA view) and prints ncu_lines.py's tables.
set -uo pipefail
BIN=${BIN:-.device/kit/yasmin-rs}
OUT=${OUT:-/tmp}
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/kernel_source.py" "$here/../.." > yasmin.cu
for f in "$@"; do
    name=$(basename "$f" .aspif)
    rep=$(mktemp -d)/$name
    timeout 300 ncu --clock-control none --kernel-name search_k --launch-skip 5 --launch-count 1 \
        --section SourceCounters --import-source yes -f -o "$rep" \
        "$BIN" --engine=gpu -q --time-limit=60 "$f" > "$rep.log" 2>&1
    echo "ncu $name: exit $? ($(grep -c PROF "$rep.log") profiler lines)"
    ncu -i "$rep.ncu-rep" --page source --csv --print-source cuda > "$OUT/$name-lines.csv"
    python3 "$here/ncu_lines.py" "$OUT/$name-lines.csv" | head -45
done
rm -f yasmin.cu
