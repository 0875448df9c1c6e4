#!/usr/bin/env bash
# One whole benchmark chunk on the GPU machine, in one call: clingo and the host engine in
# CPU_JOBS parallel chunks, the device engine in GPU_JOBS parallel chunks (processes share the
# one GPU by time-slicing), every row checked against clingo by bench-run.py.
#
# Usage (repository root on the GPU machine, .device carried; kit made by scripts/bench-prepare.sh):
#   TIME_LIMIT=15 CPU_JOBS=8 GPU_JOBS=4 bash scripts/bench-device.sh .device/kit "$OUT" [bench-run.py args...]
# Writes OUTDIR/rows.jsonl (all rows), OUTDIR/env.txt (date, GPU, driver, commands) and
# OUTDIR/log.txt. Exit status 1 if any row is WRONG or ERROR (bench-run.py's verdicts).
set -uo pipefail
KIT="${1:?kit folder}"; OUTDIR="${2:?output folder}"; shift 2
TIME_LIMIT="${TIME_LIMIT:-15}"; CPU_JOBS="${CPU_JOBS:-8}"; GPU_JOBS="${GPU_JOBS:-4}"
CPU_CONFIGS="${CPU_CONFIGS:-clingo,cpu:res,cpu:fwd}"; GPU_CONFIGS="${GPU_CONFIGS:-gpu:res,gpu:fwd}"
mkdir -p "$OUTDIR"
# Under a lock: two runs at once (scripts/gpu-final.sh) must not install into /tmp/site together.
flock /tmp/site.lock python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
    --upgrade --target /tmp/site "$KIT"/whl/*.whl || exit 3
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
    echo "cpus: $(nproc)"
    echo "time limit: ${TIME_LIMIT}s; CPU_JOBS=$CPU_JOBS ($CPU_CONFIGS); GPU_JOBS=$GPU_JOBS ($GPU_CONFIGS)"
    echo "extra args: $*"
} > "$OUTDIR/env.txt"
run() { # $1 configs, $2 chunk, $3 tag
    python3 "$KIT/scripts/bench-run.py" --bin "$KIT/yasmin-rs" --ground-dir "$KIT/ground" \
        --list "$KIT/list.tsv" --clingo "python3 -m clingo" --configs "$1" --chunk "$2" \
        --time-limit "$TIME_LIMIT" --grace 5 --out "$OUTDIR/rows-$3.jsonl" "${@:4}" \
        >> "$OUTDIR/log.txt" 2>&1
}
pids=()
for i in $(seq 1 "$CPU_JOBS"); do run "$CPU_CONFIGS" "$i/$CPU_JOBS" "cpu$i" "$@" & pids+=($!); done
for i in $(seq 1 "$GPU_JOBS"); do run "$GPU_CONFIGS" "$i/$GPU_JOBS" "gpu$i" "$@" & pids+=($!); done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
cat "$OUTDIR"/rows-*.jsonl > "$OUTDIR/rows.jsonl" 2>/dev/null
rm -f "$OUTDIR"/rows-*.jsonl
echo "rows: $(wc -l < "$OUTDIR/rows.jsonl"); status $status" | tee -a "$OUTDIR/env.txt"
exit $status
