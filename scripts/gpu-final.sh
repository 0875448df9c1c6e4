#!/usr/bin/env bash
# One device call for the end of a session: the device engine's corpus check, the Table 1 run
# (device engine one process at a time beside the host engine) and compute-sanitizer
# (scripts/gpu-accept.sh), and meanwhile, on the other CPU cores, the host engine's acceptance
# list (benchmarks/list-host.tsv: 44 instances) beside clingo.
#
# Usage (GPU machine, kit carried): bash scripts/gpu-final.sh .device/kit
#   HOST_LIMIT (default 20) s per host run, HOST_JOBS (default 9) parallel host chunks,
#   HOST_CONFIGS (default clingo,cpu:res,cpu:fwd; scripts/bench-run.py configurations).
set -uo pipefail
KIT="${1:?kit folder}"
# Everything goes under /tmp/final, packed into one $OUT/final.tar.gz at the end (the device
# tool brings back only a few files).
O=/tmp/final
mkdir -p "$O"
TIME_LIMIT="${HOST_LIMIT:-20}" CPU_JOBS="${HOST_JOBS:-9}" GPU_JOBS=0 \
    CPU_CONFIGS="${HOST_CONFIGS:-clingo,cpu:res,cpu:fwd}" \
    bash scripts/bench-device.sh "$KIT" "$O/host44" --list "$KIT/list-host.tsv" -q > /dev/null 2>&1 &
host=$!
OUT=$O PART="corpus table1 sanitizer" TIME_LIMIT="${TABLE_LIMIT:-5}" SAN_PROGRAMS="${SAN_PROGRAMS:-5}" \
    bash scripts/gpu-accept.sh "$KIT"
status=$?
wait $host || status=1
python3 scripts/rows-summary.py "$O/host44/rows.jsonl" host44
rm -f "$O"/accept-*.tar.gz
tar czf "${OUT:-/tmp/out}/final.tar.gz" -C "$O" .
exit $status
