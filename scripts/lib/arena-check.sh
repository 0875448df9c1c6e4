#!/usr/bin/env bash
# What a small program's small learned arena (engine/gpu/layout.rs, ARENA_PER_WORD) buys on
# the GPU machine, in one call: the first CORPUS_N (default 200) corpus programs through
# KIT/gpu_batch (this code) and KIT/gpu_batch-before (an earlier build, the fixed 2^19-word
# arena), GPU engine, resolution learning, every answer set compared with clingo's:
#   1. each build alone, one after the other;
#   2. two processes of the same build at once (the case the README warns about);
# for each: wall seconds, the summary line, and the most device memory nvidia-smi saw a process
# hold (sampled every 0.2 s). Then the CLI on the examples (--engine=gpu, --stats): wall seconds
# and its Device memory line. Output on stdout; logs in $OUT/arena.
#
# Usage (repository root on the GPU machine, kit carried):
#   CUDA_VISIBLE_DEVICES=0 bash scripts/lib/arena-check.sh
set -uo pipefail
ROWS="${OUT:-/tmp/out}/arena/logs" # no rows: device-check.sh's O is this folder
# shellcheck source=scripts/lib/device-check.sh
. "$(dirname "$0")/device-check.sh"
corpus_unpacked
mapfile -t files < <(ls /tmp/corpus/[0-9]*.aspif | head -"${CORPUS_N:-200}")

# seconds since T0 (date +%s%N), to the millisecond
secs() {
    local ms=$((($(date +%s%N) - $1) / 1000000))
    printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}

# peak device memory of any process while the command runs (MiB)
peak_run() {
    local log="$1" peak=0 m
    shift
    "$@" > "$log" 2>&1 &
    local pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        m=$(nvidia-smi --query-compute-apps=used_memory --format=csv,noheader,nounits 2>/dev/null |
            sort -n | tail -1)
        [ -n "$m" ] && [ "$m" -gt "$peak" ] && peak=$m
        sleep 0.2
    done
    wait "$pid"
    echo "$peak"
}

for b in gpu_batch-before gpu_batch; do
    # the kernel into the cache first
    "$KIT/$b" --engine gpu --learning res "${files[0]}" > /dev/null 2>&1
done
for b in gpu_batch-before gpu_batch; do
    B=("$KIT/$b" --engine gpu --learning res --heuristic activity --timeout 60)
    t0=$(date +%s%N)
    peak=$(peak_run "$O/$b-alone.log" "${B[@]}" "${files[@]}")
    echo "$b alone: $(secs "$t0") s, peak $peak MiB, $(tail -1 "$O/$b-alone.log")"
    t0=$(date +%s%N)
    "${B[@]}" "${files[@]}" > "$O/$b-two-2.log" 2>&1 &
    peak=$(peak_run "$O/$b-two-1.log" "${B[@]}" "${files[@]}")
    wait
    echo "$b two at once: $(secs "$t0") s, peak $peak MiB," \
        "$(tail -1 "$O/$b-two-1.log") | $(tail -1 "$O/$b-two-2.log")"
done
for f in examples/*.aspif; do
    t0=$(date +%s%N)
    "$KIT/yasmin-rs" --engine=gpu --stats -n 0 "$f" > "$O/cli.log" 2>&1
    echo "cli $f: $(secs "$t0") s, $(grep -m1 -E '^(SATISFIABLE|UNSATISFIABLE|OPTIMUM)' "$O/cli.log")," \
        "$(grep -m1 'Device memory' "$O/cli.log" | tr -s ' ')"
done
