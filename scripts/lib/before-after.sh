#!/usr/bin/env bash
# A change measured on both engines in one call: the host engine on one thread before and after,
# beside clingo, on every listed instance (side-by-side.sh, PARALLEL lanes each), and at the same
# time the GPU engine before and after, one run at a time, on GPU_CLASSES. Rows go to
# OUT_DIR/host.jsonl and OUT_DIR/gpu.jsonl.
#
# Usage (repository root; on the GPU machine with the kit carried):
#   LIMIT=10 PARALLEL=4 GPU_CLASSES=qsr,hanoi bash scripts/lib/before-after.sh OUT_DIR BEFORE AFTER
# Environment: KIT (default .device/kit), LIMIT (default 10), PARALLEL (default 4), CLASSES
# (host runs; default all), GPU_CLASSES (default none: no GPU runs), LABEL.
set -uo pipefail
out="${1:?output folder}" before="${2:?binary before}" after="${3:?binary after}"
KIT="${KIT:-.device/kit}"
export YASMIN_KERNEL_CACHE="${YASMIN_KERNEL_CACHE:-/tmp/kcache}"
mkdir -p "$out"
gpu_pid=
if [ -n "${GPU_CLASSES:-}" ]; then
    # Kernels compiled once per binary before any timed run.
    for b in "$before" "$after"; do "$b" examples/queens.aspif --engine=gpu -q >/dev/null 2>&1; done
    scripts/bench run --kit "$KIT" --bin "$after" --parallel 1 --time-limit "${LIMIT:-10}" \
        --configs "yasmin:gpu-before:bin=$before --engine=gpu,yasmin:gpu-after:--engine=gpu" \
        --classes "$GPU_CLASSES" -q --label "${LABEL:-}" --out "$out/gpu.jsonl" \
        > "$out/gpu.log" 2>&1 &
    gpu_pid=$!
fi
LIMIT="${LIMIT:-10}" PARALLEL="${PARALLEL:-4}" bash scripts/lib/side-by-side.sh "$out/host.jsonl" \
    before="$before" after="$after"
fail=$?
if [ -n "$gpu_pid" ]; then
    wait "$gpu_pid" || fail=1
    grep -E "solved|WRONG" "$out/gpu.log" | tail -3
fi
exit $fail
