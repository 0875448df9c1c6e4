#!/usr/bin/env python3
"""The paper's Figure 1/2 metrics per instance, host engine beside device engine: props/s,
decisions/s, learned nogoods/s, average learned length, and host<->device bytes, kernel
launches per decision and peak device memory (MB = 2^20 bytes; total, and the input nogoods'
structures plus the learned store) for device rows, read from bench-run.py JSON lines.

Invariant: every number is computed from one row's --stats (rates over the engine's own search
time); a missing statistic prints '-', never an estimate.

  scripts/table1.py ROWS.jsonl [--classes visitall,sokoban,graphcol,labyrinth,ppm] > table.md
"""
import argparse
import json

CONFIGS = ["cpu:res", "cpu:fwd", "gpu:res", "gpu:fwd"]


def rate(st, key):
    s = st.get("search_s")
    v = st.get(key)
    return v / s if v is not None and s else None


def per_dec(st, key):
    d = st.get("decisions")
    v = st.get(key)
    return v / d if v is not None and d else None


def fmt(x, digits=0):
    if x is None:
        return "-"
    if digits == 0:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("--classes", default="visitall,sokoban,graphcol,labyrinth,ppm")
    args = ap.parse_args()
    classes = args.classes.split(",")
    rows = {}
    for line in open(args.rows):
        r = json.loads(line)
        if r["class"] in classes and r["config"] in CONFIGS:
            rows[(r["instance"], r["config"])] = r
    print("| instance | config | result | search s | props/s | decisions/s | learned/s | avg learned len "
          "| launches/decision | H→D B/decision | D→H B/decision | device MB | of which nogoods + learned |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for inst in sorted({k[0] for k in rows}, key=lambda i: (classes.index(i.split("/")[0]), i)):
        for c in CONFIGS:
            r = rows.get((inst, c))
            if r is None:
                continue
            st = r.get("stats") or {}
            raw = r.get("stats_raw") or {}
            nl = None
            if "device_memory_nogoods" in raw and "device_memory_learned" in raw:
                nl = raw["device_memory_nogoods"] + raw["device_memory_learned"]
            print(f"| {inst.split('/')[0]}/{inst.split('/')[-1][:-3]} | {c} | {r['result']} "
                  f"| {fmt(st.get('search_s'), 2)} | {fmt(rate(st, 'propagations'))} "
                  f"| {fmt(rate(st, 'decisions'))} | {fmt(rate(st, 'learned'))} "
                  f"| {fmt(st.get('avg_learned_len'), 1)} | {fmt(per_dec(st, 'kernel_launches'), 1)} "
                  f"| {fmt(per_dec(st, 'bytes_to_device'), 0)} | {fmt(per_dec(st, 'bytes_from_device'), 0)} "
                  f"| {fmt(raw.get('device_memory'), 1)} | {fmt(nl, 1)} |")


if __name__ == "__main__":
    main()
