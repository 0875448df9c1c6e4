#!/usr/bin/env bash
# The GPU engine's conflict analysis (kernels/search/learn.cuh) on the GPU machine, in one call,
# after a change to it:
#   1. the generated corpus (KIT/corpus.tar.xz) through KIT/gpu_batch --engine gpu with
#      resolution learning, the first CORPUS_N programs (default 1000), all answer sets compared;
#   2. the classes where analysis takes most of the GPU's time side by side, the GPU engine alone
#      one at a time: this binary (`gpu:default`) and BEFORE (`gpu-before`, an earlier binary),
#      LIMIT s each, both kernels compiled into the cache first; no run starts after
#      STOP_AFTER s;
#   3. compute-sanitizer memcheck and racecheck on the examples' queens (-n 0) and the kit's
#      smallest visitall and hanoi instances, 64 searches, SAN_LIMIT s (default 8) at most each.
# Rows of 2 append to ROWS (benchmarks/results/ROWS.md's format); sanitizer logs beside it.
#
# Usage (repository root on the GPU machine, kit carried):
#   BEFORE=.device/kit/yasmin-before LIMIT=5 bash scripts/lib/minimise-check.sh $OUT/rows.jsonl
set -uo pipefail
ROWS="${1:?rows file}"
BEFORE="${BEFORE:?an earlier binary}"
# shellcheck source=scripts/lib/device-check.sh
. "$(dirname "$0")/device-check.sh"
corpus_unpacked
# shellcheck disable=SC2046
"$KIT/gpu_batch" --engine gpu --learning res --heuristic activity --timeout 60 \
    $(ls /tmp/corpus/[0-9]*.aspif | head -"${CORPUS_N:-1000}") > "$O/corpus-res.log" 2>&1 || fail=1
tail -1 "$O/corpus-res.log"
beside "${CLASSES:-visitall,sokoban,hanoi}" "${LIMIT:-5}" "${STOP_AFTER:-170}" \
    "${LABEL:-conflict analysis}"
mkdir -p /tmp/min
xz -dc "$KIT/ground/visitall/0011-visitall-36-1.aspif.xz" > /tmp/min/visitall-0011.aspif
xz -dc "$KIT/ground/hanoi/0047-hanoi_tower-120-0.aspif.xz" > /tmp/min/hanoi-0047.aspif
sanitize "$O/sanitizer-minimise.txt" "--gpu-searches=64 --time-limit=${SAN_LIMIT:-8} -q" \
    "examples/queens.aspif -n 0" /tmp/min/visitall-0011.aspif /tmp/min/hanoi-0047.aspif
exit $fail
