#!/usr/bin/env bash
# Run BIN -n 0 [args...] on every DIR/NNNN.aspif written by scripts/gen-corpus.sh and compare its
# answer sets with DIR/NNNN.expected (clingo's). Exits 1 on any mismatch. Needs python3 only.
#
# Usage: scripts/check-corpus.sh BIN DIR [solver args...]
#   e.g. scripts/check-corpus.sh .device/yasmin-rs corpus --engine gpu --learning fwd
#   TIMEOUT (default 60 s per program) and JOBS (default 1; the GPU is one device) in the env.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BIN DIR [solver args...]" >&2; exit 2; }
BIN="$1" DIR="$2"
shift 2
exec python3 "$(dirname "$0")/bench-corpus.py" check \
    --timeout "${TIMEOUT:-60}" --jobs "${JOBS:-1}" "$BIN" "$DIR" -- "$@"
