#!/usr/bin/env bash
# Build yasmin-rs with the embedded grounder (cargo feature `grounder`: clingo 5.6.2 from source,
# needs cmake and g++) and run its tests: tests/embedded.rs compares in-process grounding with
# gringo/clingo (needs the `gringo` package) and runs the binary with gringo/clingo off PATH.
#
#   scripts/embedded-test.sh            # debug build + tests
#   NICE=19 scripts/embedded-test.sh    # on a shared machine
#
# Needs cmake + g++ (clingo), gringo (`apt-get install gringo`) and PyPI's clingo
# (`pip install clingo`: Debian's clingo 5.4.1 cannot read aspif). BENCH_DIR points at the shared
# benchmarks (default: tests/embedded.rs's); YASMIN_REQUIRE_BENCH=1 fails if they are absent.
# The first build compiles clingo: about 6 CPU-minutes per cargo profile (measured: 423 CPU-s for
# a cold dev build with the feature against 64 CPU-s without); later builds reuse it.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cmake >/dev/null || { echo "cmake is needed (apt-get install cmake)" >&2; exit 1; }
command -v gringo >/dev/null \
  || { echo "gringo is needed by the tests (apt-get install gringo)" >&2; exit 1; }
python3 -m clingo --version >/dev/null 2>&1 \
  || { echo "PyPI's clingo is needed by the tests (pip install clingo)" >&2; exit 1; }
run() { nice -n "${NICE:-0}" "$@"; }
run cargo test --features grounder --lib grounder
run cargo test --features grounder --test embedded -- --test-threads=1 "$@"
