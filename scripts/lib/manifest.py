"""`scripts/bench manifest`: measure the columns of benchmarks/added/MANIFEST.tsv.

Each row names its instance by source (`repo`, `commit`, `encoding_path`, `instance_path`; the
`source` column repeats them as owner/repo@commit7:path, as the shared manifest writes it). This
command materialises each row's files (scripts/lib/prepare.py), grounds them with gringo to
smodels and fills the shared manifest's columns (meanings: ../shared/benchmarks/README.md):
ground_rules, ground_atoms, rule_types, smodels_type_counts, tight, smodels_bytes from the smodels
text; clingo_result, clingo_s, tight_clasp_after_preproc from clingo 5.8 (`python3 -m clingo
--stats -q --time-limit=L GROUND`, one thread, one run at a time, on the cache's ground file that
`scripts/bench run` reads too — so, unlike the shared manifest's, without grounding;
clingo_s is its wall `Time`, clingo_cpu_s its `CPU Time`, which a loaded machine inflates less).

Invariant: every number in the manifest comes from a run of this command; rows already measured
are kept unless --remeasure.
"""

import collections
import lzma
import os
import re
import shlex
import shutil
import subprocess
import tempfile

import common as bc
import prepare
import sets

COLUMNS = ["class", "instance", "ground_rules", "ground_atoms", "rule_types", "tight",
           "clingo_result", "clingo_s", "source", "smodels_type_counts",
           "tight_clasp_after_preproc", "smodels_bytes", "repo", "commit", "encoding_path",
           "instance_path", "clingo_cpu_s"]
TYPE_NAMES = {1: "normal", 2: "card", 3: "choice", 5: "weight", 6: "minimize", 8: "disjunctive"}


def smodels_facts(path):
    """Rule counts by type, highest atom id and tightness of a smodels file."""
    counts = collections.Counter()
    deps = collections.defaultdict(set)
    top = 0
    with open(path) as f:
        for line in f:
            v = [int(x) for x in line.split()]
            if v == [0]:
                break
            t = v[0]
            counts[t] += 1
            if t in (1, 2):  # head, n, m, [bound], neg..., pos...
                head, n, m = v[1], v[2], v[3]
                body = v[5:] if t == 2 else v[4:]
                heads, lits, pos = [head], body[:n], body[m:n]
            elif t in (3, 8):  # k heads, n, m, neg..., pos...
                k = v[1]
                heads = v[2:2 + k]
                n, m = v[2 + k], v[3 + k]
                lits = v[4 + k:4 + k + n]
                pos = lits[m:]
            elif t == 5:  # head, bound, n, m, neg..., pos..., weights
                heads, n, m = [v[1]], v[3], v[4]
                lits = v[5:5 + n]
                pos = lits[m:]
            elif t == 6:  # 0, n, m, neg..., pos..., weights
                heads, n, m = [], v[2], v[3]
                pos = v[4:4 + n][m:]
                top = max([top] + v[4:4 + n])
                continue
            else:
                raise SystemExit("manifest: smodels rule type %d in %s" % (t, path))
            top = max([top] + heads + lits)
            for h in heads:
                if h > 1:
                    deps[h].update(pos)
        for line in f:  # symbol table, then B+ / B- lists
            tok = line.split()
            if tok and tok[0].isdigit():
                top = max(top, int(tok[0]))
    return counts, top, not has_cycle(deps)


def has_cycle(deps):
    """Does head -> positive body atom have a cycle (Kahn: what cannot be peeled is cyclic)?"""
    nodes = set(deps) | {b for bs in deps.values() for b in bs}
    indeg = dict.fromkeys(nodes, 0)
    for bs in deps.values():
        for b in bs:
            indeg[b] += 1
    stack = [a for a in nodes if indeg[a] == 0]
    seen = 0
    while stack:
        a = stack.pop()
        seen += 1
        for b in deps.get(a, ()):
            indeg[b] -= 1
            if indeg[b] == 0:
                stack.append(b)
    return seen != len(nodes)


