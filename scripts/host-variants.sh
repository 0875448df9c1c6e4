#!/usr/bin/env bash
# Host-engine variants side by side in one run: every instance of a list under every variant,
# JOBS processes at a time, each answer checked against the list's `expected`.
#
# Usage (on the GPU machine's 16 cores, or anywhere with a kit from scripts/bench-prepare.sh):
#   LIMIT=100 JOBS=15 bash scripts/host-variants.sh KIT OUTDIR LIST.tsv 'NAME|ENV=V ...|ARGS' ...
# A variant is NAME, then environment assignments (or '-'), then yasmin-rs arguments, split by
# '|', e.g. 'fwd|-|--learning=fwd' or 'mixed|YASMIN_FWD_MIXED=1|--learning=fwd'.
# Writes OUTDIR/rows.tsv (variant, instance, expected, answer, seconds, conflicts, choices,
# verdict) and prints solved counts per variant. Exit status 1 if any answer is WRONG.
set -uo pipefail
KIT="${1:?kit}"; OUTDIR="${2:?out}"; LIST="${3:?list}"; shift 3
LIMIT="${LIMIT:-100}"; JOBS="${JOBS:-15}"
mkdir -p "$OUTDIR"
tasks="$OUTDIR/tasks.txt"; : > "$tasks"
for v in "$@"; do
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print $c["ground"] "\t" $c["expected"] }' "$LIST" |
        while IFS=$'\t' read -r g e; do printf '%s\t%s\t%s\n' "$v" "$g" "$e" >> "$tasks"; done
done
one() { # variant ground expected
    local name envs args f t0 t1 out rc ans verdict
    IFS='|' read -r name envs args <<<"$1"
    [ "$envs" = "-" ] && envs=""
    f="$KIT/ground/$2"
    if [ ! -f "$f" ]; then # the kit keeps ground files xz-compressed
        f=$(mktemp /tmp/hv-XXXXXX.aspif)
        xz -dc "$KIT/ground/$2.xz" > "$f"
    fi
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    out=$(env $envs timeout $((LIMIT + 15)) "$KIT/yasmin-rs" --engine=cpu -q --stats \
        --time-limit "$LIMIT" $args "$f" 2>&1)
    rc=$?
    t1=$(date +%s.%N)
    case $f in /tmp/hv-*) rm -f "$f" ;; esac
    case $rc in 10 | 30) ans=SAT ;; 20) ans=UNSAT ;; 1) ans=UNKNOWN ;; *) ans="ERROR($rc)" ;; esac
    verdict=ok
    case $ans in UNKNOWN) verdict=unknown ;; SAT | UNSAT) [ "$ans" = "$3" ] || verdict=WRONG ;; *) verdict=ERROR ;; esac
    printf '%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\n' "$name" "$2" "$3" "$ans" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
        "$(sed -n 's/^Conflicts *: *\([0-9]*\).*/\1/p' <<<"$out" | head -1)" \
        "$(sed -n 's/^Choices *: *\([0-9]*\).*/\1/p' <<<"$out" | head -1)" "$verdict"
}
export -f one
export KIT LIMIT
tr '\n' '\0' < "$tasks" | xargs -0 -P "$JOBS" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r v g e <<<"$1"; one "$v" "$g" "$e"' _ {} > "$OUTDIR/rows.tsv"
sort -o "$OUTDIR/rows.tsv" "$OUTDIR/rows.tsv"
awk -F'\t' '{ n[$1]++; if ($8 == "ok") s[$1]++; if ($8 == "WRONG" || $8 == "ERROR") w[$1]++ }
    END { for (k in n) printf "%s: %d of %d solved, %d WRONG/ERROR\n", k, s[k], n[k], w[k] }' \
    "$OUTDIR/rows.tsv" | sort | tee "$OUTDIR/summary.txt"
! grep -qP '\t(WRONG|ERROR)$' "$OUTDIR/rows.tsv"
