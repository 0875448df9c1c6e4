"""The search kernel's source as NVRTC compiles it (src/engine/gpu/device.rs::many_source: the
files of MANY_FILES in order, each without its `#include "..."` and `#pragma once` lines,
after a `// ---- name ----` line), for tools that show a line of it (ncu).

Usage: python3 scripts/lib/kernel_source.py [REPO] > yasmin.cu
"""
import os
import re
import sys


def source(root):
    text = open(os.path.join(root, "src/engine/gpu/device.rs")).read()
    table = text[text.index("MANY_FILES"):]
    table = table[:table.index("];")]
    pairs = re.findall(r'\(\s*"([^"]+)",\s*include_str!\("\.\./\.\./\.\./([^"]+)"\),?\s*\)',
                       table)
    assert pairs and len(pairs) == table.count("include_str!"), "MANY_FILES not understood"
    out = []
    for name, path in pairs:
        out.append("\n// ---- %s ----" % name)
        for line in open(os.path.join(root, path)).read().splitlines():
            t = line.lstrip()
            if t.startswith('#include "') or t.startswith("#pragma once"):
                continue
            out.append(line)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(source(sys.argv[1] if len(sys.argv) > 1 else "."))
