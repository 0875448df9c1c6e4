#!/usr/bin/env bash
# Where step_k's time goes: the cooperative step_k fuses the decision (rank every rule) and the
# propagation rounds; with YASMIN_NO_COOP=1 the engine launches decide_rank_k and prop_round_k
# separately, and YASMIN_PROFILE=1 then times each. Runs both modes on a few instances.
#
# Usage (GPU machine, kit of scripts/bench-prepare.sh carried): bash scripts/gpu-split.sh KIT
#   SPLIT (default: visitall 0032, sokoban 0407, graphcol 0006, labyrinth 0064), LIMIT (4) s,
#   LEARNING (res). Writes $OUT/split.txt (the profile tables and the rates of each run).
set -uo pipefail
KIT="${1:?kit folder}"
LIMIT="${LIMIT:-4}"
O="${OUT:-/tmp/out}/split.txt"
export YASMIN_KERNEL_CACHE=/tmp/kcache
mkdir -p /tmp/split
: > "$O"
for g in ${SPLIT:-visitall/0032-visitall-39-1 sokoban/0407-sokoban-63-1 graphcol/0006-graph_colouring-125-0 labyrinth/0064}; do
    f=/tmp/split/$(basename "$g").aspif
    xz -dc "$KIT/ground/$g.aspif.xz" > "$f" || continue
    for mode in coop split; do
        echo "== $g ${LEARNING:-res} $mode" >> "$O"
        if [ $mode = split ]; then export YASMIN_NO_COOP=1; else unset YASMIN_NO_COOP; fi
        YASMIN_PROFILE=1 "$KIT/yasmin-rs" --engine gpu --learning "${LEARNING:-res}" \
            --time-limit "$LIMIT" --stats -q "$f" 2>&1 |
            grep -E -A16 '^profile|^(Choices|Conflicts|Propagations|Kernel calls) ' >> "$O"
    done
done
unset YASMIN_NO_COOP
cat "$O"
