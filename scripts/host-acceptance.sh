#!/usr/bin/env bash
# Issue 3's acceptance 3 on a machine with many cores: every instance of a list under clingo and
# several yasmin-rs configurations (bench-run.py syntax, `+FLAG=VALUE` for more options), one
# instance per process, JOBS processes at a time; every answer checked by bench-run.py against
# the list's and clingo's. Then scripts/host-acceptance.py renders the table (per configuration,
# and per scheme the fastest configuration that answered).
#
# Usage (repository root of the GPU machine, kit of scripts/bench-prepare.sh carried):
#   LIMIT=120 JOBS=16 bash scripts/host-acceptance.sh .device/kit OUTDIR LIST.tsv CONFIGS
#   e.g. CONFIGS=clingo,cpu:res,cpu:fwd:activity:vars+fwd-cut=lits
# CLINGO (a command) runs clingo; unset, the kit's clingo wheel is installed and `python3 -m
# clingo` runs it. Writes OUTDIR/rows.jsonl, OUTDIR/table.md, OUTDIR/env.txt. Exit status 1 if
# any row is WRONG or ERROR.
set -uo pipefail
KIT="${1:?kit}"; OUTDIR="${2:?out}"; LIST="${3:?list}"; CONFIGS="${4:?configs}"
LIMIT="${LIMIT:-120}"; JOBS="${JOBS:-16}"
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$OUTDIR/lists" "$OUTDIR/rows"
if [ -z "${CLINGO:-}" ]; then
    flock /tmp/site.lock python3 -m pip install -q --no-index --no-deps --no-compile \
        --no-cache-dir --upgrade --target /tmp/site "$KIT"/whl/*.whl || exit 3
    export PYTHONPATH=/tmp/site
    CLINGO="python3 -m clingo"
fi
export PYTHONUNBUFFERED=1
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || echo "no GPU"
    echo "cpus: $(nproc); JOBS=$JOBS; time limit ${LIMIT}s"
    echo "configs: $CONFIGS"
} > "$OUTDIR/env.txt"
# One list per instance (the header and its row).
n=0
while IFS= read -r row; do
    n=$((n + 1))
    { head -1 "$LIST"; printf '%s\n' "$row"; } > "$OUTDIR/lists/$n.tsv"
done < <(tail -n +2 "$LIST")
one() {
    python3 "$HERE/bench-run.py" --bin "$KIT/yasmin-rs" --ground-dir "$KIT/ground" \
        --list "$OUTDIR/lists/$1.tsv" --clingo "$CLINGO" --configs "$CONFIGS" \
        --time-limit "$LIMIT" --grace 5 --out "$OUTDIR/rows/$1.jsonl" > "$OUTDIR/rows/$1.log" 2>&1
}
export -f one
export HERE KIT OUTDIR CONFIGS LIMIT CLINGO
seq 1 "$n" | xargs -P "$JOBS" -I{} bash -c 'one {}'
cat "$OUTDIR"/rows/*.jsonl > "$OUTDIR/rows.jsonl"
python3 "$HERE/host-acceptance.py" "$OUTDIR/rows.jsonl" > "$OUTDIR/table.md"
grep -A12 '^- clingo' "$OUTDIR/table.md" | grep '^- '
! grep -q '"verdict": "\(WRONG\|ERROR\)"' "$OUTDIR/rows.jsonl"
