#!/usr/bin/env python3
"""Count bench-run.py rows by configuration and verdict ('solved' for ok), and the WRONG rows.

  scripts/rows-summary.py ROWS.jsonl [PREFIX]
"""
import collections
import json
import sys

rows = [json.loads(l) for l in open(sys.argv[1])]
prefix = sys.argv[2] + " " if len(sys.argv) > 2 else ""
by = collections.defaultdict(collections.Counter)
for r in rows:
    by[r["config"]][r["verdict"] if r["verdict"] != "ok" else "solved"] += 1
for c in sorted(by):
    print("%s%-18s %s" % (prefix, c, dict(by[c])))
print("%srows %d, WRONG %d" % (prefix, len(rows), sum(r["verdict"] == "WRONG" for r in rows)))
