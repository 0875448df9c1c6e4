#!/usr/bin/env python3
"""Markdown table of scripts/bench-agg.sh output (one or more TSV files): baseline and new side
by side per instance and learning scheme; answers checked against the expected one.

    scripts/bench-agg-table.py RUN.tsv [MORE.tsv ...]
"""
import sys

rows = {}
order = []
for path in sys.argv[1:]:
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 10:
            continue
        label, inst, scheme, exp, ans, wall, kb, confl, ch, ng = f[:10]
        key = (inst, scheme)
        if key not in rows:
            rows[key] = {}
            order.append(key)
        rows[key][label] = (ans, wall, kb, confl, ng)

short = {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT", "UNKNOWN": "-"}
expected = {}
for path in sys.argv[1:]:
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 4:
            expected[(f[1], f[2])] = f[3]


def cell(key, label):
    r = rows[key].get(label)
    if r is None:
        return ["", "", "", "", ""]
    ans, wall, kb, confl, ng = r
    a = short.get(ans, ans)
    if a in ("SAT", "UNSAT") and a != expected[key]:
        a = f"**WRONG {a}**"
    mb = f"{int(kb) / 1024:.0f}" if kb.isdigit() else kb
    return [a, wall, mb, confl, ng]


print("| instance | learning | expected | base answer | base s | base MB | base conflicts "
      "| base nogoods | new answer | new s | new MB | new conflicts | new nogoods |")
print("|" + "---|" * 13)
solved = {"base": 0, "new": 0}
for key in order:
    for label in solved:
        r = rows[key].get(label)
        if r and short.get(r[0]) == expected[key]:
            solved[label] += 1
    print("| " + " | ".join([key[0], key[1], expected[key]] + cell(key, "base") +
                            cell(key, "new")) + " |")
print()
print(f"Solved (answer = expected): base {solved['base']}, new {solved['new']} "
      f"of {len(order)} runs.")
