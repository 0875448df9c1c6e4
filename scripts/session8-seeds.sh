#!/usr/bin/env bash
# Session 8 (GPU machine's CPUs, repository root, .device/kit carried): both schemes' defaults
# over seeds on the instances where fwd is slowest, one process per run, 16 at once, LIMIT
# (default 150) s each. Prints "scheme seed instance answer seconds conflicts" lines.
set -uo pipefail
K=.device/kit
LIMIT=${LIMIT:-150}
INSTS=${INSTS:-"sokoban/0308-sokoban-73-1 labyrinth/0175 knighttour/0117"}
SEEDS=${SEEDS:-"1 2 3 4"}
mkdir -p /tmp/g
for i in $INSTS; do
    mkdir -p /tmp/g/$(dirname $i)
    [ -f /tmp/g/$i.aspif ] || xz -dc $K/ground/$i.aspif.xz > /tmp/g/$i.aspif
done
one() {
    local s e out
    s=$(date +%s.%N)
    out=$(timeout $(($4 + 10)) $K/yasmin-rs --engine=cpu -q --stats --time-limit=$4 \
        --seed=$2 --learning=$1 /tmp/g/$3.aspif 2>/dev/null)
    e=$(date +%s.%N)
    printf "%s\t%s\t%s\t%s\t%.1f\t%s\n" "$1" "$2" "$3" \
        "$(echo "$out" | grep -E '^(SATISFIABLE|UNSATISFIABLE|UNKNOWN)' | head -1)" \
        "$(awk "BEGIN{print $e-$s}")" "$(echo "$out" | awk '/^Conflicts/{print $3; exit}')"
}
export -f one
export K
for i in $INSTS; do for s in $SEEDS; do for l in res fwd; do echo "$l $s $i $LIMIT"; done; done; done |
    xargs -P 16 -L1 bash -c 'one "$@"' _ | sort
