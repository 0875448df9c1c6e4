#!/usr/bin/env bash
# Several yasmin-rs binaries (the host engine on one thread) and clingo side by side on one
# machine, in one call: one `scripts/bench run` per binary and one for clingo, all at the same
# time, each PARALLEL runs at once; every row appended to ROWS. Used to measure a change against
# the binary before it in the same run (issue 22: which change bought what).
#
# Usage (repository root; on the GPU machine with the kit carried):
#   LIMIT=60 PARALLEL=5 CLASSES=a,b bash scripts/lib/side-by-side.sh ROWS NAME=BINARY...
# e.g. ... side-by-side.sh $OUT/rows.jsonl after=.device/kit/yasmin-rs before=.device/kit/yasmin-before
# Environment: KIT (default .device/kit), LIMIT (default 60), PARALLEL (default 5), CLASSES,
# LABEL (free text in every row).
set -uo pipefail
ROWS="${1:?rows file}"
shift
KIT="${KIT:-.device/kit}"
class_args=()
[ -n "${CLASSES:-}" ] && class_args=(--classes "$CLASSES")
pids=()
for pair in "$@" clingo=; do
    name="${pair%%=*}" bin="${pair#*=}"
    configs="yasmin:$name:--engine=cpu -t 1"
    [ "$name" = clingo ] && configs=clingo bin="$KIT/yasmin-rs"
    scripts/bench run --kit "$KIT" --bin "$bin" --configs "$configs" --parallel "${PARALLEL:-5}" \
        --time-limit "${LIMIT:-60}" "${class_args[@]}" -q --label "${LABEL:-}" \
        --out "$ROWS.$name" > "$ROWS.$name.log" 2>&1 &
    pids+=($!)
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
for pair in "$@" clingo=; do
    name="${pair%%=*}"
    cat "$ROWS.$name" >> "$ROWS"
    rm -f "$ROWS.$name"
    grep -E "solved|WRONG" "$ROWS.$name.log" | tail -3
done
exit $fail
