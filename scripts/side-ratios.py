#!/usr/bin/env python3
"""Summarise a table of scripts/bench-side.sh: per learning scheme, the median (min, max) ratio
new/base of propagations per second, and of conflicts reached in the time limit over the rows
where the base run timed out (those ran for the same time).

usage: scripts/side-ratios.py SIDE.md [LIMIT_S (default 5)]"""
import statistics
import sys


def main():
    path = sys.argv[1]
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    rows = [l for l in open(path) if l.startswith("| ") and not l.startswith("| instance")]
    for learning in ("res", "fwd"):
        props, confl = [], []
        for line in rows:
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            if c[1] != learning:
                continue
            try:
                props.append(float(c[12]) / float(c[7]))
                if float(c[4]) > limit - 0.1:
                    confl.append(float(c[10]) / max(1.0, float(c[5])))
            except (ValueError, ZeroDivisionError, IndexError):
                continue  # a run without statistics
        if not props:
            continue
        line = f"{learning}: props/s new/base median {statistics.median(props):.2f} "
        line += f"(min {min(props):.2f}, max {max(props):.2f}, {len(props)} rows)"
        if confl:
            line += f"; conflicts in the limit new/base median {statistics.median(confl):.2f}"
            line += f" ({len(confl)} timed-out rows)"
        print(line)


if __name__ == "__main__":
    main()
