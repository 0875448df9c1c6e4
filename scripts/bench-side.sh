#!/usr/bin/env bash
# Side-by-side comparison of two yasmin-rs binaries on the instances of a list (host engine by
# default; ENGINE=gpu on the GPU machine, one process at a time).
#
# usage: scripts/bench-side.sh BASE_BIN NEW_BIN LIST.tsv [LIMIT_S] [LEARNINGS] [FILTER]
#   LIST.tsv   benchmarks/list-host.tsv format (columns ground, tight, expected by header name);
#              ground files are read from $CACHE (default /work/main/benchmarks/cache); a
#              missing FILE is read from FILE.xz (the kit of scripts/bench-prepare.sh)
#   LIMIT_S    --time-limit for each run (default 20)
#   LEARNINGS  comma-separated --learning values (default res,fwd)
#   FILTER     awk condition on the named columns, e.g. 'tight=="no"' (default: all rows)
# Each instance runs with BASE then NEW right after (same load), so times are comparable
# only within a row. Prints one markdown table row per instance and learning scheme:
# answer (! when it contradicts `expected`), wall seconds, conflicts, choices, propagations/s.
#   ENGINE     --engine value (default cpu)
set -euo pipefail
base=$1 new=$2 list=$3 limit=${4:-20} learnings=${5:-res,fwd} filter=${6:-1}
cache=${CACHE:-/work/main/benchmarks/cache}
engine=${ENGINE:-cpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run: prints "answer seconds conflicts choices props/s".
run() {
    local bin=$1 learning=$2 file=$3 out rc t0 t1 ans
    t0=$(date +%s.%N)
    set +e
    out=$(timeout $((limit + 10)) "$bin" --engine "$engine" --learning "$learning" \
        --time-limit "$limit" --stats -q "$file" 2>&1)
    rc=$?
    set -e
    t1=$(date +%s.%N)
    case $rc in
        10 | 30) ans=SAT ;;
        20) ans=UNSAT ;;
        *) ans=UNKNOWN ;;
    esac
    local confl choices pps
    confl=$(sed -n 's/^Conflicts *: *\([0-9]*\).*/\1/p' <<<"$out" | head -1)
    choices=$(sed -n 's/^Choices *: *\([0-9]*\).*/\1/p' <<<"$out" | head -1)
    pps=$(sed -n 's/^Propagations *: *[0-9]* *(Per second: \([0-9]*\).*/\1/p' <<<"$out" | head -1)
    printf '%s %.2f %s %s %s\n' "$ans" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "${confl:--}" "${choices:--}" "${pps:--}"
}

mark() { # answer expected
    if [[ $1 != UNKNOWN && $1 != "$2" ]]; then echo "$1!"; else echo "$1"; fi
}

echo "| instance | learning | expected | base answer | base s | base conflicts | base choices | base props/s | new answer | new s | new conflicts | new choices | new props/s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { for (k in col) v[k] = $col[k]; tight = v["tight"]; expected = v["expected"] }
    '"$filter"' { print v["ground"], v["expected"] }' "$list" |
    while IFS=$'\t' read -r ground expected; do
        name=${ground%.aspif}
        file=$cache/$ground
        if [[ ! -e $file && -e $file.xz ]]; then
            xz -dc "$file.xz" > "$tmp/g.aspif"
            file=$tmp/g.aspif
        fi
        for learning in ${learnings//,/ }; do
            read -r ba bs bc bd bp < <(run "$base" "$learning" "$file")
            read -r na ns nc nd np < <(run "$new" "$learning" "$file")
            echo "| $name | $learning | $expected | $(mark "$ba" "$expected") | $bs | $bc | $bd | $bp | $(mark "$na" "$expected") | $ns | $nc | $nd | $np |"
        done
    done
