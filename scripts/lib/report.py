"""`scripts/bench report`: benchmarks/results/README.md, HISTORY.md and their plots, from raw rows.

Inputs (all under benchmarks/results/): RUNS.tsv, one line per cited run (`file`: its rows
files under rows/, comma-separated, read in order; `title`; `within`: the limits in seconds to
count "solved within"; `machine`: for rows that do not name theirs; `text`: what ran, one
paragraph); the rows files themselves (format: ROWS.md); HISTORY.tsv (earlier result files that
live in git history, with the fact each held); checks/ and profiles/ (correctness checks that
are no solver runs, and profile shares; one file each, listed with its first line).

Outputs: README.md (a short introduction; `## Current`: four questions, each answered from the
newest runs whose rows hold both of its columns, see QUESTIONS and NAMES; the checks, the
profiles, the runs Current uses and the classes), HISTORY.md (every run's section, newest
first, and the earlier results in git history) and plots/*.svg (matplotlib; without it the
tables are written and the plots left as they are).

Invariant: every number in the report is computed from a row; nothing is estimated. Per run an
(instance, configuration) pair counts once (the first row read). A row counts as solved within S
seconds when its verdict is ok and its wall time is at most S (and at most its own limit); a row
whose answer contradicts clingo's — the manifest's reference, or clingo's row on the same instance
in the same run — is WRONG and shown in every table; the command then exits 1. PAR-2 over a set
of instances: the sum of the wall times of solved runs plus 2*S for each of the others.
"""

import argparse
import collections
import math
import os
import re
import sys

import common as bc
import sets

RESULTS = os.path.join(sets.ROOT, "benchmarks", "results")
HEADER = """# Benchmark results

Made by `scripts/bench report` from the raw rows under [`rows/`](rows) (format: [ROWS.md](ROWS.md))
and the run index [RUNS.tsv](RUNS.tsv); do not edit by hand. **Solved** within S seconds: the
answer agrees with clingo's (the manifest's reference and clingo's row on the same instance in the
same run) and came within S s, reading and preparing included; on an optimisation instance, the
optimum proved. **PAR-2**: the solved runs' wall times plus twice the limit for each unsolved one
(lower is better). **Time ratio**: the geometric mean, over the instances both solved, of one wall
time divided by the other's (below 1: the first is faster). Every run, newest first, with its
per-class tables and plots: [HISTORY.md](HISTORY.md).

To add a run: `scripts/bench run --configs ... --out benchmarks/results/rows/NAME.jsonl` (on the
GPU machine with `--kit .device/kit`, from `scripts/bench device kit`), a line for it in
RUNS.tsv, then `scripts/bench report` (matplotlib for the plots). A WRONG row (an answer that
contradicts clingo's) is listed under its table and fails the command. Current takes a run when
`NAMES` in `scripts/lib/report.py` gives its configurations plain names."""

HISTORY_HEADER = """# Benchmark results: every run

Made by `scripts/bench report` beside [README.md](README.md), whose Current section answers four
questions from the newest of these runs; do not edit by hand. One section per line of
[RUNS.tsv](RUNS.tsv), newest first (by the rows' start times): what ran, then per limit the
solved counts and PAR-2 per class, and where the rows hold them the optimisation costs, the
conflicts per second against clingo and plots. Solved and PAR-2 as README.md says; the
configurations by their names in the rows (`scripts/bench run --help`)."""


def load(paths, machine=""):
    """The rows of one run (its files in order), one per (instance, configuration)."""
    import json
    seen = collections.OrderedDict()
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    r.setdefault("machine", machine)
                    seen.setdefault((r["instance"], r["config"]), r)
    rows = list(seen.values())
    recheck(rows)
    return rows


def recheck(rows):
    """The verdict again: against the reference answer and clingo's rows of the same run."""
    ref = {r["instance"]: (r["result"], r.get("optimization")) for r in rows
           if r["solver"] == "clingo" and r["result"] in ("SAT", "UNSAT", "OPT")}
    for r in rows:
        asked = bc.is_optimisation(r["expected"]) and r.get("models_asked") == 0
        v = bc.verdict(r["result"], r["expected"], r.get("optimization"), None, asked)
        c = ref.get(r["instance"])
        if v == "ok" and c:
            v = bc.verdict(r["result"], c[0], r.get("optimization"), c[1], asked)
        r["verdict"] = "WRONG" if "WRONG" in (r["verdict"], v) else v
        r["ok"] = r["verdict"] == "ok"


def solved(r, s):
    return r is not None and r["ok"] and r["wall_s"] <= min(s, r["time_limit"] + 1)


def order(configs):
    return sorted(configs, key=lambda c: (not c.startswith("clingo"), c.startswith("gpu"), c))


def matrix(rows):
    """configs (those run on every instance of the run), classes, {(inst, cfg): row}."""
    cell = {(r["instance"], r["config"]): r for r in rows}
    insts = {r["instance"] for r in rows}
    configs = order({r["config"] for r in rows})
    full = [c for c in configs if all((i, c) in cell for i in insts)]
    return full or configs, sorted({r["class"] for r in rows}), cell


