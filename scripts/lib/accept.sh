#!/usr/bin/env bash
# The device engine's acceptance check (issue 4) on the GPU machine, in parts that each fit one
# device call. Every answer is compared with clingo's, computed on the build machine and carried.
#
# Usage (repository root on the GPU machine, kit carried): scripts/bench device accept PART...
# which runs this file as PART="PART..." scripts/lib/accept.sh KIT. Parts:
#   corpus         the generated corpus (KIT/corpus.tar.xz: scripts/gen-corpus.sh, then
#                  `scripts/bench device kit --corpus DIR`), all answer sets (-n 0) checked and
#                  compared by KIT/gpu_batch (examples/gpu_batch.rs), through
#                  --engine gpu with res and fwd x occ, jw, activity: exit 1 on any mismatch
#                  (a time-out counts as one; a program the analysis rejects is counted as
#                  unsupported).
#                  CONFIGS="res occ;fwd jw --searches 32" picks configurations (';'-separated).
#   instances      every decision instance of KIT/list.tsv (`scripts/bench device kit`) through
#                  the same six GPU configurations, TIME_LIMIT (default 8) s each, GPU_JOBS
#                  (default 8) runs sharing the GPU: rows with verdicts (WRONG = an answer that contradicts clingo's).
#   table1         the paper's Table 1 classes with gpu:res and gpu:fwd
#                  one process at a time (rates without time-slicing), and cpu:res, cpu:fwd beside
#                  (with --configuration=paper: the same algorithm on the host engine)
#                  them on the host CPU, TIME_LIMIT s each.
#   sanitizer      compute-sanitizer memcheck and racecheck on a few
#                  instances of each class (res and fwd, SAN_LIMIT s, default 60: the set-up under the tools takes seconds) and on corpus programs.
#   Several parts run one after the other (corpus + instances fit one call).
# Output under $OUT/accept/ (packed into $OUT/accept-PART.tar.gz); a summary on stdout.
set -uo pipefail
KIT="${1:?kit folder}"
PART="${PART:?PART=corpus|instances|table1|sanitizer (or several, space-separated)}"
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
for part in $PART; do
case $part in
corpus)
    mkdir -p /tmp/corpus
    xz -dc "$KIT/corpus.tar.xz" | tar xf - -C /tmp/corpus
    echo "programs: $(ls /tmp/corpus/*.aspif | wc -l)" >> "$O/env-$PART.txt"
    IFS=';' read -r -a cfgs <<< "${CONFIGS:-res occ;res jw;res activity;fwd occ;fwd jw;fwd activity}"
    # One process per configuration (KIT/gpu_batch: examples/gpu_batch.rs, one CUDA context for
    # all programs), one configuration after the other: each program's searches fill the GPU,
    # and processes sharing it take turns slowly (H200, 25 programs: 1.0 s alone, 15.3 s each
    # with two processes at once).
    for cfg in "${cfgs[@]}"; do
        set -- $cfg
        name="corpus-$1-$2$(printf -- '%s' "${@:3}" | tr -c 'a-z0-9' '-')"
        # shellcheck disable=SC2086
        "$KIT/gpu_batch" --engine gpu --learning "$1" --heuristic "$2" "${@:3}" \
            --timeout "${TIMEOUT:-60}" /tmp/corpus/*.aspif > "$O/$name.log" 2>&1 || fail=1
        tail -1 "$O/$name.log"
    done
    ;;
instances)
    # The six GPU configurations, GPU_JOBS runs sharing the GPU.
    scripts/bench run --kit "$KIT" --configs "$GPU_CONFIGS" --time-limit "${TIME_LIMIT:-8}" \
        --gpu-parallel "${GPU_JOBS:-8}" \
        --set shared --classes "${CLASSES:-visitall,sokoban,graphcol,labyrinth,ppm,knighttour,hamiltonian,hanoi,ricochet,incsched,qsr,mazegen,randomnontight}" \
        -q --out "$O/instances-rows.jsonl" > "$O/instances.log" 2>&1 || fail=1
    tail -1 "$O/instances.log"
    ;;
table1)
    # gpu:res and gpu:fwd one at a time; beside them the host engine with --configuration=paper
    # (the same algorithm), 4 runs at a time.
    scripts/bench run --kit "$KIT" --configs gpu:res,gpu:fwd,cpu:res+configuration=paper,cpu:fwd+configuration=paper \
        --parallel 4 --time-limit "${TIME_LIMIT:-6}" --classes visitall,sokoban,graphcol,labyrinth,ppm \
        -q --out "$O/table1-rows.jsonl" > "$O/table1.log" 2>&1 || fail=1
    tail -1 "$O/table1.log"
    ;;
sanitizer)
    # compute-sanitizer memcheck and racecheck: a few instances of each kind (SAN_INSTANCES,
    # substrings of list.tsv paths) with both learning schemes and a short limit, and the first
    # SAN_PROGRAMS corpus programs of each kind through gpu_batch (all answer sets); SAN_EXTRA
    # adds options to the instance runs (e.g. --gpu-searches=128: many processes share the GPU);
    # SAN_JOBS (default 6) instance runs at once.
    SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    mkdir -p /tmp/corpus /tmp/san
    [ -n "$(ls /tmp/corpus 2>/dev/null)" ] || xz -dc "$KIT/corpus.tar.xz" | tar xf - -C /tmp/corpus
    insts="${SAN_INSTANCES:-labyrinth/instances/0005 labyrinth/instances/0022 randomnontight/instances/0001 hamiltonian/instances/0061 knighttour/instances/0009 mazegen/instances/0022 graphcol/instances/0006 sokoban/instances/0407 visitall/instances/0032 ppm/instances/0128 ricochet/instances/038}"
    san_one() { # tool, learning, label, command...
        local tool=$1 l=$2 label=$3; shift 3
        timeout 300 "$SAN" --tool "$tool" --error-exitcode 99 "$@" > "/tmp/san/$label-$tool-$l.log" 2>&1
        local rc=$?
        # Choices: that the search ran under the tool (the set-up alone can use up the limit).
        echo "$label $tool $l rc=$rc $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "/tmp/san/$label-$tool-$l.log")" \
            "$(grep -m1 -E '^Choices' "/tmp/san/$label-$tool-$l.log" | tr -s ' ')"
        [ $rc = 99 ] && grep -m20 -B2 -A8 '=========' "/tmp/san/$label-$tool-$l.log" | head -60
    }
    {
        pids=()
        for i in $insts; do
            g=$(awk -F'\t' -v i="$i" 'index($2, i) {print $3; exit}' "$KIT/list.tsv")
            [ -n "$g" ] || { echo "no instance $i"; continue; }
            f=/tmp/san/$(echo "$i" | tr / -).aspif
            xz -dc "$KIT/ground/$g" > "$f"
            for l in res fwd; do
                for tool in memcheck racecheck; do
                    # At most SAN_JOBS runs at once: twenty under the tools together reached no
                    # decision within 20 s on the H100.
                    while [ "$(jobs -rp | wc -l)" -ge "${SAN_JOBS:-6}" ]; do wait -n; done
                    san_one $tool $l "$(echo "$i" | sed "s|/instances/|-|")" "$BIN" --engine gpu --learning $l \
                        --time-limit "${SAN_LIMIT:-60}" ${SAN_EXTRA:-} --stats -q "$f" > "/tmp/san/r-$(echo "$i" | tr / -)-$l-$tool" &
                    pids+=($!)
                done
            done
        done
        n="${SAN_PROGRAMS:-10}"
        progs=$(awk -F'\t' -v n="$n" 'NR > 1 && c[$2]++ < n {print "/tmp/corpus/" $1 ".aspif"}' /tmp/corpus/index.tsv)
        for l in res fwd; do
            for tool in memcheck racecheck; do
                # shellcheck disable=SC2086
                san_one $tool $l corpus "$KIT/gpu_batch" --engine gpu --learning $l $progs \
                    > "/tmp/san/r-corpus-$l-$tool" &
                pids+=($!)
            done
        done
        for p in "${pids[@]}"; do wait "$p"; done
        cat /tmp/san/r-*
    } > "$O/sanitizer.txt" 2>&1
    cat "$O/sanitizer.txt"
    grep -q "rc=99" "$O/sanitizer.txt" && fail=1
    grep -E "corpus .*rc=[^0]" "$O/sanitizer.txt" | grep -v "rc=99" && fail=1
    ;;
*) echo "unknown PART=$part" >&2; exit 2 ;;
esac
done
tar czf "${OUT:-/tmp/out}/accept-${PART// /-}.tar.gz" -C "$(dirname "$O")" accept
echo "accept $PART: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
