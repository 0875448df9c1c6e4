#!/usr/bin/env bash
# One command on a fresh Debian/Ubuntu machine: install what yasmin-rs needs (cmake and g++ for the
# embedded clingo grounder, gringo for the tests; Rust through rustup if cargo is missing), build
# the release binary, and solve an example from its source (grounded in-process, no gringo used).
#
#   scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if ! command -v gringo >/dev/null || ! command -v cmake >/dev/null || ! command -v g++ >/dev/null; then
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y gringo cmake g++ make
fi
if ! command -v cargo >/dev/null; then
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    # shellcheck disable=SC1091
    . "$HOME/.cargo/env"
fi
cargo build --release
set +e
target/release/yasmin-rs examples/queens.lp -n 0
code=$?
set -e
# 30 = satisfiable and every model printed (clingo's exit code).
[ "$code" -eq 30 ] || { echo "unexpected exit code $code" >&2; exit 1; }
