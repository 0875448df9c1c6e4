#!/usr/bin/env python3
"""Re-run, with a longer time limit, every (configuration, instance) pair a host run left
unsolved: for acceptance lists where the question is whether a configuration gets the answer at
all, not how fast (issue 3's acceptance 3).

usage (GPU machine or any machine with the kit of scripts/bench-prepare.sh):
  scripts/host-retry.py KIT ROWS.jsonl OUTDIR [--limit 100] [--jobs 15] [--configs a,b]

ROWS.jsonl: rows of scripts/bench-run.py (e.g. host44/rows.jsonl of scripts/gpu-final.sh).
Only yasmin-rs configurations are retried (--configs narrows them). The pairs are spread over
--jobs workers, each running scripts/bench-run.py once per pair; all rows go to
OUTDIR/rows.jsonl, checked against the expected answer like any other run (WRONG = a
contradiction). Prints a summary per configuration."""
import argparse
import collections
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kit")
    ap.add_argument("rows")
    ap.add_argument("outdir")
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=15)
    ap.add_argument("--configs", default="")
    args = ap.parse_args()
    wanted = set(filter(None, args.configs.split(",")))
    rows = [json.loads(l) for l in open(args.rows) if l.strip()]
    pairs = [(r["config"], r["instance"]) for r in rows
             if r["solver"] == "yasmin-rs" and not r["solved"]
             and (not wanted or r["config"] in wanted)]
    os.makedirs(args.outdir, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))

    def run(i_pair):
        i, (cfg, inst) = i_pair
        out = os.path.join(args.outdir, "rows-%03d.jsonl" % i)
        # The instance path without ".lp" is a unique substring of the list's instance column.
        cmd = [sys.executable, os.path.join(here, "bench-run.py"), "--bin",
               os.path.join(args.kit, "yasmin-rs"), "--ground-dir", os.path.join(args.kit, "ground"),
               "--list", os.path.join(args.kit, "list.tsv"), "--configs", cfg,
               "--instances", inst[:-3] if inst.endswith(".lp") else inst,
               "--time-limit", str(args.limit), "--grace", "5", "--out", out, "-q"]
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return out

    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        outs = list(ex.map(run, enumerate(pairs)))
    merged = []
    for o in outs:
        if os.path.exists(o):
            merged += [l for l in open(o) if l.strip()]
            os.remove(o)
    with open(os.path.join(args.outdir, "rows.jsonl"), "w") as f:
        f.writelines(merged)
    got = [json.loads(l) for l in merged]
    summary = collections.defaultdict(collections.Counter)
    for r in got:
        summary[r["config"]][r["verdict"]] += 1
    print("retried %d pairs at %d s, %d rows back" % (len(pairs), args.limit, len(got)))
    for cfg, c in sorted(summary.items()):
        print("%-24s %s" % (cfg, dict(c)))
    for r in sorted(got, key=lambda r: (r["config"], r["instance"])):
        print("%-24s %-55s %-8s %-8s %7.1fs" % (r["config"], r["instance"], r["result"],
                                              r["verdict"], r["wall_s"]))
    sys.exit(1 if any(r["verdict"] in ("WRONG", "ERROR") for r in got) else 0)


if __name__ == "__main__":
    main()
