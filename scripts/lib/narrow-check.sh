#!/usr/bin/env bash
# The GPU engine's start-over with fewer searches (`Narrow`, src/engine/gpu/engine.rs; off unless
# YASMIN_NARROW=ms,rate,to gives its rule, e.g. 2000,10,16: after 2 s of search count 2 s, and
# under 10 conflicts/s a search start over with 16) on the GPU machine: the GPU engine alone,
# one run at a time, on the instances given, 10 s each; then qsr 0125, the instance it was
# tried for, at 60 s. Export YASMIN_NARROW before calling: the runs inherit it. Rows in
# $OUT/narrow-*.jsonl (a row's stats_raw.narrowed is the count the run started with, when it
# started over).
#
# Usage: YASMIN_NARROW=2000,10,16 bash scripts/lib/narrow-check.sh INSTANCES (comma-separated,
# as `scripts/bench run --instances`).
set -uo pipefail
export YASMIN_KERNEL_CACHE=${YASMIN_KERNEL_CACHE:-/tmp/kcache}
KIT=${KIT:-.device/kit}
"$KIT/yasmin-rs" examples/queens.aspif --engine=gpu -q >/dev/null 2>&1
python3 scripts/bench run --kit "$KIT" --configs gpu:default --parallel 1 --time-limit 10 \
    --instances "$1" --out "$OUT/narrow-10s.jsonl" -q 2>&1 | tail -3
python3 scripts/bench run --kit "$KIT" --configs gpu:default --parallel 1 --time-limit 60 \
    --instances qsr/instances/0125 --out "$OUT/narrow-qsr0125-60s.jsonl" -q 2>&1 | tail -3
python3 - "$OUT"/narrow-*.jsonl <<'PY'
import json, sys
for f in sys.argv[1:]:
    for l in open(f):
        r = json.loads(l)
        raw = r.get("stats_raw") or {}
        print(r["instance"].split("/")[-1][:28], r["result"], round(r["wall_s"], 1),
              "searches", raw.get("gpu_searches"), "narrowed from", raw.get("narrowed"))
PY
