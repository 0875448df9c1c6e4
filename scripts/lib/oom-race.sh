#!/usr/bin/env bash
# Several GPU-engine runs started together on one GPU, each sizing its searches to the device
# memory it finds free: those that lose the race for memory must halve their searches (or end
# with the documented out-of-memory error, exit 33), never crash or answer wrongly. On the GPU
# machine; one line per run (exit code, searches, result) and a summary; exit status 1 when a
# run ends otherwise than with the instance's answer, exit 1 (stopped by the limit) or 33.
#
# Usage: KIT=.device/kit RUNS=12 LIMIT=15 bash scripts/lib/oom-race.sh FILE.aspif.xz EXPECTED
# (EXPECTED: SATISFIABLE or UNSATISFIABLE, the instance's answer).
set -uo pipefail
KIT=${KIT:-.device/kit}
BIN=${BIN:-$KIT/yasmin-rs}
RUNS=${RUNS:-12}
LIMIT=${LIMIT:-15}
file="${1:?ground file}" expected="${2:?expected answer}"
work=$(mktemp -d)
xz -dc "$file" > "$work/in.aspif"
"$BIN" examples/queens.aspif --engine=gpu -q > /dev/null 2>&1 # compile the kernels once
for i in $(seq "$RUNS"); do
    "$BIN" "$work/in.aspif" --engine=gpu --stats -q --time-limit="$LIMIT" > "$work/o$i" 2>&1 &
    echo $! > "$work/p$i"
done
bad=0 halved=0
for i in $(seq "$RUNS"); do
    wait "$(cat "$work/p$i")"
    rc=$?
    searches=$(grep -E '^GPU searches' "$work/o$i" | head -1 | grep -oE '[0-9]+' | head -1)
    result=$(grep -E '^(SATISFIABLE|UNSATISFIABLE|UNKNOWN)$' "$work/o$i" | head -1)
    err=$(grep -v '^\*\*\* Info' "$work/o$i" | grep -E 'ERROR|Warn' | head -1)
    echo "run $i: rc $rc, searches ${searches:--}, ${result:-no result} ${err}"
    case "$rc:$result" in
        10:SATISFIABLE | 20:UNSATISFIABLE) [ "$result" = "$expected" ] || bad=1 ;;
        1:* | 33:*) ;;
        *) bad=1 ;;
    esac
done
echo "oom-race: $RUNS runs, $([ $bad = 0 ] && echo 'every run answered right or stopped as documented' || echo 'FAILED')"
exit $bad