def clingo_answer(clingo, files, limit):
    run = bc.run_measured(clingo + ["--stats", "-q", "--time-limit=%d" % limit] + files,
                          limit + 30)
    p = bc.parse_output(run["stdout"])
    t, cpu = p["stats"].get("time"), p["stats"].get("cpu_time")
    tight = re.search(r"^Tight\s*:\s*(\w+)", run["stdout"], re.M)
    tight = {"Yes": "yes", "No": "no"}.get(tight.group(1), "") if tight else ""
    opt = ",".join(str(x) for x in p["optimization"] or [])
    word = p["result"]
    if word == "OPT":
        res = "OPT=" + opt
    elif word == "SAT" and opt:
        res = "SAT(best=%s;not_proven_in_%ds)" % (opt, limit)
    elif word in ("SAT", "UNSAT"):
        res = word
    else:
        res = "UNKNOWN"
    fmt = lambda x: "%.3f" % x if x is not None else ""  # noqa: E731
    return res, fmt(t), fmt(cpu), tight


def measure(m, clingo, limit, cache):
    enc, inst = prepare.sources("added", m, cache)
    with tempfile.NamedTemporaryFile(suffix=".smodels") as sm:
        subprocess.run(["nice", "gringo", "--output=smodels", enc, inst], stdout=sm, check=True)
        counts, top, tight = smodels_facts(sm.name)
        size = os.path.getsize(sm.name)
    # clingo on the ground file every `scripts/bench run` reads (prepare's gringo output): how
    # long clingo takes varies with the ground program's atom order, not only with the problem.
    ground = os.path.join(cache, "ground", sets.ground_name(sets.instance_name(m["instance"])))
    if not os.path.exists(ground):
        prepare.ground(enc, inst, ground, 600)
    with tempfile.TemporaryDirectory() as tmp:
        plain = os.path.join(tmp, "g.aspif")
        with lzma.open(ground) as src, open(plain, "wb") as out:
            shutil.copyfileobj(src, out, 1 << 20)
        res, secs, cpu, ctight = clingo_answer(clingo, [plain], limit)
    m.update({
        "ground_rules": sum(counts.values()), "ground_atoms": top,
        "rule_types": "+".join(TYPE_NAMES[t] for t in sorted(counts)),
        "smodels_type_counts": ",".join("%d:%d" % (t, counts[t]) for t in sorted(counts)),
        "tight": "yes" if tight else "no", "smodels_bytes": size, "clingo_result": res,
        "clingo_s": secs, "clingo_cpu_s": cpu, "tight_clasp_after_preproc": ctight,
        "source": "%s@%s:%s" % (m["repo"], m["commit"][:7], m["instance_path"]),
    })


def run(args):
    rows = sets.read_tsv(args.manifest)
    clingo = shlex.split(args.clingo)
    cache = sets.cache_dir()
    for m in sets.select(rows, args.classes, args.instances):
        if m.get("clingo_result") and not args.remeasure:
            continue
        measure(m, clingo, args.time_limit, cache)
        print("%-14s %-60s %s %s s" % (m["class"], m["instance"][-60:], m["clingo_result"],
                                      m["clingo_s"]), flush=True)
        sets.write_tsv(args.manifest, rows, COLUMNS)  # after each row: a long run can stop
    return 0


def add_parser(sub):
    p = sub.add_parser("manifest", help="measure benchmarks/added/MANIFEST.tsv's columns",
                       description=__doc__,
                       formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    p.add_argument("--manifest", default=sets.ADDED_MANIFEST)
    p.add_argument("--classes")
    p.add_argument("--instances")
    p.add_argument("--time-limit", type=int, default=60)
    p.add_argument("--clingo", default="python3 -m clingo")
    p.add_argument("--remeasure", action="store_true", help="measure measured rows again")
    p.set_defaults(func=run)
