#!/usr/bin/env bash
# One command on a fresh Debian/Ubuntu machine: install everything yasmin-rs and its tests need,
# build the release binary, and solve an example from its source. Safe to run again: what is
# there already is not installed twice.
#
#   scripts/setup.sh            # then scripts/test.sh runs the whole test suite
#
# Installs: cmake, g++ and make (the embedded clingo grounder is built from source); git and
# xz (the benchmark scripts' tests make a git mirror and pack with xz); gringo and
# Debian's clingo 5.4 (the tests ground with gringo and compare exit codes with clingo); pip and
# PyPI's clingo 5.8 (the tests' reference output, `python3 -m clingo`); Rust through rustup if
# cargo is missing; the NVRTC wheel (no GPU needed) into $NVRTC_DIR (default
# ~/.cache/yasmin-nvrtc), so that the tests compile every GPU kernel. .ci/run runs this script,
# then scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

# ---- system packages -----------------------------------------------------------------------
need=()
command -v gringo >/dev/null || need+=(gringo)
command -v clingo >/dev/null || need+=(gringo)
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v curl >/dev/null || need+=(curl ca-certificates)
command -v git >/dev/null || need+=(git)
command -v xz >/dev/null || need+=(xz-utils)
python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
if [ ${#need[@]} -gt 0 ]; then
    $SUDO apt-get update
    $SUDO apt-get install -y "${need[@]}"
fi

# ---- Rust --------------------------------------------------------------------------------------
if ! command -v cargo >/dev/null; then
    [ -x "$HOME/.cargo/bin/cargo" ] ||
        curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    # shellcheck disable=SC1091
    . "$HOME/.cargo/env"
fi

# ---- Python packages -------------------------------------------------------------------------
# pip_install ARGS...: plain, else past Debian's PEP 668 guard (the packages are only clingo and
# a library directory of its own).
pip_install() {
    python3 -m pip install -q "$@" 2>/dev/null ||
        python3 -m pip install -q --break-system-packages "$@"
}
python3 -m clingo --version >/dev/null 2>&1 || pip_install clingo
NVRTC_DIR="${NVRTC_DIR:-$HOME/.cache/yasmin-nvrtc}"
if [ ! -e "$NVRTC_DIR/nvidia/cuda_nvrtc/lib/libnvrtc.so.12" ]; then
    # --target writes only into NVRTC_DIR.
    pip_install --no-deps --target "$NVRTC_DIR" nvidia-cuda-nvrtc-cu12==12.6.85
fi

# ---- build and a first run ---------------------------------------------------------------------
cargo build --release
set +e
target/release/yasmin-rs examples/queens.lp -n 0 --engine=cpu
code=$?
set -e
# 30 = satisfiable and every model printed (clingo's exit code).
[ "$code" -eq 30 ] || { echo "unexpected exit code $code" >&2; exit 1; }
echo "set-up done: scripts/test.sh runs the tests"
