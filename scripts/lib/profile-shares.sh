#!/usr/bin/env bash
# Where the host engine's time goes, per instance: `perf record` of one run per binary (one
# thread, -n MODELS (default 1), LIMIT seconds (default 10), --stats), the samples grouped by part
# of the engine, one markdown row per (instance, binary), with the conflicts per second that the
# same run printed (its `Conflicts ... (Per second: X)` line; "-" if it printed none). For issue
# 22's per-class profile table; run on an idle machine.
#
# Usage: LIMIT=10 MODELS=1 bash scripts/lib/profile-shares.sh NAME=BINARY... -- FILE.aspif...
set -euo pipefail
bins=()
while [ "$1" != "--" ]; do bins+=("$1"); shift; done
shift
echo "| instance | binary | s | conflicts/s | propagate | assign/unassign | analysis | unfounded | heuristic | sums | other |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in "$@"; do
    for pair in "${bins[@]}"; do
        name="${pair%%=*}" bin="${pair#*=}"
        data=$(mktemp) out=$(mktemp)
        start=$(date +%s.%N)
        perf record -q -o "$data" "$bin" --engine=cpu -t 1 -q -n "${MODELS:-1}" --time-limit="${LIMIT:-10}" \
            --stats "$f" > "$out" 2>/dev/null || true
        secs=$(echo "$(date +%s.%N) - $start" | bc)
        cps=$(sed -n 's/^Conflicts .*(Per second: *\([0-9.]*\)).*/\1/p' "$out" | head -n 1)
        perf report -i "$data" --no-children --stdio --sort symbol 2>/dev/null |
            awk -v inst="$(basename "$f" .aspif)" -v name="$name" -v secs="$secs" -v cps="${cps:--}" '
            /^ +[0-9.]+%/ {
                p = $1; sub("%", "", p); s = $0
                if (s ~ /watch::.*propagate/) k = "prop"
                else if (s ~ /CpuEngine::(assign|unassign)/) k = "assign"
                else if (s ~ /learn_(res|fwd)|redundant|analyse/) k = "analysis"
                else if (s ~ /source::|unfounded|loops::/) k = "ufs"
                else if (s ~ /heuristic::|decide/) k = "heur"
                else if (s ~ /sums::/) k = "sums"
                else k = "other"
                t[k] += p
            }
            END {
                printf "| %s | %s | %.1f | %s | %.0f %% | %.0f %% | %.0f %% | %.0f %% | %.0f %% | %.0f %% | %.0f %% |\n",
                    inst, name, secs, (cps == "-" ? cps : sprintf("%.0f", cps)), t["prop"], t["assign"], t["analysis"], t["ufs"], t["heur"], t["sums"], t["other"]
            }'
        rm -f "$data" "$out"
    done
done
