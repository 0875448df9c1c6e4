#!/usr/bin/env bash
# The GPU machine, in one call: ground the shared set there (16 cores; the added set's ground
# files travel, since their sources come from a git mirror), check the examples, and run
# configurations over both sets. Carry `.device` holding: yasmin-rs (stripped), whl/ (clingo,
# cffi, pycparser for CPython 3.12), bench/ (a copy of ../shared/benchmarks) and cache/ (a copy
# of the build machine's `scripts/bench prepare` cache with the added set ground).
#
# Usage (repository root, GPU machine):  bash scripts/lib/whole-machine.sh STEP...
#   ground                      the shared set ground into $YASMIN_BENCH_CACHE (16 at a time)
#   smoke                       scripts/bench device smoke (SANITIZE=0 skips the sanitizers)
#   corpus 'ARGS'               the generated corpus (DEV/corpus.tar.xz) through the CLI with ARGS
#                               (e.g. '--engine=auto -t 4': every member type of the whole
#                               machine), all answer sets compared with clingo's (scripts/bench
#                               corpus check; CORPUS_JOBS at once, default 8); log in $OUT;
#                               CORPUS_KINDS=a,b: only the programs of those generator kinds;
#                               CORPUS_STOP_AFTER=S: no program starts after S seconds
#   run LIMIT CONFIGS SET CHUNK scripts/bench run over SET (shared, added or all) and CHUNK
#                               (i/n or all); rows appended to $OUT/rows.jsonl
#   slots LIMIT CONFIGS SET     on a multi-GPU host: every run on a slot of one GPU and an equal
#                               share of the cores (scripts/lib/slots.py), one per GPU at once,
#                               over the kit DEV=.device/kit; resumable: rows of an earlier call carried
#                               as $DEV/slots-rows.jsonl are kept and their runs not made again;
#                               starts no run after STOP_AFTER seconds (default 480)
# Environment: CLASSES=a,b limits ground and run to those classes; PARALLEL (default 14) runs
# that many one-thread configurations at a time (whole-machine ones always run alone).
set -uo pipefail
DEV="${DEV:-.device}"
OUT="${OUT:-/tmp/out}"
export YASMIN_BENCH_CACHE="${YASMIN_BENCH_CACHE:-/tmp/bench-cache}"
export BENCH_DIR="${BENCH_DIR:-$DEV/bench}"
mkdir -p "$OUT" "$YASMIN_BENCH_CACHE"
if ! python3 -c 'import clingo' 2>/dev/null; then
    if [ ! -d /tmp/site/clingo ]; then
        python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
            --target /tmp/site "$DEV"/whl/*.whl || exit 2
    fi
    export PYTHONPATH=/tmp/site
fi
export YASMIN_BENCH_GRINGO="python3 -m clingo --mode=gringo"
class_args=()
[ -n "${CLASSES:-}" ] && class_args=(--classes "$CLASSES")

while [ $# -gt 0 ]; do
    case "$1" in
        ground)
            cp -rn "$DEV/cache/." "$YASMIN_BENCH_CACHE/"
            scripts/bench prepare --set shared "${class_args[@]}" --jobs 16 --timeout 300 2>&1 | tail -3
            shift ;;
        smoke)
            scripts/bench device smoke --kit "$DEV" 2>&1 | tail -30
            shift ;;
        corpus)
            mkdir -p /tmp/corpus
            [ -f /tmp/corpus/index.tsv ] || xz -dc "$DEV/corpus.tar.xz" | tar xf - -C /tmp/corpus
            export YASMIN_KERNEL_CACHE="${YASMIN_KERNEL_CACHE:-/tmp/kcache}"
            log="$OUT/corpus$(printf -- '%s' "$2" | tr -c 'a-z0-9' '-').log"
            dir=/tmp/corpus
            if [ -n "${CORPUS_KINDS:-}" ]; then
                dir=/tmp/corpus-$(printf -- '%s' "$CORPUS_KINDS" | tr -c 'a-z0-9' '-')
                mkdir -p "$dir"
                awk -v k=",$CORPUS_KINDS," 'NR > 1 && index(k, "," $2 ",") { print $1 }' \
                    /tmp/corpus/index.tsv | while read -r id; do
                    ln -sf "/tmp/corpus/$id.aspif" "/tmp/corpus/$id.expected" "$dir/"
                done
            fi
            # shellcheck disable=SC2086
            scripts/bench corpus check --jobs "${CORPUS_JOBS:-8}" --timeout 120 \
                ${CORPUS_STOP_AFTER:+--stop-after "$CORPUS_STOP_AFTER"} \
                "$DEV/yasmin-rs" "$dir" -- $2 > "$log" 2>&1
            tail -3 "$log"
            shift 2 ;;
        run)
            set_args=(); chunk_args=()
            [ "$4" != all ] && set_args=(--set "$4")
            [ "$5" != all ] && chunk_args=(--chunk "$5")
            scripts/bench run --bin "$DEV/yasmin-rs" --clingo "python3 -m clingo" \
                --configs "$3" --time-limit "$2" --parallel "${PARALLEL:-14}" --grace 3 \
                "${set_args[@]}" "${class_args[@]}" "${chunk_args[@]}" --out "$OUT/rows.jsonl" \
                2>&1 | tail -8
            shift 5 ;;
        slots)
            export YASMIN_KERNEL_CACHE="${YASMIN_KERNEL_CACHE:-/tmp/kcache}"
            [ -f "$DEV/slots-rows.jsonl" ] && cp "$DEV/slots-rows.jsonl" "$OUT/rows.jsonl"
            # the kernel compiled once before the slots start (the cache is shared)
            "$DEV/yasmin-rs" --engine=gpu examples/queens.aspif >/dev/null 2>&1
            nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader
            lscpu | grep -E "^(Model name|Socket|Thread|Core|CPU\(s\)|NUMA node)" || true
            set_args=()
            [ "$4" != all ] && set_args=(--set "$4")
            scripts/bench run --kit "$DEV" --slots --stop-after "${STOP_AFTER:-480}" --resume \
                --configs "$3" --time-limit "$2" --grace 5 "${set_args[@]}" \
                "${class_args[@]}" --out "$OUT/rows.jsonl" 2>&1 | tail -12
            shift 4 ;;
        *) echo "unknown step $1" >&2; exit 2 ;;
    esac
done
