"""Warp stall samples of the search kernel per source line and per kernel function, from
Nsight Compute's CUDA source view (`ncu -i R --page source --csv --print-source cuda`, as
scripts/lib/ncu-source.sh writes it): the share of all samples, and each line's two main
stall reasons (long_sb: waiting on a global or local load; wait: a fixed latency; ...).

A sample lands on the instruction that waits, which for a load is the first one that uses
its value: `holds(l, a)` waiting is the load of `a` it was handed.

Usage: python3 scripts/lib/ncu_lines.py NAME-lines.csv [TOP]
"""
import collections
import csv
import re
import sys


def functions(lines):
    """The kernel function each source line is in (the last definition above it)."""
    fn, cur = [], "?"
    for text in lines:
        m = re.match(r'^(?:template <[^>]*> )?(?:YS_D|YS_D_OUT|extern "C" __global__)\s+'
                     r'[\w<>:* ()]+?\b(\w+)\(', text)
        if m:
            cur = m.group(1)
        fn.append(cur)
    return fn


def main(path, top):
    rows = list(csv.reader(open(path)))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "Line No")
    cols = rows[head]
    idx = {c: i for i, c in enumerate(cols)}
    body = [r for r in rows[head + 1:] if len(r) == len(cols)]
    sample = idx.get("Warp Stall Sampling (All Samples)")
    if sample is None:
        sys.exit("%s: no stall samples (the source was not found when profiling?)" % path)
    reasons = [c for c in cols if c.startswith("stall_") and "Not Issued" not in c]
    text = [r[idx["Source"]] for r in body]
    fn = functions(text)
    total = sum(int(r[sample] or 0) for r in body) or 1
    per_fn = collections.Counter()
    lines = []
    for k, r in enumerate(body):
        s = int(r[sample] or 0)
        per_fn[fn[k]] += s
        if s:
            why = sorted(((int(r[idx[c]] or 0), c[6:]) for c in reasons), reverse=True)[:2]
            lines.append((s, int(r[idx["Line No"]]), fn[k], text[k].strip(), why))
    print("samples: %d" % total)
    print("| function | % of samples |")
    print("|---|---:|")
    for f, s in per_fn.most_common(top // 2):
        print("| %s | %.1f |" % (f, 100.0 * s / total))
    print()
    print("| line | function | source | % | main stalls |")
    print("|---:|---|---|---:|---|")
    for s, ln, f, src, why in sorted(lines, reverse=True)[:top]:
        w = ", ".join("%s %.0f%%" % (c, 100.0 * n / s) for n, c in why if n)
        print("| %d | %s | `%s` | %.1f | %s |" % (ln, f, src[:70].replace("|", "\\|"), 100.0 * s / total, w))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)
