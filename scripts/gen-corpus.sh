#!/usr/bin/env bash
# Write N generated programs (the differential-test kinds in turn) to DIR as NNNN.lp, their
# ground form NNNN.aspif (gringo) and NNNN.expected (clingo's answer sets, normalised by
# scripts/lib/common.py), plus DIR/index.tsv (id, kind, seed). Carry DIR to another machine
# and compare a binary there with `scripts/bench corpus check` (python3 only).
#
# Usage: scripts/gen-corpus.sh DIR N [BASE_SEED [KINDS]]
# KINDS: comma-separated generator kinds (default tight,nontight,choice,aggregate; add
# disjunctive for head-cycle-free disjunction, whose non-HCF programs are rejected).
# Needs: rustc (builds tests/gen/emit.rs alone, so a half-built crate does not block it),
# gringo, clingo.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 DIR N [BASE_SEED]" >&2; exit 2; }
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="$1" N="$2" SEED="${3:-1}" KINDS="${4:-tight,nontight,choice,aggregate}"
GEN="${CARGO_TARGET_DIR:-$ROOT/target}/gen_program"
mkdir -p "$(dirname "$GEN")" "$DIR"
nice rustc --edition 2021 -O -o "$GEN" "$ROOT/tests/gen/emit.rs"
"$GEN" --out "$DIR" --count "$N" --seed "$SEED" --kinds "$KINDS"
for lp in "$DIR"/[0-9]*.lp; do
    gringo -Wnone "$lp" > "${lp%.lp}.aspif"
done
"$ROOT/scripts/bench" corpus expected "$DIR"
