"""`scripts/bench large`: large generated programs (1M-20M rules), peak memory and times beside
clingo's (issue 54).

  scripts/bench large gen --dir D [--scale S]     write the programs as aspif into D
  scripts/bench large run --dir D [--out F.tsv]   run yasmin-rs and clingo on each, one at a time

Four shapes, each written straight as aspif (no grounder: gringo needs more memory and time on
them than the solvers), each with a planted model, so every one is satisfiable and the search
is short, and the run measures what the program's size costs:

  col    tight: 3-colouring of a random graph, average degree 3 (choice per node, at least one
         and at most one colour, one constraint per edge and colour)
  arb    non-tight: a spanning arborescence of a random digraph (a chosen arc per node but the
         root, reachability along chosen arcs, every node reached, at most one chosen arc into
         each node as a cardinality body)
  agg    aggregates: weight constraints (#sum bodies of 6 literals, a lower and an upper bound)
         over choice atoms, both bounds met by the planted assignment
  disj   disjunctive, head-cycle free: `a_i | b_i.` per pair and binary constraints the planted
         choice meets, plus a derived atom per pair (shifted to normal rules by the analysis)

`--scale 1` makes about 1M rules per shape (col: 3.2M); rules scale linearly. `run` measures peak
RSS (getrusage of the child, the same for both solvers), wall time, and yasmin-rs's own phase
times (`--stats`: Read, Analyse, Complete, Engine; the search is the rest) beside clingo's
(`--stats`: Time minus Solving as its preparation). One solver at a time, so that the two do not
share the machine's memory bandwidth. Rows go to a TSV file (one per solver and program).
"""

import os
import random
import re
import subprocess
import sys
import time

SHAPES = ("col", "arb", "agg", "disj")


class Aspif:
    """An aspif writer: rules, one show statement per named atom, then `0`."""

    def __init__(self, path):
        self.f = open(path, "w")
        self.f.write("asp 1 0 0\n")
        self.shows = []

    def rule(self, head, pos=(), neg=(), choice=False):
        body = list(pos) + [-a for a in neg]
        self.f.write(" ".join(map(str, [1, 1 if choice else 0, len(head)] + list(head)
                                  + [0, len(body)] + body)) + "\n")

    def weight(self, head, bound, lits):
        """`head :- bound <= #sum{w,l : l}` with `lits` a list of (literal, weight)."""
        self.f.write(" ".join(map(str, [1, 0, len(head)] + list(head) + [1, bound, len(lits)]
                                  + [x for lw in lits for x in lw])) + "\n")

    def show(self, atom, name):
        self.f.write("4 %d %s 1 %d\n" % (len(name), name, atom))

    def close(self):
        self.f.write("0\n")
        self.f.close()


def gen_col(path, scale, rng):
    """3-colouring, planted: nodes coloured at random, edges only between different colours."""
    m = int(500_000 * scale)
    n = 2 * m // 3
    colour = [rng.randrange(3) for _ in range(n)]
    w = Aspif(path)
    atom = lambda v, k: 3 * v + k + 1  # noqa: E731
    for v in range(n):
        a = [atom(v, k) for k in range(3)]
        w.rule(a, choice=True)
        w.rule([], neg=a)
        for i in range(3):
            for j in range(i + 1, 3):
                w.rule([], pos=[a[i], a[j]])
    for _ in range(m):
        u, v = rng.randrange(n), rng.randrange(n)
        while u == v or colour[u] == colour[v]:
            u, v = rng.randrange(n), rng.randrange(n)
        for k in range(3):
            w.rule([], pos=[atom(u, k), atom(v, k)])
    for v in range(min(n, 1000)):
        for k in range(3):
            w.show(atom(v, k), "c(%d,%d)" % (v, k))
    w.close()


