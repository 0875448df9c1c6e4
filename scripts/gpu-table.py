#!/usr/bin/env python3
"""Tables of the device engine's benchmark rows (scripts/gpu-bench.sh, bench-run.py's JSON lines):
solved per class and configuration, and, where the earlier single-search engine ran beside the
many-searches one, their aggregate rates side by side.

Usage: scripts/gpu-table.py [--within S,...] ROWS.jsonl [...] > table.md
  --within S,...   one table per S: solved means solved in at most S seconds of wall time (a
                   run with a limit L ≥ S answers "solved within S" too: the solvers do not plan
                   by the limit); default: the rows' limit. Each table has PAR-2 (unsolved runs
                   count 2·S) and the winner per class (most solved, then lowest PAR-2).
Invariant: each (instance, configuration) counts once (the first row read); rows of
optimisation instances count as solved only as bench-run.py judged them.
"""
import collections
import json
import sys

args = sys.argv[1:]
within = None
if args[:1] == ["--within"]:
    within = [float(x) for x in args[1].split(",")]
    args = args[2:]
rows = []
for path in args:
    with open(path) as f:
        rows += [json.loads(l) for l in f if l.strip()]
seen = {}
for r in rows:
    seen.setdefault((r["instance"], r["config"]), r)
configs = sorted({c for _, c in seen}, key=lambda c: (c != "clingo", c.startswith("gpu"), c))
main = [c for c in configs if all((i, c) in seen for i, _ in seen)]
classes = sorted({r["class"] for r in seen.values()})
limit = next(iter(seen.values()))["time_limit"]


def solved(r, s):
    return r["solved"] and r["wall_s"] <= s


def table(s):
    print(f"Solved within {s:g} s (verdicts checked against clingo's answers; WRONG would be counted apart), PAR-2 in seconds.\n")
    print("| class | n | " + " | ".join(main) + " | " + " | ".join(f"PAR-2 {c}" for c in main) + " | winner |")
    print("|---|---:|" + "---:|" * (2 * len(main)) + "---|")
    tot, par_tot = collections.Counter(), collections.Counter()
    wrong = 0
    for k in classes:
        insts = {i for (i, c) in seen if seen[(i, c)]["class"] == k}
        n = {c: sum(solved(seen[(i, c)], s) for i in insts) for c in main}
        par = {c: sum(seen[(i, c)]["wall_s"] if solved(seen[(i, c)], s) else 2 * s for i in insts) for c in main}
        for c in main:
            tot[c] += n[c]
            par_tot[c] += par[c]
        best = min(main, key=lambda c: (-n[c], par[c]))
        print(f"| {k} | {len(insts)} | " + " | ".join(str(n[c]) for c in main) + " | "
              + " | ".join(f"{par[c]:.0f}" for c in main) + f" | {best} |")
        wrong += sum(seen[(i, c)]["verdict"] == "WRONG" for i in insts for c in main)
    n_all = len({i for i, _ in seen})
    print(f"| **total** | {n_all} | " + " | ".join(f"**{tot[c]}**" for c in main) + " | "
          + " | ".join(f"**{par_tot[c]:.0f}**" for c in main) + " | |")
    print(f"\nWrong answers: {wrong}.\n")


for s in within or [limit]:
    table(s)

single = [c for c in configs if "single" in c]
if single:
    s = single[0]
    print(f"Rates on the instances where `{s}` ran (aggregate over all searches; per second of wall time):\n")
    print("| instance | config | result | wall s | choices/s | conflicts/s | searches | choices/s ratio | conflicts/s ratio |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for i in sorted({i for (i, c) in seen if c == s}):
        base = seen[(i, s)]
        bst = base.get("stats_raw", {})
        bw = max(bst.get("search_time", base["wall_s"]) or base["wall_s"], 1e-3)
        bd, bc = bst.get("choices", 0) / bw, bst.get("conflicts", 0) / bw
        for c in [s] + [c for c in configs if c.startswith("gpu") and c != s and (i, c) in seen]:
            r = seen[(i, c)]
            st = r.get("stats_raw", {})
            w = max(st.get("search_time", r["wall_s"]) or r["wall_s"], 1e-3)
            d, cf = st.get("choices", 0) / w, st.get("conflicts", 0) / w
            rd = f"{d / bd:.0f}×" if bd > 0 and c != s else "—"
            rc = f"{cf / bc:.0f}×" if bc > 0 and c != s else "—"
            print(f"| {i.split('/')[-1][:34]} | {c} | {r['result']} | {r['wall_s']:.2f} | {d:,.0f} | {cf:,.0f} | {int(st.get('gpu_searches', 1))} | {rd} | {rc} |")
