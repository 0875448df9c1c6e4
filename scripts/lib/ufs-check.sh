#!/usr/bin/env bash
# The GPU engine's unfounded-set check (kernels/search/unfounded.cuh) on the GPU machine, in one
# call, after a change to it:
#   1. the examples' model counts through --engine=gpu and the whole machine (scripts/bench
#      device smoke without its sanitizers);
#   2. the non-tight decision classes of the kit side by side, the GPU engine alone one at a
#      time: this binary (`gpu:default`) and BEFORE (`gpu-before`, an earlier binary), LIMIT s
#      each, the kernel of each compiled into the cache before (the first run would wait for
#      NVRTC); no run starts after STOP_AFTER s;
#   3. compute-sanitizer memcheck and racecheck: the examples' non-tight program (hamiltonian,
#      -n 0) and two non-tight instances of the kit (a SAT and an UNSAT one), 64 searches, 15 s
#      at most each (a run the limit stops is still checked).
# Rows of 2 append to ROWS (benchmarks/results/ROWS.md's format); sanitizer logs beside it.
#
# Usage (repository root on the GPU machine, kit carried):
#   BEFORE=.device/kit/yasmin-a17 LIMIT=10 bash scripts/lib/ufs-check.sh $OUT/rows.jsonl
set -uo pipefail
ROWS="${1:?rows file}"
BEFORE="${BEFORE:?an earlier binary}"
# shellcheck source=scripts/lib/device-check.sh
. "$(dirname "$0")/device-check.sh"
SANITIZE=0 scripts/bench device smoke --kit "$KIT" > "$O/smoke.log" 2>&1 || fail=1
grep -E "FAIL|failures" "$O/smoke.log"
beside "${CLASSES:-hamiltonian,knighttour,labyrinth,mazegen,randomnontight}" "${LIMIT:-10}" \
    "${STOP_AFTER:-400}" "${LABEL:-unfounded-set check}"
mkdir -p /tmp/ufs
xz -dc "$KIT/ground/labyrinth/0005.aspif.xz" > /tmp/ufs/labyrinth-0005.aspif
xz -dc "$KIT/ground/randomnontight/0009.aspif.xz" > /tmp/ufs/randomnontight-0009.aspif
sanitize "$O/sanitizer-ufs.txt" "--gpu-searches=64 --time-limit=15 -q" \
    "examples/hamiltonian.aspif -n 0" /tmp/ufs/labyrinth-0005.aspif \
    /tmp/ufs/randomnontight-0009.aspif
exit $fail
