#!/usr/bin/env python3
"""Write benchmarks/list.tsv (every instance of the shared MANIFEST) and benchmarks/list-host.tsv
(decision instances for the host engine: no minimize, no disjunction, clingo under 10 s).

Invariant: both lists are derived from MANIFEST.tsv only (re-run this after the manifest changes);
`expected` is clingo's reference answer copied from it, `ground` the cache-relative ground file
(<class>/<instance base>.aspif) that bench-run.py looks for under its --ground-dir.

Usage: scripts/bench-list.py [MANIFEST] (default /work/shared/benchmarks/MANIFEST.tsv)
"""
import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLUMNS = ["class", "instance", "ground", "kind", "tight", "expected", "clingo_s", "ground_rules"]


def rows(manifest):
    with open(manifest) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            inst = r["instance"].removeprefix("benchmarks/")
            base = os.path.basename(inst)[: -len(".lp")]
            yield {
                "class": r["class"],
                "instance": inst,
                "ground": "%s/%s.aspif" % (r["class"], base),
                "kind": r["rule_types"],
                "tight": r["tight"],
                "expected": r["clingo_result"],
                "clingo_s": r["clingo_s"],
                "ground_rules": r["ground_rules"],
            }


def host_ok(r):
    kinds = r["kind"].split("+")
    return "minimize" not in kinds and "disjunctive" not in kinds and float(r["clingo_s"]) < 10


def write(path, rs):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, delimiter="\t", lineterminator="\n")
        w.writeheader()
        w.writerows(rs)
    print("%s: %d instances" % (os.path.relpath(path, ROOT), len(rs)))


def main():
    manifest = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/benchmarks/MANIFEST.tsv"
    rs = list(rows(manifest))
    write(os.path.join(ROOT, "benchmarks/list.tsv"), rs)
    write(os.path.join(ROOT, "benchmarks/list-host.tsv"), [r for r in rs if host_ok(r)])


if __name__ == "__main__":
    main()
