#!/usr/bin/env bash
# The device engine's acceptance check (issue 4) on the GPU machine, in parts that each fit one
# device call. Every answer is compared with clingo's, computed on the build machine and carried.
#
# Usage (repository root on the GPU machine, kit carried):
#   PART=corpus    scripts/gpu-accept.sh KIT    the generated corpus (KIT/corpus.tar.xz from
#                  scripts/gen-corpus.sh, .aspif + .expected), all answer sets (-n 0) checked
#                  and compared by KIT/gpu_batch (examples/gpu_batch.rs), through
#                  --engine gpu with res and fwd x occ, jw, activity, plus res/activity with
#                  --sync-always: exit 1 on any mismatch (a time-out counts as one;
#                  a program the analysis rejects is counted as unsupported).
#                  CONFIGS="res occ;fwd jw --sync-always" picks configurations (';'-separated).
#   PART=instances scripts/gpu-accept.sh KIT    every decision instance of KIT/list.tsv (the kit of
#                  scripts/bench-prepare.sh) through the same six GPU configurations, TIME_LIMIT
#                  (default 8) s each, GPU_JOBS (default 8) processes sharing the GPU: rows with
#                  verdicts (WRONG = an answer that contradicts clingo's).
#   PART=table1    scripts/gpu-accept.sh KIT    the paper's Table 1 classes with gpu:res and gpu:fwd
#                  one process at a time (rates without time-slicing), and cpu:res, cpu:fwd beside
#                  them on the host CPU, TIME_LIMIT s each.
# Output under $OUT/accept/ (packed into $OUT/accept-PART.tar.gz); a summary on stdout.
set -uo pipefail
KIT="${1:?kit folder}"
PART="${PART:?PART=corpus|instances|table1}"
O="${OUT:-/tmp/out}/accept"
BIN="$KIT/yasmin-rs"
mkdir -p "$O"
export YASMIN_KERNEL_CACHE=/tmp/kcache
{
    echo "part: $PART"
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    echo "cpus: $(nproc)"
} > "$O/env-$PART.txt" 2>&1
fail=0
GPU_CONFIGS="gpu:res:occ,gpu:res:jw,gpu:res:activity,gpu:fwd:occ,gpu:fwd:jw,gpu:fwd:activity"
case $PART in
corpus)
    mkdir -p /tmp/corpus
    xz -dc "$KIT/corpus.tar.xz" | tar xf - -C /tmp/corpus
    echo "programs: $(ls /tmp/corpus/*.aspif | wc -l)" >> "$O/env-$PART.txt"
    IFS=';' read -r -a cfgs <<< "${CONFIGS:-res occ;res jw;res activity;fwd occ;fwd jw;fwd activity;res activity --sync-always}"
    # One process per configuration (KIT/gpu_batch: examples/gpu_batch.rs, one CUDA context for
    # all programs), all configurations at once sharing the GPU.
    pids=()
    for cfg in "${cfgs[@]}"; do
        set -- $cfg
        name="corpus-$1-$2${3:+-sync}"
        # shellcheck disable=SC2086
        "$KIT/gpu_batch" --engine gpu --learning "$1" --heuristic "$2" ${3:-} \
            --timeout "${TIMEOUT:-60}" /tmp/corpus/*.aspif > "$O/$name.log" 2>&1 &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || fail=1; done
    for cfg in "${cfgs[@]}"; do
        set -- $cfg
        tail -1 "$O/corpus-$1-$2${3:+-sync}.log"
    done
    ;;
instances)
    TIME_LIMIT="${TIME_LIMIT:-8}" CPU_JOBS=0 GPU_JOBS="${GPU_JOBS:-8}" GPU_CONFIGS="$GPU_CONFIGS" \
        bash scripts/bench-device.sh "$KIT" "$O/instances" \
        --classes "${CLASSES:-visitall,sokoban,graphcol,labyrinth,ppm,knighttour,hamiltonian,hanoi,ricochet,incsched,qsr,mazegen,randomnontight}" \
        -q || fail=1
    python3 - "$O/instances/rows.jsonl" <<'PY'
import collections, json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = collections.defaultdict(collections.Counter)
for r in rows:
    by[r["config"]][r["verdict"] if r["verdict"] != "ok" else "solved"] += 1
for c in sorted(by):
    print("%-18s %s" % (c, dict(by[c])))
print("rows %d, WRONG %d" % (len(rows), sum(r["verdict"] == "WRONG" for r in rows)))
PY
    ;;
table1)
    TL="${TIME_LIMIT:-6}"
    CL=visitall,sokoban,graphcol,labyrinth,ppm
    TIME_LIMIT=$TL CPU_JOBS=4 GPU_JOBS=0 CPU_CONFIGS=cpu:res,cpu:fwd \
        bash scripts/bench-device.sh "$KIT" "$O/table1-cpu" --classes $CL -q &
    TIME_LIMIT=$TL CPU_JOBS=0 GPU_JOBS=1 GPU_CONFIGS=gpu:res,gpu:fwd \
        bash scripts/bench-device.sh "$KIT" "$O/table1-gpu" --classes $CL -q || fail=1
    wait $! || fail=1
    cat "$O"/table1-gpu/rows.jsonl "$O"/table1-cpu/rows.jsonl > "$O/table1-rows.jsonl"
    grep -c '"WRONG"' "$O/table1-rows.jsonl" | sed 's/^/WRONG rows: /'
    ;;
*) echo "unknown PART=$PART" >&2; exit 2 ;;
esac
tar czf "${OUT:-/tmp/out}/accept-$PART.tar.gz" -C "$(dirname "$O")" accept
echo "gpu-accept $PART: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
