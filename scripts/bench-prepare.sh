#!/usr/bin/env bash
# Build the folder .device/kit/ that the benchmark run on the GPU machine carries (that machine has no
# Rust, gringo or network): the release binary, xz-compressed ground files of the chosen
# instances, the PyPI clingo wheel (+ cffi, pycparser) for CPython 3.12 manylinux, the python
# scripts, a generated-program corpus if asked, and .device/run.sh, the command to start there.
#
# Invariant: kit/list.tsv names exactly the instances whose ground files are in kit/ground/, and
# the kit stays under BUDGET_MB (the device carry limit is 64 MiB
# for the working tree and carried paths together). Instances are taken smallest ground program
# first; those that do not fit are listed as skipped.
#
# Usage: scripts/bench-prepare.sh [LIST]          (default benchmarks/list.tsv)
#   BUDGET_MB   size limit for .device (default 50)
#   CACHE       ground-file cache (default benchmarks/cache, filled by scripts/check-read-all.sh)
#   CORPUS      a folder written by scripts/gen-corpus.sh to carry too (optional)
#   NO_BUILD=1  reuse the binary already in the kit
#   KIT        the folder to fill (default .device/kit; .device/ is shared with other helpers'
#              device files, so this script only ever writes inside KIT)
#   CARGO_TARGET_DIR as usual.
# Then, on the device (carry [".device"]):  bash .device/kit/run.sh [bench-run.py args...]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LIST="${1:-$ROOT/benchmarks/list.tsv}"
BUDGET_MB="${BUDGET_MB:-50}"
CACHE="${CACHE:-$ROOT/benchmarks/cache}"
DEV="${KIT:-$ROOT/.device/kit}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
mkdir -p "$DEV/ground" "$DEV/scripts" "$DEV/whl"
grep -qxF '/.device/' "$ROOT/.git/info/exclude" 2>/dev/null || echo '/.device/' >> "$ROOT/.git/info/exclude"

# 1. The binary (stripped: debug info would take a third of the budget).
if [ -z "${NO_BUILD:-}" ]; then
    (cd "$ROOT" && nice cargo build --release --bin yasmin-rs)
    strip -o "$DEV/yasmin-rs" "$TARGET/release/yasmin-rs"
    # The batch checker of scripts/gpu-accept.sh (examples/gpu_batch.rs).
    (cd "$ROOT" && nice cargo build --release --example gpu_batch)
    strip -o "$DEV/gpu_batch" "$TARGET/release/examples/gpu_batch"
fi
[ -x "$DEV/yasmin-rs" ] || { echo "bench-prepare: no binary in $DEV" >&2; exit 2; }

# 2. Scripts.
cp "$ROOT"/scripts/{bench-run.py,bench_common.py,bench-corpus.py,check-corpus.sh,report.py} "$DEV/scripts/"
# The host engine's acceptance list, for scripts/gpu-final.sh (kept in step with benchmarks/).
cp "$ROOT/benchmarks/list-host.tsv" "$DEV/list-host.tsv"

# 3. clingo for CPython 3.12 (the device's python3), with its dependencies.
if ! ls "$DEV"/whl/clingo-*.whl >/dev/null 2>&1; then
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
        --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 -d "$DEV/whl" clingo cffi pycparser
fi

# 4. Corpus of generated programs (small files; .aspif kept plain).
if [ -n "${CORPUS:-}" ]; then
    rm -rf "$DEV/corpus" && mkdir -p "$DEV/corpus"
    cp "$CORPUS"/*.aspif "$CORPUS"/*.expected "$DEV/corpus/"
    [ -f "$CORPUS/index.tsv" ] && cp "$CORPUS/index.tsv" "$DEV/corpus/"
    # The same, packed for scripts/gpu-accept.sh (PART=corpus); xz keeps 2,000 programs < 1 MB.
    tar cf - -C "$CORPUS" --exclude='*.lp' . | xz -T2 -9 > "$DEV/corpus.tar.xz"
fi

# 5. Ground files, smallest first, while the folder fits the budget. Compressed files are kept
#    between runs (xz is slow on the large ones) and redone only when the cache file is newer.
budget=$((BUDGET_MB * 1024 * 1024))
head -1 "$LIST" > "$DEV/list.tsv"
skipped=()
col() { awk -F'\t' -v c="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==c) k=i; next} {print $k}' "$LIST"; }
while IFS=$'\t' read -r rules line; do
    ground="$(printf '%s\n' "$line" | cut -f3)"
    src="$CACHE/$ground"
    dst="$DEV/ground/$ground.xz"
    if [ ! -s "$src" ]; then
        skipped+=("$ground (not in cache)")
        continue
    fi
    used=$(du -sb "$DEV" | cut -f1)
    # xz shrinks gringo's aspif 20-25x; do not spend minutes compressing what cannot fit.
    if [ ! -s "$dst" ] && [ $((used + $(stat -c %s "$src") / 40)) -gt "$budget" ]; then
        skipped+=("$ground (budget)")
        continue
    fi
    if [ ! -s "$dst" ] || [ "$src" -nt "$dst" ]; then
        mkdir -p "$(dirname "$dst")"
        nice xz -6 -T2 -c "$src" > "$dst.tmp" && mv "$dst.tmp" "$dst"
    fi
    used=$(du -sb --exclude=ground "$DEV" | cut -f1)
    listed=$(awk -F'\t' 'NR>1{print $3}' "$DEV/list.tsv" | while read -r g; do stat -c %s "$DEV/ground/$g.xz"; done | awk '{s+=$1} END{print s+0}')
    if [ $((used + listed + $(stat -c %s "$dst"))) -gt "$budget" ]; then
        skipped+=("$ground (budget)")
        rm -f "$dst"
        continue
    fi
    printf '%s\n' "$line" >> "$DEV/list.tsv"
done < <(paste <(col ground_rules) <(tail -n +2 "$LIST") | sort -n -k1,1)
# Compressed files of instances no longer listed must not travel.
find "$DEV/ground" -name '*.xz' | while read -r f; do
    g="${f#"$DEV/ground/"}"; g="${g%.xz}"
    awk -F'\t' -v g="$g" 'NR>1 && $3==g {f=1} END{exit !f}' "$DEV/list.tsv" || rm -f "$f"
done

# 6. The command to start on the device.
cat > "$DEV/run.sh" <<'EOF'
#!/usr/bin/env bash
# On the GPU machine, from the repository root, with .device carried:
#   bash .device/run.sh [bench-run.py args...]    rows go to $OUT/rows.jsonl
set -uo pipefail
D="$(cd "$(dirname "$0")" && pwd)"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site "$D"/whl/*.whl && export PYTHONPATH=/tmp/site || exit 3
export PYTHONUNBUFFERED=1
OUTDIR="${OUT:-/tmp/out}"
mkdir -p "$OUTDIR"
python3 "$D/scripts/bench-run.py" --bin "$D/yasmin-rs" --ground-dir "$D/ground" \
    --list "$D/list.tsv" --clingo "python3 -m clingo" --out "$OUTDIR/rows.jsonl" "$@"
EOF
chmod +x "$DEV/run.sh"

n=$(($(wc -l < "$DEV/list.tsv") - 1))
echo "bench-prepare: $n instances in $DEV ($(du -sh "$DEV" | cut -f1)), budget ${BUDGET_MB} MB"
for s in "${skipped[@]+"${skipped[@]}"}"; do echo "  skipped $s"; done