def class_table(rows, s):
    configs, classes, cell = matrix(rows)
    head = "| class | n | " + " | ".join("`%s`" % c for c in configs) + " | " + \
        " | ".join("PAR-2 `%s`" % c for c in configs) + " | fastest |"
    out = [head, "|---|---:|" + "---:|" * (2 * len(configs)) + "---|"]
    tot, ptot, wrong = collections.Counter(), collections.Counter(), []
    for k in classes:
        insts = sorted({r["instance"] for r in rows if r["class"] == k})
        n = {c: sum(solved(cell.get((i, c)), s) for i in insts) for c in configs}
        par = {c: sum(cell[(i, c)]["wall_s"] if solved(cell.get((i, c)), s) else 2 * s
                      for i in insts) for c in configs}
        for c in configs:
            tot[c] += n[c]
            ptot[c] += par[c]
        wrong += [cell[(i, c)] for i in insts for c in configs
                  if (i, c) in cell and cell[(i, c)]["verdict"] == "WRONG"]
        best = min(configs, key=lambda c: (-n[c], par[c]))
        out.append("| %s | %d | %s | %s | %s |" % (
            k, len(insts), " | ".join(str(n[c]) for c in configs),
            " | ".join("%.0f" % par[c] for c in configs), best if n[best] else "—"))
    n_all = len({r["instance"] for r in rows})
    out.append("| **total** | %d | %s | %s | |" % (
        n_all, " | ".join("**%d**" % tot[c] for c in configs),
        " | ".join("**%.0f**" % ptot[c] for c in configs)))
    out += ["", "Wrong answers: %d%s." % (len(wrong), "".join(
        " — **WRONG** `%s` on %s (%s, expected %s)" % (r["config"], r["instance"], r["result"],
                                                      r["expected"]) for r in wrong))]
    return out, tot


def cost(c):
    return ",".join(str(x) for x in c) if c else "—"


def at(r, s):
    """What row r had within s seconds: `OPT c` (optimum proved), the best cost printed by then
    (read off its trajectory: each model's time and cost), or `—`."""
    if r is None:
        return "—"
    if solved(r, s):
        return "**OPT %s**" % cost(r.get("optimization"))
    best = [c for t, c in r.get("trajectory", []) if t <= s]
    return cost(best[-1]) if best else "—"


def opt_table(rows, within):
    """Optimisation instances: per configuration the first model (cost at time), the last
    (time to best), and what it had within each limit; one run's rows answer every limit up to
    its own, since no solver here plans by its limit."""
    configs, _, cell = matrix(rows)
    insts = sorted({r["instance"] for r in rows if r.get("trajectory")
                    or bc.is_optimisation(r["expected"])})
    if not any(r.get("trajectory") for r in rows):
        return []
    head = "| instance | clingo's manifest | " + " | ".join(
        "`%s` first | `%s` best | %s" % (c, c, " | ".join("`%s` %g s" % (c, x) for x in within))
        for c in configs) + " |"
    out = [head, "|---|---|" + "---|" * (len(configs) * (2 + len(within)))]
    for i in insts:
        cells = []
        for c in configs:
            r = cell.get((i, c))
            tr = (r or {}).get("trajectory", [])
            first = "%s @ %.1f s" % (cost(tr[0][1]), tr[0][0]) if tr else "—"
            best = "%s @ %.1f s" % (cost(tr[-1][1]), tr[-1][0]) if tr else "—"
            cells += [first, best] + [at(r, x) for x in within]
        name = i.split("/")[-1].replace(".lp", "")
        expected = next(r["expected"] for r in rows if r["instance"] == i)
        out.append("| %s | %s | %s |" % (name, expected, " | ".join(cells)))
    return out


def stat_rate(r, key):
    if r is None or key not in r.get("stats", {}):
        return None
    secs = r["stats"].get("search_s") or r["wall_s"]
    return r["stats"][key] / secs if secs else None


