#!/usr/bin/env bash
# The GPU machine's checks and benchmarks of the device engine, in one command per call (that
# machine has no Rust, gringo or network). Carry `.device` (see KIT below); results go to $OUT.
#
# Usage (on the GPU machine, repository root):  bash scripts/gpu-bench.sh STEP...
#   ground            install clingo from KIT/whl and ground every instance of LIST into $GROUND
#   smoke             the examples with both learning schemes against their known model counts,
#                     and compute-sanitizer memcheck and racecheck on two of them
#   run LIMIT CONFIGS CHUNK
#                     scripts/bench-run.py over LIST with CONFIGS (comma list, bench-run.py's
#                     syntax); `gpu:*`, `auto:*` and `clingo-tN` run one at a time (they use
#                     the GPU or every core), the others 14 at a time
#                     (chunks of the list); CHUNK i/n gives every run every n-th instance
#                     (after the filters), `all` every one; rows go to $OUT/rows.jsonl
# Environment: SANITIZE=0 skips the sanitizers of `smoke`; KIT (default .device: yasmin-rs, whl/, bench/ = a copy of ../shared/benchmarks),
#   LIST (default benchmarks/list.tsv), GROUND (default /tmp/ground), CLASSES and INSTANCES
#   (optional filters, bench-run.py's --classes and --instances), GRACE (seconds past the limit
#   before a run is killed, default 5).
set -uo pipefail
KIT="${KIT:-.device}"
LIST="${LIST:-benchmarks/list.tsv}"
GROUND="${GROUND:-/tmp/ground}"
OUT="${OUT:-/tmp/out}"
BIN="$KIT/yasmin-rs"
# Configurations that use the GPU or every core run one at a time.
SEQ='^(gpu|auto|clingo-t)|parallel-mode'
mkdir -p "$OUT" "$GROUND"

