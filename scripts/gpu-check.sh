#!/usr/bin/env bash
# Check the device engine on the GPU machine: `--engine gpu` against clingo's answers (carried as
# files) and against `--engine cpu`, both learning schemes, the three heuristics, --sync-always,
# and compute-sanitizer memcheck. Needs python3 (scripts/check-corpus.sh) and the CUDA toolkit.
#
# Usage (on the GPU machine, from the repository root):  scripts/gpu-check.sh [DIR]
#   DIR (default .device) holds: yasmin-rs (release binary built elsewhere), corpus/ (from
#   scripts/gen-corpus.sh: NNNN.aspif + NNNN.expected), bench/*.aspif + bench/expected.tsv
#   (name<TAB>SAT|UNSAT from clingo). Logs go to /tmp/gpu-check, packed into
#   $OUT/gpu-check-logs.tar.gz when $OUT is set (the device tool brings back few files). Exit 1 on
#   a mismatch.
#   BEFORE=PATH also runs that (older) binary on the benchmark instances, for before/after rates.
#   The configuration with YASMIN_NO_COOP=1 checks the fallback path (one launch per round).
#   QUICK=1 runs only the first corpus configuration and the sanitizer (no benchmark instances).
set -uo pipefail
D="${1:-.device}"
BIN="$D/yasmin-rs"
LOG=/tmp/gpu-check
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64"
mkdir -p "$LOG"
fail=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
date -u +"%Y-%m-%dT%H:%MZ"

# 1. Generated programs, all answer sets (-n 0), compared with clingo's.
configs=(
    "--learning res --heuristic activity"
    "--learning fwd --heuristic occ"
    "--learning res --heuristic jw --sync-always"
    "--learning fwd --heuristic activity"
    "--learning fwd --heuristic jw"
    "--learning res --heuristic occ"
    "NOCOOP --learning fwd --heuristic activity"
)
[ "${QUICK:-0}" = 1 ] && configs=("${configs[0]}")
for cfg in "${configs[@]}"; do
    name="corpus$(echo "$cfg" | tr -d ' -')"
    nocoop=
    case $cfg in NOCOOP*) nocoop=1; cfg=${cfg#NOCOOP } ;; esac
    # shellcheck disable=SC2086
    YASMIN_NO_COOP=$nocoop JOBS="${JOBS:-8}" TIMEOUT="${TIMEOUT:-60}" scripts/check-corpus.sh "$BIN" "$D/corpus" \
        --engine gpu $cfg > "$LOG/$name.log" 2>&1 || fail=1
    [ -z "$nocoop" ] && unset YASMIN_NO_COOP
    grep -E "^check-corpus|^mismatching" "$LOG/$name.log"
done

# 2. Benchmark instances: result (SAT/UNSAT) against clingo's and the host engine's, with stats.
printf '%-28s %-20s %-7s %-7s %7s %7s %9s %9s %10s %9s %10s %10s %8s\n' instance engine want got wall_s search_s choices conflicts props launches dev2host host2dev restarts
[ "${QUICK:-0}" = 1 ] && : > /tmp/gpu-check-none.tsv
while IFS=$'\t' read -r name want; do
    f="$D/bench/$name.aspif"
    engs=("gpu --learning res" "gpu --learning fwd" "cpu --learning res")
    [ -n "${BEFORE:-}" ] && engs+=("BEFORE gpu --learning res" "BEFORE gpu --learning fwd")
    for eng in "${engs[@]}"; do
        bin=$BIN
        case $eng in BEFORE*) bin=$BEFORE; eng=${eng#BEFORE } ;; esac
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        timeout $((${BENCH_TIMEOUT:-60} + 15)) "$bin" --time-limit "${BENCH_TIMEOUT:-60}" --engine $eng --stats -q "$f" > "$LOG/run.out" 2> "$LOG/run.err"
        rc=$?
        t1=$(date +%s.%N)
        case $rc in 10 | 30) got=SAT ;; 20) got=UNSAT ;; 1 | 124) got=TIMEOUT ;; *) got="rc$rc" ;; esac
        num() { grep -m1 "^$1" "$LOG/run.out" | sed 's/.*: *\([0-9]*\).*/\1/'; }
        search=$(grep -m1 "^Search time" "$LOG/run.out" | sed 's/.*: *\([0-9.]*\)s.*/\1/')
        tag=$eng; [ "$bin" != "$BIN" ] && tag="before $eng"
        printf '%-28s %-20s %-7s %-7s %7.2f %7s %9s %9s %10s %9s %10s %10s %8s\n' "$name" "$tag" "$want" "$got" \
            "$(awk "BEGIN{print $t1 - $t0}")" "${search:--}" "$(num Choices)" "$(num Conflicts)" "$(num Propagations)" \
            "$(num 'Kernel calls')" "$(num 'Device->Host')" "$(num 'Host->Device')" "$(num Restarts)"
        if [ "$got" != "$want" ] && [ "$got" != TIMEOUT ]; then
            fail=1
            echo "MISMATCH $name $eng: want $want got $got"; tail -5 "$LOG/run.err"
        fi
        cp "$LOG/run.out" "$LOG/bench-$name-$(echo "$tag" | tr -d ' -').out"
    done
done < "$([ "${QUICK:-0}" = 1 ] && echo /tmp/gpu-check-none.tsv || echo "$D/bench/expected.tsv")"

# 3. compute-sanitizer memcheck on two small programs (all answer sets), both learning schemes.
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for f in $(ls "$D"/corpus/*.aspif | head -2); do
    for l in res fwd; do
        "$SAN" --tool memcheck --error-exitcode 99 "$BIN" --engine gpu --learning $l -n 0 -q "$f" \
            > "$LOG/memcheck.log" 2>&1
        rc=$?
        echo "memcheck $(basename "$f") $l: rc $rc $(grep -m1 'ERROR SUMMARY' "$LOG/memcheck.log")"
        [ $rc = 99 ] && { fail=1; grep -m5 -A5 "=========" "$LOG/memcheck.log"; }
    done
done
[ -n "${OUT:-}" ] && tar czf "$OUT/gpu-check-logs.tar.gz" -C "$LOG" .
echo "gpu-check: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