def median(xs):
    """The middle value (the upper one of an even count), as every table here takes it."""
    xs = sorted(xs)
    return xs[len(xs) // 2]


def speed_table(rows):
    """Conflicts per second of search, the host engine on one thread (engine cpu, threads 1)
    against clingo (one thread), per instance both searched for at least a second (their own
    search times: ours `Search time`, clingo's `Solving:`): per class the median ratio, and the
    median over all. Only rows that hold both search times (clingo's since 2026-11-25). Two
    more rows read issue 22's acceptance 1 off the run: the median over the shared decision
    instances alone (rows with `set` shared and a SAT/UNSAT answer expected) and the lowest
    class median among them."""
    configs, classes, cell = matrix(rows)
    ours = [c for c in configs if all(
        r.get("solver") == "yasmin-rs" and r.get("engine") == "cpu" and r.get("threads") == 1
        for r in rows if r["config"] == c)]
    if "clingo" not in configs or not ours:
        return []

    def rate(r):
        st = (r or {}).get("stats", {})
        secs = st.get("search_s")
        if not secs or secs < 1 or "conflicts" not in st:
            return None
        return st["conflicts"] / secs

    out = ["| class | " + " | ".join("`%s` ÷ clingo (n)" % c for c in ours) + " |",
           "|---|" + "---:|" * len(ours)]
    def shared_decision(r):
        return r.get("set") == "shared" and r.get("expected") in ("SAT", "UNSAT")

    overall = {c: [] for c in ours}
    shared = {c: {} for c in ours}  # config -> class -> ratios on shared decision instances
    for k in classes:
        cells = []
        for c in ours:
            xs = []
            for i in sorted({r["instance"] for r in rows if r["class"] == k}):
                a, b = rate(cell.get((i, c))), rate(cell.get((i, "clingo")))
                if a and b:
                    xs.append(a / b)
                    if shared_decision(cell[(i, "clingo")]):
                        shared[c].setdefault(k, []).append(a / b)
            overall[c] += xs
            cells.append("%.2f (%d)" % (median(xs), len(xs)) if xs else "—")
        out.append("| %s | %s |" % (k, " | ".join(cells)))
    if not any(overall.values()):
        return []
    out.append("| **median** | %s |" % " | ".join(
        "**%.2f** (%d)" % (median(overall[c]), len(overall[c])) if overall[c] else "—"
        for c in ours))
    if any(shared.values()):
        meds, lows = [], []
        for c in ours:
            xs = [x for v in shared[c].values() for x in v]
            meds.append("%.2f (%d)" % (median(xs), len(xs)) if xs else "—")
            low = min(shared[c].items(), key=lambda kv: median(kv[1]), default=None)
            lows.append("%s %.2f" % (low[0], median(low[1])) if low else "—")
        out.append("| median, shared decision instances | %s |" % " | ".join(meds))
        out.append("| lowest class, shared decision instances | %s |" % " | ".join(lows))
    return out


def res_fwd_table(rows):
    """The paper's metrics, res vs fwd on one engine: medians over the instances both ran."""
    configs, _, cell = matrix(rows)
    out = []
    for eng in ("gpu", "cpu"):
        res = next((c for c in configs if c == eng + ":res"), None)
        fwd = next((c for c in configs if c == eng + ":fwd"), None)
        if not (res and fwd):
            continue
        insts = sorted({i for i, c in cell if c == res} & {i for i, c in cell if c == fwd})
        out += ["| metric (median over %d instances) | `%s` | `%s` |" % (len(insts), res, fwd),
                "|---|---:|---:|"]
        for name, fn in (("propagations/s", lambda r: stat_rate(r, "propagations")),
                         ("decisions/s", lambda r: stat_rate(r, "decisions")),
                         ("conflicts/s", lambda r: stat_rate(r, "conflicts")),
                         ("learned nogoods/s", lambda r: stat_rate(r, "learned")),
                         ("average learned length",
                          lambda r: r and r["stats"].get("avg_learned_len"))):
            vals = []
            for c in (res, fwd):
                xs = [v for v in (fn(cell.get((i, c))) for i in insts) if v]
                vals.append("%.3g" % median(xs) if xs else "—")
            out.append("| %s | %s | %s |" % (name, vals[0], vals[1]))
        out.append("")
    return out


def plot_run(rows, stem, title, s, plt):
    """plots/<stem>-cactus.svg and plots/<stem>-classes.svg; returns their paths."""
    configs, classes, cell = matrix(rows)
    os.makedirs(os.path.join(RESULTS, "plots"), exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for c in configs:
        times = sorted(r["wall_s"] for (i, cc), r in cell.items() if cc == c and solved(r, s))
        ax.step([0] + times, range(len(times) + 1), where="post", label=c,
                lw=2.2 if c.startswith("clingo") else 1.5)
    ax.set_xlabel("wall time (s)")
    ax.set_ylabel("instances solved")
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlim(0, s)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title("%s: solved within t (of %d)" % (title, len({r["instance"] for r in rows})),
                 fontsize=10)
    fig.tight_layout()
    cactus = os.path.join("plots", stem + "-cactus.svg")
    fig.savefig(os.path.join(RESULTS, cactus), metadata={"Date": None})
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(min(12, 3 + 0.13 * len(classes) * len(configs)), 3.8))
    w = 0.8 / max(1, len(configs))
    for j, c in enumerate(configs):
        frac = []
        for k in classes:
            insts = {r["instance"] for r in rows if r["class"] == k}
            frac.append(sum(solved(cell.get((i, c)), s) for i in insts) / len(insts))
        ax.bar([x + j * w for x in range(len(classes))], frac, w, label=c)
    ax.set_xticks([x + w * (len(configs) - 1) / 2 for x in range(len(classes))])
    ax.set_xticklabels(classes, rotation=40, ha="right", fontsize=8)
    ax.set_ylabel("fraction solved within %g s" % s)
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    ax.set_title(title + ": per class", fontsize=10)
    fig.tight_layout()
    bars = os.path.join("plots", stem + "-classes.svg")
    fig.savefig(os.path.join(RESULTS, bars), metadata={"Date": None})
    plt.close(fig)
    return cactus, bars


def slugs(titles):
    """GitHub's anchors for the headings `titles`, in order: lower case, punctuation dropped,
    spaces as hyphens, a repeated one with -1, -2, ..."""
    seen, out = collections.Counter(), []
    for t in titles:
        base = re.sub(r"[^\w\- ]", "", t.strip().lower()).replace(" ", "-")
        out.append(base if not seen[base] else "%s-%d" % (base, seen[base]))
        seen[base] += 1
    return out


def newest(rows):
    """The latest start time among a run's rows (ISO text, so it sorts)."""
    return max((r.get("when", "") for r in rows), default="")


def dates(rows):
    when = sorted(r.get("when", "")[:10] for r in rows if r.get("when"))
    if not when:
        return "—"
    return when[0] if when[0] == when[-1] else "%s – %s" % (when[0], when[-1])


def runs_table(runs, link):
    """runs: [(number, RUNS.tsv line, rows)]; link(number): its section's address."""
    out = ["| # | rows | machine | when | configurations | limit (s) | instances | rows |",
           "|---:|---|---|---|---|---:|---:|---:|"]
    for j, run, rows in runs:
        machines = sorted({r["machine"] for r in rows})
        out.append("| [%d](%s) | %s | %s | %s | %s | %s | %d | %d |" % (
            j, link(j), ", ".join("[`%s`](rows/%s)" % (f, f) for f in run["file"].split(",")),
            "; ".join(m for m in machines if m) or "—", dates(rows),
            ", ".join("`%s`" % c for c in order({r["config"] for r in rows})),
            "/".join(str(x) for x in sorted({r["time_limit"] for r in rows})),
            len({r["instance"] for r in rows}), len(rows)))
    return out


def classes_table(runs):
    """Every class of the two manifests: what it is and which runs have rows of it (by number:
    the run's line in RUNS.tsv)."""
    out = ["| class | set | n | rule types | tight | clingo answers | clingo s | rows in runs |",
           "|---|---|---:|---|---|---|---|---|"]
    by = collections.OrderedDict()
    for which, m in sets.manifests():
        by.setdefault((m["class"], which), []).append(m)
    for (k, which), ms in by.items():
        answers = collections.Counter(
            "best, not proved" if m["clingo_result"].startswith("SAT(best") else
            m["clingo_result"].split("=")[0] for m in ms)
        secs = sorted(float(m["clingo_s"]) for m in ms if m.get("clingo_s"))
        cited = [str(j + 1) for j, (_, rows) in enumerate(runs) if any(r["class"] == k
                                                                        for r in rows)]
        gpu = any(r["class"] == k and r.get("engine") in ("gpu", "auto")
                  for _, rows in runs for r in rows)
        out.append("| %s | %s | %d | %s | %s | %s | %s | %s |" % (
            k, which, len(ms), " ".join(sorted({m["rule_types"] for m in ms})),
            "/".join(sorted({m["tight"] for m in ms})),
            ", ".join("%d %s" % (n, a) for a, n in sorted(answers.items())),
            "%.2f–%.2f" % (secs[0], secs[-1]) if secs else "—",
            (", ".join(cited) or "none") + ("" if gpu else "; not yet run on the GPU machine")))
    return out


def files_section(folder, title, blurb):
    """A section listing each file under `folder` (of benchmarks/results/) with its first line
    (what, where, when): checks/ holds correctness checks that are no solver runs (the GPU
    kernels under compute-sanitizer), profiles/ where the time goes (profile shares)."""
    d = os.path.join(RESULTS, folder)
    names = sorted(os.listdir(d)) if os.path.isdir(d) else []
    if not names:
        return []
    text = ["", "## " + title, "", blurb, ""]
    for n in names:
        with open(os.path.join(d, n)) as f:
            first = f.readline().strip().lstrip("# ")
        text.append("- [`%s`](%s/%s): %s" % (n, folder, n, first))
    return text


# Current: four questions, each answered from the newest runs whose rows hold both its columns.
# The plain names a newcomer reads in its tables and plots:
DEFAULT = "yasmin-rs default (GPU + 16 host threads)"
HOST1 = "host engine, 1 thread"
HOST16 = "host engine, 16 threads"
GPU = "GPU engine alone"
CLINGO1 = "clingo 5.8, 1 thread"
CLINGO16 = "clingo 5.8, 16 threads"


def _one_gpu_16_cores(r):
    m = r.get("machine", "")
    return "16 cores, 1 x " in m or "16 CPUs and one GPU" in m


# What each plain name claims, checked on every row of a configuration before the name is given
# to it: a run whose rows disagree answers no question under that name.
MEANS = {
    DEFAULT: lambda r: r.get("solver") == "yasmin-rs" and r.get("engine") == "auto"
    and _one_gpu_16_cores(r),
    HOST1: lambda r: r.get("solver") == "yasmin-rs" and r.get("engine") == "cpu"
    and r.get("threads") == 1,
    HOST16: lambda r: r.get("solver") == "yasmin-rs" and r.get("engine") == "cpu"
    and r.get("threads") == 16,
    GPU: lambda r: r.get("solver") == "yasmin-rs" and r.get("engine") == "gpu",
    CLINGO1: lambda r: r.get("solver") == "clingo" and r.get("threads") == 1,
    CLINGO16: lambda r: r.get("solver") == "clingo" and r.get("threads") == 16,
}

# Configuration (as `scripts/bench run` names it) -> plain name, in every run; a key
# (rows file, configuration) holds for that run alone and wins. None: in that run the name is a
# variant measured and not kept, so the run answers no question with it. Add a line here when a
# run's main-code configuration has another name (e.g. `before` / `after` runs).
NAMES = {
    "auto:default": DEFAULT,
    "cpu:default": HOST1,
    "cpu:default:t16": HOST16,
    "gpu:default": GPU,
    "clingo": CLINGO1,
    "clingo-t16": CLINGO16,
    ("pool-h200-60s.jsonl", "cpu:default"): None,  # the pool without its prefetches
    ("pool-h200-60s.jsonl", "pf"): HOST1,
    ("pool-h200-60s-run3.jsonl", "cpu:default"): None,  # d1dfc98: a prefetch, reverted
    ("pool-h200-60s-run3.jsonl", "pool"): HOST1,
}

# What Current says beside a run it takes (words only: numbers come from the rows).
NOTES = {
    ("pool-h200-60s.jsonl", "pf"): "`pf` is df9c1fa's code (the pool and its prefetches); "
    "the run's `cpu:default` is the pool without the prefetches",
    ("pool-h200-60s-run3.jsonl", "pool"): "the host engine is the run's `pool`, df9c1fa's "
    "binary (main's search code); its `cpu:default`, d1dfc98, added a prefetch that was reverted",
    "whole-machine-four-h200x4-60s.jsonl": "four runs at a time on one host, one per slot: they "
    "share its memory system, so times are not quite those of a one-GPU machine",
}

QUESTIONS = [
    {"key": "whole-machine", "kind": "all", "min": 100, "plots": ("cactus", "scatter"),
     "title": "(a) The whole machine: the default against clingo on 16 threads",
     "ask": "yasmin-rs as it runs by default (`--engine=auto`: the GPU engine's searches beside "
     "16 host threads, on a machine of one GPU and 16 cores) against clingo on the same 16 "
     "cores.",
     "pairs": [(DEFAULT, CLINGO16, (10, 60))]},
    {"key": "one-thread", "kind": "all", "min": 100, "plots": ("cactus",),
     "title": "(b) One host thread against clingo on one thread",
     "ask": "The host engine alone on one thread (`--engine=cpu -t 1`) against clingo on one "
     "thread: the search core, core for core.",
     "pairs": [(HOST1, CLINGO1, (10, 60))]},
    {"key": "gpu-host16", "kind": "all", "min": 100, "plots": ("cactus",),
     "title": "(c) The GPU engine alone against the host engine on 16 threads",
     "ask": "The two members of the default apart: the GPU engine alone (`--engine=gpu`) "
     "against the host engine on 16 threads (`--engine=cpu -t 16`).",
     "pairs": [(GPU, HOST16, (10, 60))]},
    {"key": "optimisation", "kind": "optimisation", "min": 10, "plots": (),
     "title": "(d) Optimisation: optima proved and best costs against clingo",
     "ask": "The optimisation instances alone, asked for the optimum (`-n 0`): how many each "
     "proves optimal, and on each instance whose best cost by the limit differs, which is "
     "lower.",
     "pairs": [(DEFAULT, CLINGO16, (10, 60)), (HOST1, CLINGO1, (10, 60, 300))]},
]

COLOURS = {DEFAULT: "tab:blue", CLINGO16: "tab:orange", HOST1: "tab:green", CLINGO1: "tab:gray",
           HOST16: "tab:purple", GPU: "tab:red"}


def named(m, rows):
    """{plain name: configuration} of one run, as NAMES gives them and MEANS allows."""
    out, twice = {}, set()
    for c in sorted({r["config"] for r in rows}):
        name = NAMES[(m["file"], c)] if (m["file"], c) in NAMES else NAMES.get(c)
        if name and all(MEANS[name](r) for r in rows if r["config"] == c):
            if name in out:
                twice.add(name)
            out[name] = c
    return {k: v for k, v in out.items() if k not in twice}


def within_of(m):
    return [float(x) for x in m["within"].split(",")]


def pick(runs, a, b, s, q):
    """The newest run (by its rows' latest start) whose rows hold a and b on at least q's
    minimum of instances (of optimisation instances, for that kind), every row with a limit of
    at least s seconds and s at most the largest limit RUNS.tsv counts the run at: a dict, or
    None."""
    best = None
    for j, m, rows in runs:
        cols = named(m, rows)
        if a not in cols or b not in cols or s > max(within_of(m)):
            continue
        ca, cb = cols[a], cols[b]
        cell = {(r["instance"], r["config"]): r for r in rows}
        insts = sorted({i for i, c in cell if c == ca} & {i for i, c in cell if c == cb})
        if q["kind"] == "optimisation":
            insts = [i for i in insts if bc.is_optimisation(cell[(i, cb)]["expected"])]
        if len(insts) < q["min"] or any(cell[(i, c)]["time_limit"] < s
                                        for i in insts for c in (ca, cb)):
            continue
        key = (newest(rows), max(within_of(m)), j)
        if best is None or key > best[0]:
            best = (key, {"j": j, "m": m, "rows": rows, "a": a, "b": b, "ca": ca, "cb": cb,
                          "insts": insts, "cell": cell, "s": s})
    return best and best[1]


def geomean_ratio(p, s):
    """Geometric mean of a's wall time / b's over the instances both solved within s: (x, n)."""
    logs = []
    for i in p["insts"]:
        ra, rb = p["cell"][(i, p["ca"])], p["cell"][(i, p["cb"])]
        if solved(ra, s) and solved(rb, s) and ra["wall_s"] > 0 and rb["wall_s"] > 0:
            logs.append(math.log(ra["wall_s"] / rb["wall_s"]))
    return (math.exp(sum(logs) / len(logs)), len(logs)) if logs else (None, 0)


def best_cost(r, s):
    """The cost row r had within s seconds (the proved optimum, or its trajectory's last cost
    by then) as a tuple, or None."""
    if r is None:
        return None
    if solved(r, s) and r.get("optimization"):
        return tuple(r["optimization"])
    tr = [c for t, c in r.get("trajectory", []) if t <= s]
    return tuple(tr[-1]) if tr else None


SETS = ("shared", "added")


def by_set(p, c, s):
    """Solved within s per set and over all, as 'x / n' cells, and the count over all."""
    cells = []
    for k in SETS + (None,):
        insts = [i for i in p["insts"] if k is None or p["cell"][(i, c)].get("set") == k]
        x = sum(solved(p["cell"][(i, c)], s) for i in insts)
        cells.append("%d / %d" % (x, len(insts)) if insts else "—")
    return cells, x


def current_rows(p, s, kind):
    """The two table rows (a's, b's) of one pick at limit s."""
    (ca_cells, xa), (cb_cells, xb) = by_set(p, p["ca"], s), by_set(p, p["cb"], s)
    if xa != xb:  # the larger count over all in bold
        win = ca_cells if xa > xb else cb_cells
        win[-1] = "**%s**" % win[-1]
    ratio, n = geomean_ratio(p, s)
    ratio = "%.2f (%d)" % (ratio, n) if n else "—"
    if kind == "all":
        par = [sum(p["cell"][(i, c)]["wall_s"] if solved(p["cell"][(i, c)], s) else 2 * s
                   for i in p["insts"]) for c in (p["ca"], p["cb"])]
        return ["| %s | %g s | %s | %.0f | %s |" % (p["a"], s, " | ".join(ca_cells), par[0], ratio),
                "| %s | %g s | %s | %.0f | |" % (p["b"], s, " | ".join(cb_cells), par[1])]
    lower, same = collections.Counter(), 0
    for i in p["insts"]:
        ka, kb = (best_cost(p["cell"][(i, c)], s) for c in (p["ca"], p["cb"]))
        if ka is not None and ka == kb:
            same += 1
        elif ka is not None and (kb is None or ka < kb):
            lower["a"] += 1
        elif kb is not None:
            lower["b"] += 1
    return ["| %s | %g s | %s | %d | %d | %s |" % (p["a"], s, " | ".join(ca_cells), lower["a"],
                                                   same, ratio),
            "| %s | %g s | %s | %d | | |" % (p["b"], s, " | ".join(cb_cells), lower["b"])]


def cactus_current(q, picks, plt, path):
    """Solved within t, the first pair's runs: one curve per column and run (the newest solid)."""
    runs = collections.OrderedDict()
    for p in sorted(picks, key=lambda p: p["s"]):
        runs[p["j"]] = p  # the largest limit each run answers
    top = max(p["s"] for p in picks)
    latest = max(runs.values(), key=lambda p: newest(p["rows"]))["j"]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ns = set()
    for j, p in runs.items():
        for name, c in ((p["a"], p["ca"]), (p["b"], p["cb"])):
            times = sorted(p["cell"][(i, c)]["wall_s"] for i in p["insts"]
                           if solved(p["cell"][(i, c)], p["s"]))
            label = name if len(runs) == 1 else "%s, run of %s (to %g s)" % (
                name, dates(p["rows"]), p["s"])
            ax.step([0] + times, range(len(times) + 1), where="post", label=label,
                    color=COLOURS.get(name), lw=2 if j == latest else 1.4,
                    ls="-" if j == latest else "--")
        ns.add(len(p["insts"]))
    for s in sorted({p["s"] for p in picks})[:-1]:
        ax.axvline(s, color="gray", lw=0.6, ls=":")
    ax.set_xlabel("wall time (s)")
    ax.set_ylabel("instances solved" + (" (of %d)" % ns.pop() if len(ns) == 1 else ""))
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlim(0, top)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(q["title"].split(") ", 1)[-1] + ": solved within t", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(RESULTS, path), metadata={"Date": None})
    plt.close(fig)


def scatter_current(q, picks, plt, path):
    """Per instance, a's wall time against b's, the newest pick of the first pair; unsolved at
    the right or top edge."""
    p = max(picks, key=lambda p: (newest(p["rows"]), p["s"]))
    s, edge = p["s"], p["s"] * 1.6
    fig, ax = plt.subplots(figsize=(5.2, 5.0))
    for k, colour in zip(SETS, ("tab:blue", "tab:orange")):
        pts = []
        for i in p["insts"]:
            ra, rb = p["cell"][(i, p["ca"])], p["cell"][(i, p["cb"])]
            if ra.get("set") == k:
                pts.append((rb["wall_s"] if solved(rb, s) else edge,
                            ra["wall_s"] if solved(ra, s) else edge))
        if pts:
            ax.scatter([x for x, _ in pts], [y for _, y in pts], s=14, alpha=0.7, c=colour,
                       label="%s instances (%d)" % (k, len(pts)))
    walls = [p["cell"][(i, c)]["wall_s"] for i in p["insts"] for c in (p["ca"], p["cb"])]
    lo = 10 ** math.floor(math.log10(max(0.001, min(walls))))
    ax.plot([lo, edge], [lo, edge], color="black", lw=0.8)
    for line in (ax.axvline, ax.axhline):
        line(s, color="gray", lw=0.6, ls=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, edge * 1.2)
    ax.set_ylim(lo, edge * 1.2)
    ax.set_xlabel("%s: wall time (s)" % p["b"], fontsize=9)
    ax.set_ylabel("%s: wall time (s)" % p["a"], fontsize=9)
    ax.legend(fontsize=8, loc="lower right", title="below the diagonal: %s faster;\n"
              "past the dotted lines: unsolved in %g s" % (p["a"].split(" (")[0], s),
              title_fontsize=7)
    ax.set_title("%s:\nper instance, run of %s" % (q["title"].split(") ", 1)[-1], dates(p["rows"])),
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(RESULTS, path), metadata={"Date": None})
    plt.close(fig)


def current_section(runs, link, plt):
    """README.md's Current section: (lines, the run numbers it used, the plots it drew)."""
    text = ["", "## Current", "",
            "Four questions, each answered at each limit from the newest run whose rows hold "
            "both of its columns there (a run with a 60 s limit answers 10 s too); the lines "
            "under each table name the runs. Solved: `solved / instances`, the larger total in "
            "bold. Time ratio: the first row's wall time over the second's (geometric mean, "
            "in brackets the instances both solved; below 1: the first is faster).", ""]
    used, drawn = set(), []
    for q in QUESTIONS:
        text += ["### " + q["title"], "", q["ask"], ""]
        if q["kind"] == "all":
            head = ["| | limit | solved: shared | solved: added | solved: all | PAR-2, all (s) | "
                    "time ratio (both solved) |", "|---|---|---:|---:|---:|---:|---:|"]
        else:
            head = ["| | limit | proved optimal: shared | proved optimal: added | proved "
                    "optimal: all | lower best cost by the limit | same best cost | time ratio "
                    "(both proved) |", "|---|---|---:|---:|---:|---:|---:|---:|"]
        picks, missing, notes, table = [], [], [], []
        for a, b, limits in q["pairs"]:
            mine, gaps = [], []
            for s in limits:
                p = pick(runs, a, b, s, q)
                if p is None:
                    gaps.append("%g s" % s)
                    continue
                table += current_rows(p, s, q["kind"])
                mine.append(p)
            if gaps:
                at = " or ".join([", ".join(gaps[:-1])] * (len(gaps) > 1) + gaps[-1:])
                missing.append("No run holds %s and %s on at least %d %sinstances at %s: no "
                               "row here for %s." % (
                                   a, b, q["min"], "optimisation " * (q["kind"] != "all"), at,
                                   "it" if len(gaps) == 1 else "them"))
            picks += mine
            if not mine:
                continue
            newest_p = max(mine, key=lambda p: (newest(p["rows"]), p["j"]))
            for p in mine:
                if p["j"] != newest_p["j"]:
                    notes.append("The %g s rows%s come from run [%d](%s): the newer run "
                                 "[%d](%s) stops at %g s." % (
                                     p["s"], " of %s against %s" % (a, b) if len(q["pairs"]) > 1
                                     else "", p["j"], link(p["j"]), newest_p["j"],
                                     link(newest_p["j"]), max(within_of(newest_p["m"]))))
        if table:
            text += head + table + ["", "Rows:", ""]
        seen = collections.OrderedDict()
        for p in picks:
            seen.setdefault((p["j"], p["a"], p["b"]), []).append(p)
        wrong = []
        for (j, a, b), ps in seen.items():
            p = ps[0]
            m, rows = p["m"], p["rows"]
            mine = [p["cell"][(i, c)] for i in p["insts"] for c in (p["ca"], p["cb"])]
            wrong += [r for r in mine if r["verdict"] == "WRONG"]
            limits = sorted({r["time_limit"] for r in mine})
            said = [NOTES[k] for k in ((m["file"], p["ca"]), (m["file"], p["cb"]), m["file"])
                    if k in NOTES]
            text.append("- %s%s: run %d, [*%s*](%s): `%s`, its `%s` and `%s`; %s, %s, limit %s "
                        "s, %d %sinstances%s." % (
                            "%s against %s, " % (a, b) if len(q["pairs"]) > 1 else "",
                            " and ".join("%g s" % x["s"] for x in ps), j,
                            m["title"].split(":")[0], link(j), m["file"].split(",")[0], p["ca"],
                            p["cb"], m["machine"], dates(mine),
                            "/".join("%g" % x for x in limits), len(p["insts"]),
                            "optimisation " * (q["kind"] != "all"),
                            "".join("; " + n for n in said)))
            used.add(j)
        if picks:
            text += [""]
        for n in notes + missing:
            text += [n, ""]
        names = {n for a, b, _ in q["pairs"] for n in (a, b)}
        last = max((newest(p["rows"]) for p in picks), default="")
        later = []
        for j, m, rows in runs:
            if newest(rows) > last:
                cols = {n: c for n, c in named(m, rows).items() if n in names}
                if cols:
                    later.append("[%d](%s) (%s; %s s, %d instances)" % (
                        j, link(j), ", ".join("%s: `%s`" % kv for kv in sorted(cols.items())),
                        "/".join(str(x) for x in sorted({r["time_limit"] for r in rows})),
                        len({r["instance"] for r in rows})))
        if later:
            text += ["Newer runs hold only some of these columns (or too few instances), so "
                     "they answer no row here: %s." % ", ".join(later), ""]
        text += ["Wrong answers in these rows: %d%s." % (len(wrong), "".join(
            " — **WRONG** `%s` on %s (%s, expected %s)" % (r["config"], r["instance"],
                                                          r["result"], r["expected"])
            for r in wrong)), ""]
        firsts = [p for p in picks if (p["a"], p["b"]) == q["pairs"][0][:2]]
        shown = []
        for kind in q["plots"]:
            path = os.path.join("plots", "current-%s-%s.svg" % (q["key"], kind))
            if plt is not None and firsts:
                (cactus_current if kind == "cactus" else scatter_current)(q, firsts, plt, path)
            if os.path.exists(os.path.join(RESULTS, path)):
                shown.append("![%s](%s)" % ("solved within t" if kind == "cactus" else
                                            "time per instance", path))
                drawn.append(path)
        if shown:
            text += [" ".join(shown), ""]
    return text, used, drawn


def run_section(m, rows, plt):
    """One run's section of HISTORY.md: (lines, its plots)."""
    within = within_of(m)
    stem = os.path.splitext(m["file"].split(",")[0])[0]
    text = ["", "## " + m["title"], "", m["text"], ""]
    for s in within:
        tab, _ = class_table(rows, s)
        text += ["Solved within %g s, PAR-2 in seconds:" % s, ""] + tab + [""]
    ot = opt_table(rows, within)
    if ot:
        text += ["Optimisation instances (`-n 0`): the first model's cost and time, the "
                 "last model's (time to best), and within each limit the proved optimum "
                 "(**OPT**) or the best cost printed by then:", ""] + ot + [""]
    sp = speed_table(rows)
    if sp:
        text += ["Conflicts per second of search, ours on one thread ÷ clingo's, on the "
                 "instances both searched for at least 1 s (median per class):", ""] + sp + [""]
    rf = res_fwd_table(rows)
    if rf:
        text += ["The paper's metrics, resolution (`res`) against forward (`fwd`) learning "
                 "(per second of search):", ""] + rf
    if plt is not None:
        cactus, bars = plot_run(rows, stem, m["title"].split(":")[0], max(within), plt)
    else:
        cactus, bars = ("plots/%s-%s.svg" % (stem, k) for k in ("cactus", "classes"))
    if os.path.exists(os.path.join(RESULTS, cactus)):
        text += ["![cactus plot](%s) ![per class](%s)" % (cactus, bars), ""]
    return text, [cactus, bars]


def run(args):
    runs = [(j + 1, m, load([os.path.join(RESULTS, "rows", f) for f in m["file"].split(",")],
                            m.get("machine", "")))
            for j, m in enumerate(sets.read_tsv(os.path.join(RESULTS, "RUNS.tsv")))]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        matplotlib.rcParams["svg.hashsalt"] = "yasmin"  # the same rows give the same SVG
    except ImportError:
        plt = None
        print("report: no matplotlib (pip install matplotlib): plots left as they are",
              file=sys.stderr)
    wrong = sum(r["verdict"] == "WRONG" for _, _, rows in runs for r in rows)
    hist = os.path.join(RESULTS, "HISTORY.tsv")
    earlier = sets.read_tsv(hist) if os.path.exists(hist) else []
    by_age = sorted(runs, key=lambda t: (newest(t[2]), t[0]), reverse=True)
    heads = [HISTORY_HEADER.splitlines()[0].lstrip("# "), "Runs"] + \
        [m["title"] for _, m, _ in by_age] + ["Earlier results (in git history)"] * bool(earlier)
    anchor = dict(zip([j for j, _, _ in by_age], slugs(heads)[2:]))

    # HISTORY.md: every run, newest first.
    history = HISTORY_HEADER.splitlines() + [
        "", "## Runs", "", "Newest first; # is the run's line in RUNS.tsv (README.md's Classes "
        "table cites runs by it) and a link to its section:", ""]
    history += runs_table(by_age, lambda j: "#" + anchor[j])
    drawn = set()
    for j, m, rows in by_age:
        sec, plots = run_section(m, rows, plt)
        history += sec
        drawn.update(plots)
    if earlier:
        history += ["## Earlier results (in git history)", "",
                    "Superseded result files, read with `git show COMMIT:PATH`:", "",
                    "| what | fact it holds | `git show` |", "|---|---|---|"]
        for h in earlier:
            history.append("| %s | %s | `%s:%s` |" % (h["what"], h["fact"], h["commit"],
                                                     h["path"]))
        history.append("")

    # README.md: what holds now.
    def link(j):
        return "HISTORY.md#" + anchor[j]
    current, used, plots = current_section(runs, link, plt)
    drawn.update(plots)
    while current and not current[-1]:
        current.pop()
    text = HEADER.splitlines() + current
    text += files_section("checks", "Checks",
                          "Correctness checks that are not solver runs, one file each:")
    text += files_section("profiles", "Profiles",
                          "Where the time goes, per part of the engine, one file each:")
    text += ["", "## Runs", "", "The runs Current takes its rows from (every run: "
             "[HISTORY.md](HISTORY.md#runs)); # is the run's line in RUNS.tsv and a link to its "
             "section in HISTORY.md:", ""]
    text += runs_table([t for t in by_age if t[0] in used], link)
    text += ["", "## Classes", "", "Both manifests' classes, their instances' clingo answers and "
             "times as the manifests give them (the shared set: clingo 5.4.1; the added one: "
             "clingo 5.8.3), and the runs (by number: [HISTORY.md's Runs table](HISTORY.md#runs)) "
             "that hold rows of them. The shared classes are `$BENCH_DIR`'s (e.g. "
             "`../shared/benchmarks` beside the clone), the added ones "
             "[`../added/MANIFEST.tsv`](../added/MANIFEST.tsv)'s; `scripts/bench prepare` grounds "
             "both.", ""]
    text += classes_table([(m, rows) for _, m, rows in runs])
    if plt is not None:
        # Plots of runs RUNS.tsv no longer lists (their rows left for git history) go too.
        for f in sorted(os.listdir(os.path.join(RESULTS, "plots"))):
            if f.endswith(".svg") and os.path.join("plots", f) not in drawn:
                os.remove(os.path.join(RESULTS, "plots", f))
    for name, lines in (("README.md", text), ("HISTORY.md", history)):
        with open(os.path.join(RESULTS, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    print("report: wrote %s and HISTORY.md (%d runs, %d rows, %d WRONG)" % (
        os.path.join(RESULTS, "README.md"), len(runs), sum(len(r) for _, _, r in runs), wrong))
    return 1 if wrong else 0


def add_parser(sub):
    p = sub.add_parser("report", help="benchmarks/results/README.md, HISTORY.md and plots from "
                       "the rows", description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=run)
