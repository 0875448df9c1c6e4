#!/usr/bin/env bash
# The whole test suite, as CI runs it (after scripts/setup.sh): `cargo test --workspace
# --release` with the NVRTC wheel of scripts/setup.sh on the library path, so that the GPU
# kernels are compiled too (YASMIN_REQUIRE_NVRTC=1 makes a missing NVRTC a failure, not a skip),
# and the shared benchmarks of the embedded grounder's tests when BENCH_DIR names them (or
# ../shared/benchmarks exists beside the clone). Arguments go to cargo test.
#
#   scripts/test.sh
#   scripts/test.sh --test cli
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
NVRTC_DIR="${NVRTC_DIR:-$HOME/.cache/yasmin-nvrtc}"
if [ -e "$NVRTC_DIR/nvidia/cuda_nvrtc/lib/libnvrtc.so.12" ]; then
    export LD_LIBRARY_PATH="$NVRTC_DIR/nvidia/cuda_nvrtc/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export YASMIN_REQUIRE_NVRTC=1
else
    echo "test.sh: no NVRTC in $NVRTC_DIR (scripts/setup.sh installs it): kernels not compiled" >&2
fi
if [ -z "${BENCH_DIR:-}" ] && [ -d ../shared/benchmarks ]; then
    BENCH_DIR="$(cd ../shared/benchmarks && pwd)"
fi
if [ -n "${BENCH_DIR:-}" ]; then
    export BENCH_DIR YASMIN_REQUIRE_BENCH=1
fi
exec cargo test --workspace --release "$@"
