"""Warp stall samples of the search kernel per source line and per kernel function, from
Nsight Compute's SASS source view (`--page source --csv --print-source sass`) and the CUBIN
that ran, as scripts/lib/ncu-source.sh leaves them: each instruction is placed on its line by
the CUBIN's line table (`nvdisasm -g`), the lines are those of kernel_source.py's source. It
prints the share of all samples per function and per line, with each line's main stall
reasons (long_sb: waiting on a global or local load; wait: a fixed latency; ...).

A sample lands on the instruction that waits, which for a load is the first one that uses its
value: `holds(l, a)` waiting is the load of `a` it was handed.

Usage: python3 scripts/lib/ncu_lines.py NAME-sass.csv NAME.cubin [--top N] [--nvdisasm PATH]
(nvdisasm: the CUDA toolkit's, or PyPI's nvidia-cuda-nvdisasm wheel's bin/nvdisasm)
"""
import argparse
import collections
import csv
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_source  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def line_table(cubin, nvdisasm):
    """{offset: source line} of the instructions of search_k's text section."""
    out = subprocess.run([nvdisasm, "-g", "-c", cubin], capture_output=True, text=True).stdout
    table, cur, inside = {}, None, False
    for text in out.splitlines():
        if text.startswith("//----"):
            inside = ".text.search_k" in text
            continue
        m = re.search(r"//## File .*line (\d+)", text)
        if m:
            cur = int(m.group(1))
            continue
        m = re.match(r"\s+/\*([0-9a-f]+)\*/", text)
        if m and inside:
            table[int(m.group(1), 16)] = cur
    return table


def functions(lines):
    """The kernel function each source line (1-based) is in: the last definition above it."""
    fn, cur = [None], "?"
    for text in lines:
        m = re.match(r'^(?:template <[^>]*> )?(?:YS_D|YS_D_OUT|__device__ __forceinline__|extern "C" __global__)\s+'
                     r"[\w<>:* ()]+?\b(\w+)\(", text)
        if m:
            cur = m.group(1)
        fn.append(cur)
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("cubin")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--nvdisasm", default="nvdisasm")
    a = ap.parse_args()
    rows = list(csv.reader(open(a.csv)))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    cols = rows[head]
    idx = {c: i for i, c in enumerate(cols)}
    body = [r for r in rows[head + 1:] if len(r) == len(cols)]
    sample = idx["Warp Stall Sampling (All Samples)"]
    reasons = [c for c in cols if c.startswith("stall_") and "Not Issued" not in c]
    table = line_table(a.cubin, a.nvdisasm)
    src = kernel_source.source(ROOT).splitlines()
    fn = functions(src)
    base = int(body[0][0], 16)
    total = sum(int(r[sample] or 0) for r in body) or 1
    per_line = collections.Counter()
    why = collections.defaultdict(collections.Counter)
    placed = 0
    for r in body:
        s = int(r[sample] or 0)
        ln = table.get(int(r[0], 16) - base)
        placed += ln is not None
        per_line[ln] += s
        for c in reasons:
            if r[idx[c]] not in ("", "0"):
                why[ln][c[6:]] += int(r[idx[c]])
    per_fn = collections.Counter()
    for ln, s in per_line.items():
        per_fn[fn[ln] if ln and ln < len(fn) else "?"] += s
    print("samples: %d; instructions placed on a line: %d of %d" % (total, placed, len(body)))
    print()
    print("| function | % of samples |")
    print("|---|---:|")
    for f, s in per_fn.most_common(a.top // 2):
        print("| %s | %.1f |" % (f, 100.0 * s / total))
    print()
    print("| line | function | source | % | main stalls |")
    print("|---:|---|---|---:|---|")
    for ln, s in per_line.most_common(a.top):
        text = src[ln - 1].strip() if ln and ln <= len(src) else "?"
        w = ", ".join("%s %.0f%%" % (c, 100.0 * n / max(s, 1)) for c, n in why[ln].most_common(2))
        print("| %s | %s | `%s` | %.1f | %s |" % (ln, fn[ln] if ln and ln < len(fn) else "?",
                                                text[:70].replace("|", "\\|"), 100.0 * s / total, w))


if __name__ == "__main__":
    main()
