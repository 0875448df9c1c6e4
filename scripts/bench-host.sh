#!/usr/bin/env bash
# Host-engine benchmark (issue 3, acceptance 3 and 4): every instance of benchmarks/list-host.tsv
# (no minimize, no disjunction, clingo under 10 s in the MANIFEST) solved by clingo and by the
# release binary with `--engine cpu --stats`, for both learning schemes, on this machine, each
# under TIME_LIMIT. Every model yasmin-rs prints goes through its built-in checker (--verify is
# on by default); the SAT/UNSAT answer is compared with clingo's (MANIFEST and this run).
#
# Writes benchmarks/results/host-engine.jsonl (rows) and benchmarks/results/host-engine.md
# (table). Exit status 1 if any answer is WRONG.
#
# Usage: scripts/bench-host.sh [bench-run.py args, e.g. --classes graphcol]
#   TIME_LIMIT (default 60), LIST, CACHE (ground files, default benchmarks/cache; missing ones are
#   ground by scripts/check-read-all.sh --ground-only), APPEND=1 keeps earlier rows (0 does not),
#   NO_BUILD=1 uses the binary already built, CARGO_TARGET_DIR as usual.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
LIST="${LIST:-$ROOT/benchmarks/list-host.tsv}"
CACHE="${CACHE:-$ROOT/benchmarks/cache}"
RESULTS="$ROOT/benchmarks/results"
ROWS="$RESULTS/host-engine.jsonl"
mkdir -p "$RESULTS"

if [ -z "${NO_BUILD:-}" ]; then
    (cd "$ROOT" && nice cargo build -q --release --bin yasmin-rs) || exit 2
fi
missing=$(awk -F'\t' 'NR>1{print $3}' "$LIST" | while read -r g; do [ -s "$CACHE/$g" ] || echo "$g"; done)
if [ -n "$missing" ]; then
    echo "bench-host: grounding missing files: $missing"
    "$ROOT/scripts/check-read-all.sh" --ground-only || exit 2
fi

# APPEND=1 keeps earlier rows; unset, empty or 0 starts afresh.
[ "${APPEND:-0}" != 0 ] || rm -f "$ROWS"
python3 "$ROOT/scripts/bench-run.py" --list "$LIST" --ground-dir "$CACHE" \
    --bin "$TARGET/release/yasmin-rs" --configs clingo,cpu:res,cpu:fwd \
    --clingo "clingo --mode=clasp" --time-limit "${TIME_LIMIT:-60}" --label host-engine \
    --out "$ROWS" "$@"
status=$?
python3 "$ROOT/scripts/report.py" "$ROWS" --host-table "$RESULTS/host-engine.md" || status=1
exit $status
