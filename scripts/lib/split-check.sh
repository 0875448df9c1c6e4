#!/usr/bin/env bash
# The GPU engine's cube splitting (kernels/search/cube.cuh) on the GPU machine, in one call:
#   1. compute-sanitizer memcheck and racecheck with splits after every conflict on a cube
#      (--gpu-split=1): an UNSAT program (8 pigeons; with res and with fwd learning), and -n 0
#      on a program with 254,531 answer sets (splits during enumeration), all from source
#      through the embedded grounder, 30 s at most each (a run the limit stops is still checked);
#   2. the UNSAT instances of the kit side by side, the GPU engine alone one at a time: this
#      binary (splitting, default), it with --gpu-split=0, and BEFORE (an earlier binary whose
#      searches, once every cube was handed out, took cubes not yet refuted), LIMIT s each;
#      skipped without INSTANCES.
# Rows append to ROWS (benchmarks/results/ROWS.md's format).
#
# Usage (repository root on the GPU machine, kit carried):
#   LIMIT=60 BEFORE=.device/kit/yasmin-before INSTANCES=0027,0038 \
#       bash scripts/lib/split-check.sh ROWS
set -uo pipefail
ROWS="${1:?rows file}"
# shellcheck source=scripts/lib/device-check.sh
. "$(dirname "$0")/device-check.sh"
sanitize "$O/sanitizer-split.txt" "--gpu-searches=64 --gpu-split=1 --time-limit=30 -q --stats" \
    "tests/device/pigeons.lp --gpu-cubes=4" \
    "tests/device/pigeons.lp --gpu-cubes=4 --learning=fwd" \
    "tests/device/many_models.lp -n 0 --gpu-cubes=4"
[ -z "${INSTANCES:-}" ] && exit $fail
configs="yasmin:gpu-split:--engine=gpu,yasmin:gpu-nosplit:--engine=gpu --gpu-split=0"
[ -n "${BEFORE:-}" ] && configs="$configs,yasmin:gpu-before:bin=$BEFORE --engine=gpu"
scripts/bench run --kit "$KIT" --configs "$configs" --time-limit "${LIMIT:-60}" \
    --instances "$INSTANCES" -q \
    --label "${LABEL:-cube splitting}" --out "$ROWS" || fail=1
exit $fail