def gen_arb(path, scale, rng):
    """Spanning arborescence rooted at node 0: a random tree planted, further random arcs."""
    n = int(125_000 * scale)
    arcs = set()
    for v in range(1, n):
        arcs.add((rng.randrange(v), v))  # the planted tree: every node reachable from 0
    while len(arcs) < 3 * n:
        u, v = rng.randrange(n), rng.randrange(1, n)
        if u != v:
            arcs.add((u, v))
    arcs = sorted(arcs)
    reach = lambda v: v + 1  # noqa: E731
    sel = {a: n + 1 + i for i, a in enumerate(arcs)}
    into = [[] for _ in range(n)]
    w = Aspif(path)
    w.rule([reach(0)])
    for (u, v), s in sel.items():
        w.rule([s], choice=True)
        w.rule([reach(v)], pos=[reach(u), s])  # r(v) :- r(u), sel(u,v): positive cycles
        into[v].append(s)
    for v in range(1, n):
        w.rule([], neg=[reach(v)])
        if len(into[v]) > 1:
            w.weight([], 2, [(s, 1) for s in into[v]])  # :- 2 { sel(_,v) }
    for v in range(min(n, 1000)):
        w.show(reach(v), "r(%d)" % v)
    w.close()


def gen_agg(path, scale, rng):
    """Weight constraints over choice atoms, planted: both bounds hold under a random model."""
    n = int(250_000 * scale)
    value = [rng.random() < 0.5 for _ in range(n)]
    w = Aspif(path)
    for v in range(n):
        w.rule([v + 1], choice=True)
    for _ in range(int(375_000 * scale)):
        lits = []
        for v in rng.sample(range(n), 6):
            lits.append((v + 1 if rng.random() < 0.7 else -(v + 1), rng.randrange(1, 6)))
        true = sum(wt for lit, wt in lits if (lit > 0) == value[abs(lit) - 1])
        total = sum(wt for _, wt in lits)
        lo, hi = rng.randint(0, true), rng.randint(true, total)
        if lo > 0:
            # :- not lo <= sum (the lower bound), as :- total-lo+1 <= the sum of the negations
            w.weight([], total - lo + 1, [(-lit, wt) for lit, wt in lits])
        if hi < total:
            w.weight([], hi + 1, lits)  # :- hi+1 <= sum (the upper bound)
    for v in range(min(n, 1000)):
        w.show(v + 1, "x(%d)" % v)
    w.close()


