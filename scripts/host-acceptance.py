#!/usr/bin/env python3
"""Issue 3's acceptance 3 as one table: per instance of the host list, clingo's time and each
yasmin-rs configuration's time (or 'unknown' / 'WRONG'), from bench-run.py rows; the last row
of an (instance, configuration) pair wins, so pass a first run and then its retries
(scripts/host-retry.py). Ends with the count each configuration solved, and a second table: per
instance and learning scheme, the fastest configuration of the scheme that answered it, with
its time, ratio to clingo, decisions per second and average learned-nogood length.

usage: scripts/host-acceptance.py ROWS.jsonl [ROWS.jsonl ...] > table.md"""
import json
import sys


def main():
    rows = {}
    for path in sys.argv[1:]:
        for line in open(path):
            if line.strip():
                r = json.loads(line)
                rows[(r["instance"], r["config"])] = r
    configs = sorted({c for _, c in rows if c != "clingo"})
    insts = sorted({i for i, _ in rows})

    def cell(r):
        if r is None:
            return "-"
        if r["verdict"] in ("WRONG", "ERROR"):
            return "**%s**" % r["verdict"]
        return "%.2f" % r["wall_s"] if r["solved"] else "unknown (%d s)" % r["time_limit"]

    print("| instance | expected | clingo s | " + " | ".join(configs) + " |")
    print("|---|---|---:|" + "---:|" * len(configs))
    for i in insts:
        exp = next(r["expected"] for (j, _), r in rows.items() if j == i)
        print("| %s | %s | %s | %s |" % (i.replace("/instances/", "/"), exp, cell(rows.get((i, "clingo"))),
                                       " | ".join(cell(rows.get((i, c))) for c in configs)))
    print()
    for c in ["clingo"] + configs:
        got = [rows[(i, c)] for i in insts if (i, c) in rows]
        wrong = sum(r["verdict"] in ("WRONG", "ERROR") for r in got)
        print("- %s: %d of %d solved, %d WRONG" % (c, sum(r["solved"] for r in got), len(got), wrong))
    both = [c for c in configs if c.startswith("cpu:")]
    for lr in ("res", "fwd"):
        cs = [c for c in both if scheme(c) == lr]
        any_ = sum(any(rows.get((i, c), {}).get("solved") for c in cs) for i in insts)
        print("- %s in any configuration (%s): %d of %d" % (lr, ", ".join(cs), any_, len(insts)))
    best_table(rows, insts, both)


def scheme(config):
    """The learning scheme of a bench-run.py configuration (`cpu:fwd:...+flag=v` -> fwd)."""
    return config.split("+")[0].split(":")[1]


def best_table(rows, insts, configs):
    """Per instance and scheme, the fastest configuration of the scheme that answered it."""
    def fmt(x, digits=0):
        return "-" if x is None else "{:,.{}f}".format(x, digits)

    print()
    print("Per scheme, the fastest configuration that answered (res / fwd):")
    print()
    cols = ["s", "configuration", "/clingo", "dec/s", "avg learned"]
    print("| instance | expected | clingo s | " + " | ".join(
        "%s %s" % (lr, c) for lr in ("res", "fwd") for c in cols) + " |")
    print("|---|---|---:|" + "---:|---|---:|---:|---:|" * 2)
    for i in insts:
        exp = next(r["expected"] for (j, _), r in rows.items() if j == i)
        cl = rows.get((i, "clingo"))
        cells = []
        for lr in ("res", "fwd"):
            got = [rows[(i, c)] for c in configs
                   if scheme(c) == lr and (i, c) in rows
                   and rows[(i, c)]["solved"]]
            if not got:
                cells += ["unknown", "-", "-", "-", "-"]
                continue
            r = min(got, key=lambda r: r["wall_s"])
            st = r.get("stats", {})
            secs = st.get("search_s") or r["wall_s"]
            ratio = (r["wall_s"] / cl["wall_s"] if cl and cl.get("solved") and cl["wall_s"] > 0
                     else None)
            cells += ["%.2f" % r["wall_s"], r["config"], fmt(ratio, 1),
                      fmt(st["decisions"] / secs if "decisions" in st and secs else None),
                      fmt(st.get("avg_learned_len"), 1)]
        print("| %s | %s | %s | %s |" % (i.replace("/instances/", "/"), exp,
                                       "%.2f" % cl["wall_s"] if cl and cl.get("solved") else "-",
                                       " | ".join(cells)))


if __name__ == "__main__":
    main()
