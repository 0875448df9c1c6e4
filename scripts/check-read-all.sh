#!/usr/bin/env bash
# Ground every instance of the shared benchmark set with gringo in both formats (aspif and
# smodels) into benchmarks/cache/<class>/<instance>.{aspif,smodels}, then read each file with the
# lparse reader (lparse/examples/read_bench.rs --check). Exits non-zero if any grounding or read
# fails.
#
# Invariant: a file in the cache is always complete — gringo writes to a temporary name that is
# renamed only when gringo succeeded — so a cached file is never re-ground and never half-written.
#
# Usage: scripts/check-read-all.sh [--ground-only | --read-only]
#   BENCH_DIR   the shared benchmarks root holding MANIFEST.tsv (default /work/shared/benchmarks)
#   JOBS        parallel gringo runs (default 2: the largest take minutes and GBs of memory)
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH_DIR="${BENCH_DIR:-/work/shared/benchmarks}"
CACHE="$ROOT/benchmarks/cache"
JOBS="${JOBS:-2}"
MODE="${1:-all}"
MANIFEST="$BENCH_DIR/MANIFEST.tsv"
[ -f "$MANIFEST" ] || { echo "check-read-all: no manifest at $MANIFEST" >&2; exit 2; }
command -v gringo >/dev/null || { echo "check-read-all: gringo not found" >&2; exit 2; }

# One line per (class, instance path relative to BENCH_DIR's parent, as the manifest writes it).
list_instances() {
    awk -F'\t' 'NR > 1 { print $1 "\t" $2 }' "$MANIFEST"
}

# ground CLASS INSTANCE FORMAT: make $CACHE/CLASS/<base>.FORMAT unless it is there already.
ground() {
    local class="$1" inst="$2" fmt="$3"
    local src="$BENCH_DIR/${inst#benchmarks/}"
    local out="$CACHE/$class/$(basename "$src" .lp).$fmt"
    [ -s "$out" ] && return 0
    mkdir -p "$CACHE/$class"
    local flag=()
    [ "$fmt" = smodels ] && flag=(--output=smodels)
    local t0=$SECONDS
    if nice gringo "${flag[@]}" "$BENCH_DIR/$class/encoding.lp" "$src" >"$out.tmp.$$" 2>"$out.err.$$"; then
        mv "$out.tmp.$$" "$out" && rm -f "$out.err.$$"
        echo "grounded $class/$(basename "$out") in $((SECONDS - t0))s"
    else
        echo "GROUND FAILED $class/$(basename "$out"): $(tail -3 "$out.err.$$")" >&2
        rm -f "$out.tmp.$$"
        return 1
    fi
}
export -f ground
export BENCH_DIR CACHE

status=0
if [ "$MODE" != --read-only ]; then
    list_instances | while IFS=$'\t' read -r class inst; do
        printf '%s\0%s\0%s\0' "$class" "$inst" aspif "$class" "$inst" smodels
    done | xargs -0 -n 3 -P "$JOBS" bash -c 'ground "$@"' _ \
        || status=1
fi
[ "$MODE" = --ground-only ] && exit $status

# Read every cached file with the reader (release build: the largest files are ~110 MB).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
nice cargo build -q --release -p lparse --example read_bench --manifest-path "$ROOT/Cargo.toml" || exit 2
BIN="$CARGO_TARGET_DIR/release/examples/read_bench"
total=0
failed=0
while IFS=$'\t' read -r class inst; do
    base="$(basename "$inst" .lp)"
    for fmt in aspif smodels; do
        f="$CACHE/$class/$base.$fmt"
        total=$((total + 1))
        if [ ! -s "$f" ]; then
            echo "MISSING $f" >&2
            failed=$((failed + 1))
        elif ! out="$(nice "$BIN" --check "$f" 2>&1)"; then
            echo "READ FAILED $f: $out" >&2
            failed=$((failed + 1))
        else
            echo "ok $class/$base.$fmt: $out"
        fi
    done
done < <(list_instances)
echo "check-read-all: $((total - failed))/$total files read"
[ $failed -eq 0 ] && [ $status -eq 0 ]