def gen_disj(path, scale, rng):
    """`a_i | b_i.` per pair, binary constraints met by a planted choice, `d_i :- a_i.`"""
    n = int(300_000 * scale)
    pick = [rng.random() < 0.5 for _ in range(n)]
    a = lambda i: 3 * i + 1  # noqa: E731
    b = lambda i: 3 * i + 2  # noqa: E731
    d = lambda i: 3 * i + 3  # noqa: E731
    w = Aspif(path)
    for i in range(n):
        w.rule([a(i), b(i)])
        w.rule([d(i)], pos=[a(i)])
    chosen = lambda i: a(i) if pick[i] else b(i)  # noqa: E731
    other = lambda i: b(i) if pick[i] else a(i)  # noqa: E731
    for _ in range(n + n // 3):
        i, j = rng.randrange(n), rng.randrange(n)
        if i != j:
            # forbids a pair that is not both chosen
            w.rule([], pos=[other(i), rng.choice((chosen(j), other(j)))])
    for i in range(min(n, 1000)):
        w.show(a(i), "a(%d)" % i)
    w.close()


def gen(args):
    os.makedirs(args.dir, exist_ok=True)
    for shape in args.shapes.split(","):
        path = os.path.join(args.dir, "%s-%s.aspif" % (shape, args.scale))
        start = time.time()
        globals()["gen_" + shape](path, float(args.scale), random.Random("%s/%s" % (args.seed, shape)))
        rules = sum(1 for line in open(path) if line.startswith("1 "))
        print("%s: %d rules, %.0f MB, %.1f s" % (path, rules, os.path.getsize(path) / 1e6,
                                                 time.time() - start), flush=True)


def run_one(cmd, path):
    """Run `cmd` with the file as standard input: (exit code, stdout+stderr, wall s, peak RSS
    MB), the peak the child's own (wait4's rusage: each run measured alone)."""
    start = time.time()
    with open(path) as f:
        pid = os.fork()
        if pid == 0:
            os.dup2(f.fileno(), 0)
            out = os.open(path + ".out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(out, 1)
            os.dup2(out, 2)
            try:
                os.execvp(cmd[0], cmd)
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
    wall = time.time() - start
    text = open(path + ".out").read()
    os.unlink(path + ".out")
    return os.waitstatus_to_exitcode(status), text, wall, usage.ru_maxrss / 1024


def phase_times(text):
    """yasmin-rs's `--stats` phase lines: {name: seconds}."""
    got = {}
    for m in re.finditer(r"\(yasmin-rs\): (\w+)\s*:\s*([0-9.]+)s", text):
        got[m.group(1)] = got.get(m.group(1), 0.0) + float(m.group(2))
    return got


def stat(text, key):
    m = re.search(r"^%s\s*:\s*([0-9.]+)" % re.escape(key), text, re.M)
    return float(m.group(1)) if m else None


def result(text):
    for word in ("UNSATISFIABLE", "SATISFIABLE", "UNKNOWN", "OPTIMUM FOUND"):
        if re.search(r"^%s$" % word, text, re.M):
            return word
    return "?"


def run(args):
    files = sorted(f for f in os.listdir(args.dir) if f.endswith(".aspif"))
    if args.only:
        files = [f for f in files if any(f.startswith(s) for s in args.only.split(","))]
    rows = []
    header = "program\tsolver\tthreads\tresult\trss_mb\twall_s\tprep_s\tsearch_s\tdetail"
    print(header, flush=True)
    for name in files:
        path = os.path.join(args.dir, name)
        for threads in [int(t) for t in args.threads.split(",")]:
            for solver in args.solvers.split(","):
                if solver == "yasmin":
                    cmd = [args.yasmin, "--stats", "-q", "--engine=cpu", "-t", str(threads),
                           "--time-limit=%d" % args.time_limit]
                else:
                    cmd = args.clingo.split() + ["--stats", "-q", "-t", str(threads),
                                                 "--time-limit=%d" % args.time_limit]
                code, text, wall, rss = run_one(cmd, path)
                if solver == "yasmin":
                    ph = phase_times(text)
                    prep = sum(ph.get(k, 0.0) for k in ("Read", "Analyse", "Complete", "Engine"))
                    detail = " ".join("%s=%.2f" % kv for kv in ph.items())
                else:
                    total = stat(text, "Time")
                    m = re.search(r"\(Solving: ([0-9.]+)s", text)
                    solving = float(m.group(1)) if m else None
                    prep = total - solving if total is not None and solving is not None else None
                    detail = "time=%s solving=%s" % (total, solving)
                search = wall - prep if prep is not None else None
                row = "%s\t%s\t%d\t%s\t%.0f\t%.2f\t%s\t%s\t%s" % (
                    name, solver, threads, result(text), rss, wall,
                    "%.2f" % prep if prep is not None else "-",
                    "%.2f" % search if search is not None else "-", detail)
                print(row, flush=True)
                rows.append(row)
                if code not in (10, 20, 30) and solver == "yasmin":
                    sys.stderr.write(text[-2000:])
    if args.out:
        with open(args.out, "w") as f:
            f.write(header + "\n" + "".join(r + "\n" for r in rows))


def add_parser(sub):
    import argparse
    p = sub.add_parser("large", help="large generated programs: peak memory, times beside clingo",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    s = p.add_subparsers(dest="large", required=True)
    g = s.add_parser("gen", help="write the programs")
    g.add_argument("--dir", required=True)
    g.add_argument("--scale", default="1")
    g.add_argument("--shapes", default=",".join(SHAPES))
    g.add_argument("--seed", default="54")
    g.set_defaults(func=gen)
    r = s.add_parser("run", help="run the solvers on them")
    r.add_argument("--dir", required=True)
    r.add_argument("--only", help="program name prefixes, comma-separated")
    r.add_argument("--solvers", default="yasmin,clingo")
    r.add_argument("--threads", default="1")
    r.add_argument("--yasmin", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                    "target", "release", "yasmin-rs"))
    r.add_argument("--clingo", default="python3 -m clingo")
    r.add_argument("--time-limit", type=int, default=600)
    r.add_argument("--out")
    r.set_defaults(func=run)
