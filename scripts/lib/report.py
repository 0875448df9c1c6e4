"""`scripts/bench report`: benchmarks/results/README.md and its plots, from raw rows.

Inputs (all under benchmarks/results/): RUNS.tsv, one line per cited run (`file`: its rows
files under rows/, comma-separated, read in order; `title`; `within`: the limits in seconds to
count "solved within"; `machine`: for rows that do not name theirs; `text`: what ran, one
paragraph); the rows files themselves (format: ROWS.md); HISTORY.tsv (earlier result files that
live in git history, with the fact each held); checks/ and profiles/ (correctness checks
that are no solver runs, and profile shares; one file each, listed with its first line). Outputs: README.md and plots/*.svg (matplotlib;
without it the tables are written and the plots left as they are).

Invariant: every number in the report is computed from a row; nothing is estimated. Per run an
(instance, configuration) pair counts once (the first row read). A row counts as solved within S
seconds when its verdict is ok and its wall time is at most S (and at most its own limit); a row
whose answer contradicts clingo's — the manifest's reference, or clingo's row on the same instance
in the same run — is WRONG and shown in every table; the command then exits 1. PAR-2 over a set
of instances: the sum of the wall times of solved runs plus 2*S for each of the others.
"""

import argparse
import collections
import os
import sys

import common as bc
import sets

RESULTS = os.path.join(sets.ROOT, "benchmarks", "results")
HEADER = """# Benchmark results

Made by `scripts/bench report` from the raw rows under [`rows/`](rows) (format:
[ROWS.md](ROWS.md)) and the run index [RUNS.tsv](RUNS.tsv); do not edit by hand. Solved = the
answer agrees with clingo's (the manifest's reference and clingo's row on the same instance in
the same run) within the time; PAR-2 = the sum of the solved runs' wall times plus twice the
limit for each unsolved one. Instances: the 15 shared classes (`$BENCH_DIR`, e.g.
`../shared/benchmarks` beside the clone) and the added classes
([`../added/MANIFEST.tsv`](../added/MANIFEST.tsv)); `scripts/bench prepare` grounds both.

To add a run: `scripts/bench run --configs ... --out benchmarks/results/rows/NAME.jsonl` (on the
GPU machine with `--kit .device/kit`, from `scripts/bench device kit`), a line for it in
RUNS.tsv, then `scripts/bench report` (tables, and the plots with matplotlib). Every run here
was checked against clingo's answers: a WRONG row is listed under its table and fails the
command."""


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


def runs_table(runs):
    out = ["| rows | machine | when | configurations | limit (s) | instances | rows |",
           "|---|---|---|---|---:|---:|---:|"]
    for run, rows in runs:
        machines = sorted({r["machine"] for r in rows})
        when = sorted(r.get("when", "")[:10] for r in rows)
        out.append("| %s | %s | %s | %s | %s | %d | %d |" % (
            ", ".join("[`%s`](rows/%s)" % (f, f) for f in run["file"].split(",")),
            "; ".join(m for m in machines if m) or "—",
            when[0] if when[0] == when[-1] else "%s – %s" % (when[0], when[-1]),
            ", ".join("`%s`" % c for c in order({r["config"] for r in rows})),
            "/".join(str(x) for x in sorted({r["time_limit"] for r in rows})),
            len({r["instance"] for r in rows}), len(rows)))
    return out


def classes_table(runs):
    """Every class of the two manifests: what it is and which runs have rows of it."""
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

def run(args):
    runs = [(m, load([os.path.join(RESULTS, "rows", f) for f in m["file"].split(",")],
                     m.get("machine", "")))
            for m in sets.read_tsv(os.path.join(RESULTS, "RUNS.tsv"))]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        matplotlib.rcParams["svg.hashsalt"] = "yasmin"  # the same rows give the same SVG
    except ImportError:
        plt = None
        print("report: no matplotlib (pip install matplotlib): plots left as they are",
              file=sys.stderr)
    text = HEADER.splitlines() + ["", "## Runs", ""] + runs_table(runs)
    text += ["", "## Classes", "", "Both manifests' classes, their instances' clingo answers and "
             "times as the manifests give them (the shared set: clingo 5.4.1; the added one: "
             "clingo 5.8.3), and the runs above (by number) that hold rows of them:", ""]
    text += classes_table(runs)
    text += files_section("checks", "Checks",
                          "Correctness checks that are not solver runs, one file each:")
    text += files_section("profiles", "Profiles",
                          "Where the time goes, per part of the engine, one file each:")
    wrong = 0
    drawn = set()
    for m, rows in runs:
        within = [float(x) for x in m["within"].split(",")]
        stem = os.path.splitext(m["file"].split(",")[0])[0]
        text += ["", "## " + m["title"], "", m["text"], ""]
        for s in within:
            tab, _ = class_table(rows, s)
            text += ["Solved within %g s, PAR-2 in seconds:" % s, ""] + tab + [""]
        wrong += sum(r["verdict"] == "WRONG" for r in rows)
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
        drawn.update((cactus, bars))
        if os.path.exists(os.path.join(RESULTS, cactus)):
            text += ["![cactus plot](%s) ![per class](%s)" % (cactus, bars), ""]
    if plt is not None:
        # Plots of runs RUNS.tsv no longer lists (their rows left for git history) go too.
        for f in sorted(os.listdir(os.path.join(RESULTS, "plots"))):
            if f.endswith(".svg") and os.path.join("plots", f) not in drawn:
                os.remove(os.path.join(RESULTS, "plots", f))
    hist = os.path.join(RESULTS, "HISTORY.tsv")
    if os.path.exists(hist):
        text += ["## Earlier results (in git history)", "",
                 "Superseded result files, read with `git show COMMIT:PATH`:", "",
                 "| what | fact it holds | `git show` |", "|---|---|---|"]
        for h in sets.read_tsv(hist):
            text.append("| %s | %s | `%s:%s` |" % (h["what"], h["fact"], h["commit"], h["path"]))
        text.append("")
    with open(os.path.join(RESULTS, "README.md"), "w") as f:
        f.write("\n".join(text) + "\n")
    print("report: wrote %s (%d runs, %d rows, %d WRONG)" % (
        os.path.join(RESULTS, "README.md"), len(runs), sum(len(r) for _, r in runs), wrong))
    return 1 if wrong else 0


def add_parser(sub):
    p = sub.add_parser("report", help="benchmarks/results/README.md and plots from the rows",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=run)
