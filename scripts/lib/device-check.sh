# Sourced by the device check scripts (split-check.sh, ufs-check.sh, minimise-check.sh) after
# they set ROWS (their rows file): KIT (default .device/kit), BIN (its yasmin-rs), O (the rows'
# folder, made), the kernel cache, fail=0; compute-sanitizer over runs of the GPU engine;
# this binary beside an earlier one; and the kit's generated corpus unpacked.
#
#   sanitize LOG "ARGS" RUN...   memcheck, then racecheck, of "$BIN RUN --engine=gpu ARGS" for
#                                each RUN (a string of arguments); a line per run on stdout
#                                (exit code, the tool's summary, the result and Models/Cubes
#                                lines), the first 20,000 bytes of each output appended to LOG;
#                                sets fail=1 when a tool reports an error (exit 9).
sanitize() {
    local log="$1" args="$2" san tool run code out
    shift 2
    san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    out="$(dirname "$log")/san.log"
    for tool in memcheck racecheck; do
        for run in "$@"; do
            # shellcheck disable=SC2086
            "$san" --tool "$tool" --error-exitcode 9 "$BIN" $run --engine=gpu $args \
                > "$out" 2>&1
            code=$?
            [ "$code" -eq 9 ] && fail=1
            echo "sanitizer $tool $run: exit $code $(grep -m1 SUMMARY "$out")" \
                "$(grep -m1 -E '^(SATISFIABLE|UNSATISFIABLE|UNKNOWN|OPTIMUM)' "$out")" \
                "$(grep -m1 -E '^Models' "$out" | tr -s ' ')" \
                "$(grep -m1 Cubes "$out" | tr -s ' ')"
            head -c 20000 "$out" >> "$log"
        done
    done
    rm -f "$out"
}

#   beside CLASSES LIMIT STOP_AFTER LABEL
#                                BIN (`gpu:default`) and $BEFORE (`gpu-before`, an earlier
#                                binary) side by side on CLASSES of the kit, the GPU engine alone
#                                one run at a time, LIMIT s each, no run started after
#                                STOP_AFTER s, rows appended to ROWS; both kernels are compiled
#                                into the cache first (the first run would wait for NVRTC).
beside() {
    local b
    for b in "$BIN" "$BEFORE"; do
        "$b" examples/queens.aspif --engine=gpu -q > /dev/null 2>&1
    done
    scripts/bench run --kit "$KIT" --time-limit "$2" --parallel 1 \
        --configs "gpu:default,yasmin:gpu-before:bin=$BEFORE --engine=gpu" --classes "$1" \
        --stop-after "$3" -q --label "$4" --out "$ROWS" | tail -4 || fail=1
}

#   corpus_unpacked              the kit's corpus (KIT/corpus.tar.xz) in /tmp/corpus, unpacked
#                                once per machine
corpus_unpacked() {
    mkdir -p /tmp/corpus
    [ -f /tmp/corpus/index.tsv ] || xz -dc "$KIT/corpus.tar.xz" | tar xf - -C /tmp/corpus
}

KIT="${KIT:-.device/kit}"
BIN="$KIT/yasmin-rs"
O="$(dirname "$ROWS")"
mkdir -p "$O"
export YASMIN_KERNEL_CACHE=/tmp/kcache
fail=0
