#!/usr/bin/env python3
"""Markdown table of scripts/host-variants.sh rows: one line per instance, the wall seconds of
each variant ('-' = not solved within its limit, WRONG/ERROR spelled out), then solved counts
per variant and the instances solved by at least one variant.

usage: scripts/variants-table.py ROWS.tsv [ROWS.tsv ...] > table.md
Give several files only when their variant names differ (one table per run otherwise).
"""
import sys
from collections import OrderedDict, defaultdict


def main():
    cells = defaultdict(dict)
    expected = {}
    variants = OrderedDict()
    for path in sys.argv[1:]:
        for line in open(path):
            name, inst, exp, _ans, secs, _confl, _choices, verdict = line.rstrip("\n").split("\t")
            variants.setdefault(name, None)
            expected[inst] = exp
            cells[inst][name] = (secs if verdict == "ok" else "-" if verdict == "unknown"
                                 else verdict)
    names = list(variants)
    print("| instance | expected | " + " | ".join(names) + " |")
    print("|---|---|" + "---:|" * len(names))
    for inst in sorted(cells):
        row = cells[inst]
        print("| %s | %s | %s |" % (inst, expected[inst],
                                   " | ".join(row.get(n, "") for n in names)))
    print()
    for n in names:
        got = [i for i in cells if n in cells[i]]
        ok = sum(1 for i in got if cells[i][n] not in ("-", "WRONG", "ERROR"))
        bad = sum(1 for i in got if cells[i][n] in ("WRONG", "ERROR"))
        print("- %s: %d of %d solved, %d WRONG/ERROR" % (n, ok, len(got), bad))
    solved = [i for i in cells if any(c not in ("-", "WRONG", "ERROR", "")
                                      for c in cells[i].values())]
    print("- solved by at least one variant: %d of %d" % (len(solved), len(cells)))


if __name__ == "__main__":
    main()
