#!/usr/bin/env python3
"""The paper's Figure 1/2 metrics per instance, host engine beside device engine: props/s,
decisions/s, learned nogoods/s, average learned length, and host<->device bytes, kernel
launches per decision and peak device memory (MB = 2^20 bytes; total, and the input nogoods'
structures plus the learned store) for device rows, read from bench-run.py JSON lines.

Invariant: every number is computed from one row's --stats (rates over the engine's own search
time); a missing statistic prints '-', never an estimate.

  scripts/table1.py ROWS.jsonl [--classes visitall,sokoban,graphcol,labyrinth,ppm] > table.md

After the per-instance table, a summary per class: the median over the class's instances of
props/s per configuration, the gpu/cpu ratio of those medians, the median host<->device bytes
per decision (both directions) and device memory / (nogoods + learned store); and, per
configuration, the instances solved, and on how many instances fwd's props/s beat res's.
"""
import argparse
import json
import statistics

CONFIGS = ["cpu:res", "cpu:fwd", "gpu:res", "gpu:fwd"]
PAPER = "+configuration=paper"


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
    all_rows = [json.loads(line) for line in open(args.rows)]
    # The host engine beside the device one runs the device's algorithm: `cpu:X+configuration=paper`
    # (since session 7 a plain `cpu:X` is the host engine's tuned default; rows written before
    # it, where `cpu:X` was the paper's, are used only when a file has no paper rows).
    paper = any(r["config"].endswith(PAPER) for r in all_rows)
    for r in all_rows:
        c = r["config"]
        if c.startswith("cpu:") and paper:
            if not c.endswith(PAPER):
                continue
            c = c[: -len(PAPER)]
        if r["class"] in classes and c in CONFIGS:
            rows[(r["instance"], c)] = r
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
    summary(rows, classes)


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def summary(rows, classes):
    def stat(r, f):
        return f(r.get("stats") or {}, r.get("stats_raw") or {}) if r else None

    def props(st, raw):
        return rate(st, "propagations")

    def hd(st, raw):
        a, b = per_dec(st, "bytes_to_device"), per_dec(st, "bytes_from_device")
        return a + b if a is not None and b is not None else None

    def mem(st, raw):
        if raw.get("device_memory") and "device_memory_nogoods" in raw:
            return raw["device_memory"] / (raw["device_memory_nogoods"] + raw["device_memory_learned"])
        return None

    print()
    print("| class | cpu:res props/s | cpu:fwd | gpu:res | gpu:fwd | gpu/cpu res | gpu/cpu fwd "
          "| H↔D B/decision res | fwd | device mem / (nogoods + learned) res | fwd |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for cl in classes:
        insts = sorted({k[0] for k in rows if k[0].split("/")[0] == cl})
        m = {c: median(stat(rows.get((i, c)), props) for i in insts) for c in CONFIGS}
        ratio = {lr: (m["gpu:" + lr] / m["cpu:" + lr]) if m["gpu:" + lr] and m["cpu:" + lr] else None
                 for lr in ("res", "fwd")}
        b = {lr: median(stat(rows.get((i, "gpu:" + lr)), hd) for i in insts) for lr in ("res", "fwd")}
        dm = {lr: median(stat(rows.get((i, "gpu:" + lr)), mem) for i in insts) for lr in ("res", "fwd")}
        print(f"| {cl} | {fmt(m['cpu:res'])} | {fmt(m['cpu:fwd'])} | {fmt(m['gpu:res'])} "
              f"| {fmt(m['gpu:fwd'])} | {fmt(ratio['res'], 3)} | {fmt(ratio['fwd'], 3)} "
              f"| {fmt(b['res'])} | {fmt(b['fwd'])} | {fmt(dm['res'], 2)} | {fmt(dm['fwd'], 2)} |")
    print()
    insts = sorted({k[0] for k in rows})
    solved = {c: sum(1 for i in insts if rows.get((i, c), {}).get("solved")) for c in CONFIGS}
    print("Solved within the limit, of %d instances: %s." % (
        len(insts), ", ".join(f"{c} {n}" for c, n in solved.items())))
    for eng in ("cpu", "gpu"):
        pairs = [(stat(rows.get((i, eng + ":fwd")), props), stat(rows.get((i, eng + ":res")), props))
                 for i in insts]
        pairs = [(f, r) for f, r in pairs if f is not None and r is not None]
        print(f"{eng}: fwd's props/s above res's on {sum(f > r for f, r in pairs)} of {len(pairs)} instances.")


if __name__ == "__main__":
    main()