clingo_env() {
    if [ ! -d /tmp/site/clingo ]; then
        python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
            --target /tmp/site "$KIT"/whl/*.whl || exit 2
    fi
    export PYTHONPATH=/tmp/site
}

step_ground() {
    clingo_env
    tail -n +2 "$LIST" | while IFS=$'\t' read -r cls inst ground _; do
        echo "$cls $inst $ground"
    done | xargs -P 16 -n 3 sh -c '
        out="$0/$3"; [ -s "$out" ] && exit 0; mkdir -p "$(dirname "$out")"
        timeout 300 python3 -m clingo --mode=gringo "'"$KIT"'/bench/$1/encoding.lp" "'"$KIT"'/bench/$2" > "$out.tmp" 2>/dev/null && mv "$out.tmp" "$out" || echo "ground failed: $2"
    ' "$GROUND"
    echo "grounded: $(find "$GROUND" -name '*.aspif' | wc -l) files"
}

step_smoke() {
    local fails=0
    for spec in queens:4 hamiltonian:4 coloring:18; do
        f=${spec%%:*}; want=${spec##*:}
        for l in res fwd; do
            for n in 1 7 200; do
                got=$("$BIN" "examples/$f.aspif" -n 0 -q --engine=gpu --learning=$l --gpu-searches=$n 2>&1 | awk '/^Models/ {print $3}')
                [ "$got" = "$want" ] || { echo "SMOKE FAIL $f $l searches=$n: $got models, want $want"; fails=$((fails+1)); }
            done
        done
    done
    # The whole machine (GPU + host threads) and the host threads alone.
    for spec in queens:4 hamiltonian:4 coloring:18; do
        f=${spec%%:*}; want=${spec##*:}
        for args in "--engine=auto" "--engine=auto -t 3" "--engine=cpu -t 16" "--engine=auto --learning=fwd"; do
            got=$("$BIN" "examples/$f.aspif" -n 0 -q $args 2>&1 | awk '/^Models/ {print $3}')
            [ "$got" = "$want" ] || { echo "SMOKE FAIL $f $args: $got models, want $want"; fails=$((fails+1)); }
        done
    done
    "$BIN" examples/queens.aspif -n 1 --engine=gpu --stats 2>&1 | tail -22
    "$BIN" examples/queens.aspif -n 1 --stats 2>&1 | grep -E "Portfolio|GPU searches|Conflicts" 
    if [ "${SANITIZE:-1}" = 0 ]; then
        echo "sanitizers skipped (SANITIZE=0)"
    elif command -v compute-sanitizer >/dev/null; then
        for t in memcheck racecheck; do
            for f in queens hamiltonian; do
                compute-sanitizer --tool $t --error-exitcode 9 "$BIN" "examples/$f.aspif" -n 0 -q --engine=gpu --gpu-searches=8 > /tmp/san.txt 2>&1
                echo "sanitizer $t $f: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.txt | head -1)"
                { echo "== $t $f"; head -80 /tmp/san.txt; } >> "$OUT/sanitizer.txt"
            done
        done
    else
        echo "compute-sanitizer not found"
    fi
    echo "smoke failures: $fails"
}

step_run() {
    local limit=$1 configs=$2 chunk=$3
    clingo_env
    local extra=() gchunk=()
    [ -n "${CLASSES:-}" ] && extra+=(--classes "$CLASSES")
    [ -n "${INSTANCES:-}" ] && extra+=(--instances "$INSTANCES")
    [ "$chunk" != all ] && gchunk+=(--chunk "$chunk")
    local gpu cpu
    # The GPU's runs, the whole machine's (auto) and parallel clingo's one at a time.
    gpu=$(tr ',' '\n' <<<"$configs" | grep -E "$SEQ" | paste -sd,)
    cpu=$(tr ',' '\n' <<<"$configs" | grep -vE "$SEQ" | paste -sd,)
    local pids=() sub=/tmp/list-chunk.tsv
    # The host runs take the same instances as this call's GPU runs: the chunk's sub-list
    # (bench-run.py's selection: filters first, then every n-th), 14 runs at a time.
    python3 - "$LIST" "$sub" "${CLASSES:-}" "${INSTANCES:-}" "$chunk" <<'PY'
import sys
src, dst, classes, insts, chunk = sys.argv[1:]
lines = open(src).read().splitlines()
head, rows = lines[0], [l for l in lines[1:] if l.strip()]
cols = head.split("\t")
get = lambda l, c: l.split("\t")[cols.index(c)]
if classes:
    rows = [l for l in rows if get(l, "class") in classes.split(",")]
if insts:
    rows = [l for l in rows if any(s in get(l, "instance") for s in insts.split(","))]
if chunk != "all":
    i, n = (int(x) for x in chunk.split("/"))
    rows = rows[i - 1::n]
open(dst, "w").write("\n".join([head] + rows) + "\n")
PY
    if [ -n "$cpu" ]; then
        for i in $(seq 1 14); do
            python3 scripts/bench-run.py --bin "$BIN" --ground-dir "$GROUND" --list "$sub" \
                --configs "$cpu" --clingo 'python3 -m clingo' --time-limit "$limit" --grace "${GRACE:-5}" \
                --chunk "$i/14" --out "$OUT/rows-cpu-$i.jsonl" > "$OUT/log-cpu-$i.txt" 2>&1 &
            pids+=($!)
        done
    fi
    if [ -n "$gpu" ]; then
        python3 scripts/bench-run.py --bin "$BIN" --ground-dir "$GROUND" --list "$LIST" \
            --configs "$gpu" --clingo 'python3 -m clingo' --time-limit "$limit" --grace "${GRACE:-5}" "${extra[@]}" "${gchunk[@]}" \
            --out "$OUT/rows-gpu.jsonl" > "$OUT/log-gpu.txt" 2>&1
        echo "gpu runs: exit $?"
    fi
    for p in "${pids[@]}"; do wait "$p"; done
    cat "$OUT"/rows-*.jsonl >> "$OUT/rows.jsonl" 2>/dev/null
    cat "$OUT"/log-cpu-*.txt > "$OUT/log-cpu.txt" 2>/dev/null
    rm -f "$OUT"/rows-cpu-*.jsonl "$OUT"/rows-gpu.jsonl "$OUT"/log-cpu-*.txt
    python3 - "$OUT/rows.jsonl" <<'PY'
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = collections.defaultdict(lambda: collections.Counter())
for r in rows:
    c = r.get("config", "?")
    by[c][r.get("verdict", "?")] += 1
for c, v in sorted(by.items()):
    print(f"{c:40s} " + " ".join(f"{k}={n}" for k, n in sorted(v.items())))
PY
}

while [ $# -gt 0 ]; do
    case "$1" in
        ground) step_ground; shift ;;
        smoke) step_smoke; shift ;;
        run) step_run "$2" "$3" "$4"; shift 4 ;;
        *) echo "unknown step $1" >&2; exit 2 ;;
    esac
done
