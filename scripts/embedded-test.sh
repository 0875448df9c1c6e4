#!/usr/bin/env bash
# Build yasmin-rs with the embedded grounder (cargo feature `grounder`: clingo 5.6.2 from source,
# needs cmake and g++) and run its tests: tests/embedded.rs compares in-process grounding with
# gringo/clingo (needs the `gringo` package) and runs the binary with gringo/clingo off PATH.
#
#   scripts/embedded-test.sh            # debug build + tests
#   NICE=19 scripts/embedded-test.sh    # on a shared machine
#
# The first build compiles clingo (about 4 CPU-minutes); later ones reuse it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cmake >/dev/null || { echo "cmake is needed (apt-get install cmake)" >&2; exit 1; }
command -v gringo >/dev/null && command -v clingo >/dev/null \
  || { echo "gringo and clingo are needed by the tests (apt-get install gringo)" >&2; exit 1; }
run() { nice -n "${NICE:-0}" "$@"; }
run cargo test --features grounder --lib grounder
run cargo test --features grounder --test embedded -- --test-threads=1 "$@"
