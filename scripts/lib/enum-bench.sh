#!/usr/bin/env bash
# The enumeration benchmark (issue 52): every program of benchmarks/enumeration/ with -n 0,
# one thread, clingo and yasmin-rs one after the other on the same machine, REPEAT times each
# (the fastest counts): answer sets, seconds (the run's own `Time` line), answer sets a second,
# and yasmin-rs's time over clingo's. Quiet (-q: counting) by default; PRINT=1 prints every
# answer set to /dev/null instead. yasmin-rs runs with each of MODES (default: its default
# `auto`, which enumerates by backtracking; the same with `+noverify`: --verify=false, without
# the independent check of every answer set; and `record`, a blocking nogood per model).
#
# Usage: REPEAT=3 bash scripts/lib/enum-bench.sh [BIN] (from the repository root; BIN defaults to
# target/release/yasmin-rs; clingo from PATH or CLINGO). The counts must agree, else FAIL.
set -uo pipefail
BIN=${1:-target/release/yasmin-rs}
CLINGO=${CLINGO:-clingo}
REPEAT=${REPEAT:-3}
MODES=${MODES:-"auto auto+noverify record"}
DIR=benchmarks/enumeration
q="-q"; [ "${PRINT:-0}" = 1 ] && q=""
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
best() { # best TIME-LINES: the smallest `Time` of the runs
    sort -g | head -1
}
run() { # run OUT CMD...: the fastest of REPEAT runs' `Time` seconds; models in OUT.models
    local out=$1; shift
    for _ in $(seq "$REPEAT"); do
        "$@" > "$out" 2> /dev/null
        awk '/^Time/ { print $3 }' "$out" | tr -d s
    done | best
    awk '/^Models/ { print $3 }' "$out" | tr -d + > "$out.models"
}
header="| program | answer sets | clingo s | clingo /s |"
rule="|---|---:|---:|---:|"
for m in $MODES; do header="$header $m s | $m /s | $m ÷ clingo |"; rule="$rule---:|---:|---:|"; done
echo "$header"; echo "$rule"
fail=0
for f in "$DIR"/*.lp; do
    name=$(basename "$f" .lp)
    extra=(); [ "$name" = project ] && extra=(--project)
    gringo "$f" > "$work/$name.aspif" 2> /dev/null
    ct=$(run "$work/c" "$CLINGO" "$f" -n 0 $q "${extra[@]}" --mode=clingo)
    cm=$(cat "$work/c.models")
    row="| $name | $cm | $ct | $(awk -v n="$cm" -v t="$ct" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }') |"
    for m in $MODES; do
        verify=true; [ "${m#*+}" = noverify ] && verify=false
        yt=$(run "$work/y" "$BIN" "$work/$name.aspif" -n 0 $q "${extra[@]}" --engine=cpu -t 1 \
            --enum-mode="${m%+*}" --verify=$verify)
        ym=$(cat "$work/y.models")
        [ "$ym" = "$cm" ] || { fail=1; row="$row FAIL ($ym answer sets) |"; }
        row="$row $yt | $(awk -v n="$ym" -v t="$yt" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }') | $(awk -v a="$yt" -v b="$ct" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }') |"
    done
    echo "$row"
done
exit $fail
