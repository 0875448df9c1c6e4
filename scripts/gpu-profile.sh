#!/usr/bin/env bash
# Where the device engine's time goes, and what its start-up costs — on the GPU machine, one call.
#
# Usage (repository root on the GPU machine):  scripts/gpu-profile.sh DIR
#   DIR holds yasmin-rs (release binary built elsewhere) and ground/NAME.aspif[.xz]; the first
#   instance in alphabetical order whose name starts with "tiny" is the start-up probe.
#   PROFILE="NAME:LEARNING ..." picks the timed runs (default: every instance but the probe, res
#   and fwd); LIMIT (default 6) is the --time-limit of each run.
# Writes $OUT/profile/: env.txt, startup.txt (cold NVRTC compile vs cached CUBIN vs host engine),
# plain-NAME-L.txt (--stats: the rates, device memory), timed-NAME-L.txt (the same run with
# YASMIN_PROFILE=1: per kernel launches, issue and run time; read-backs; host work) and, with
# NCU=NAME:LEARNING, ncu-NAME-L.txt (Nsight Compute on five step_k launches); all packed into
# $OUT/profile.tar.gz (the device tool brings back few files), the summary on stdout.
set -uo pipefail
D="${1:?folder with yasmin-rs and ground/}"
O="${OUT:-/tmp/out}/profile"
LIMIT="${LIMIT:-6}"
BIN="$D/yasmin-rs"
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p "$O" /tmp/prof
for f in "$D"/ground/*.xz; do [ -e "$f" ] && xz -dc "$f" > "/tmp/prof/$(basename "${f%.xz}")"; done
for f in "$D"/ground/*.aspif; do [ -e "$f" ] && cp "$f" /tmp/prof/; done
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    echo "cpus: $(nproc)"
    command -v ncu compute-sanitizer
} > "$O/env.txt" 2>&1
now() { date +%s.%N; }

# 1. Start-up on the probe: NVRTC each time (cache off), first run with an empty cache, runs
# with the cached CUBIN, and the host engine for reference (whole process wall time).
probe=$(ls /tmp/prof/tiny*.aspif | head -1)
{
    echo "probe: $(basename "$probe")"
    for mode in off off cold warm warm warm cpu cpu; do
        case $mode in
            off) c=off ;; cold) rm -rf /tmp/kcache; c=/tmp/kcache ;; *) c=/tmp/kcache ;;
        esac
        eng=gpu; [ $mode = cpu ] && eng=cpu
        t0=$(now)
        YASMIN_KERNEL_CACHE=$c "$BIN" --engine $eng --stats -q "$probe" > /tmp/prof/s.out 2>&1
        rc=$?
        t1=$(now)
        printf '%-5s rc=%s wall=%ss | %s\n' $mode $rc "$(awk "BEGIN{print $t1 - $t0}")" \
            "$(grep -E '^(Kernel image|Device memory)' /tmp/prof/s.out | tr '\n' ' ')"
    done
} > "$O/startup.txt" 2>&1

# 2. Each instance: a plain run (rates, memory), then the same with YASMIN_PROFILE=1 (every
# launch synchronised and timed: kernel run time, issue time, read-backs, host work).
runs=${PROFILE:-}
if [ -z "$runs" ]; then
    for f in /tmp/prof/*.aspif; do
        n=$(basename "${f%.aspif}")
        case $n in tiny*) continue ;; esac
        runs="$runs $n:res $n:fwd"
    done
fi
export YASMIN_KERNEL_CACHE=/tmp/kcache
for r in $runs; do
    n=${r%%:*} l=${r#*:}
    f=/tmp/prof/$n.aspif
    "$BIN" --engine gpu --learning "$l" --time-limit "$LIMIT" --stats -q "$f" > "$O/plain-$n-$l.txt" 2>&1
    YASMIN_PROFILE=1 "$BIN" --engine gpu --learning "$l" --time-limit "$LIMIT" --stats -q "$f" \
        > "$O/timed-$n-$l.txt" 2>&1
done

# 3. Nsight Compute on a few step_k launches of the first run (occupancy, throughput).
if [ -n "${NCU:-}" ] && command -v ncu > /dev/null; then
    n=${NCU%%:*} l=${NCU#*:}
    timeout 300 ncu --kernel-name step_k --launch-skip 100 --launch-count 5 \
        --section SpeedOfLight --section Occupancy --section LaunchStats \
        "$BIN" --engine gpu --learning "$l" --time-limit 3 -q "/tmp/prof/$n.aspif" > "$O/ncu-$n-$l.txt" 2>&1
fi
tar czf "${OUT:-/tmp/out}/profile.tar.gz" -C "$(dirname "$O")" profile
cat "$O/env.txt" "$O/startup.txt"
for f in "$O"/timed-*.txt; do echo "== $(basename "$f")"; grep -A14 '^profile' "$f"; grep -E '^(Choices|Propagations|Device memory)' "$O/plain-${f##*/timed-}"; done
