#!/usr/bin/env python3
"""Turn bench-run.py JSON lines into markdown reports and plots.

Invariant: every number in the report is read from a row some run wrote; nothing is estimated.
When an (instance, configuration) pair was run more than once, the last row read wins (pass the
files oldest first). A WRONG row is always shown, in every table it appears in.

  report.py ROWS.jsonl... [--out benchmarks/results/report.md] [--plots DIR]
  report.py ROWS.jsonl... --host-table benchmarks/results/host-engine.md

Solved = the answer agrees with clingo's reference (verdict ok). PAR-2 = mean over instances of
the wall time when solved, else twice the time limit.
"""

import argparse
import json
import os
import sys
from collections import OrderedDict, defaultdict


def solved(r):
    """Agrees with clingo and finished within the time limit (1 s of slack for start/exit)."""
    return r is not None and r["verdict"] == "ok" and r["wall_s"] <= r["time_limit"] + 1


def load(paths, label=None):
    rows = OrderedDict()
    for p in paths:
        with open(p) as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                if label and r.get("label") != label:
                    continue
                r["solved"] = solved(r)
                rows[(r["instance"], r["config"])] = r
    return list(rows.values())


def fmt_t(r):
    if r is None:
        return "-"
    if r["verdict"] == "WRONG":
        return "**WRONG** (%s)" % r["result"]
    if not r["solved"]:
        return r["result"].lower()
    return "%.2f" % r["wall_s"]


def rate(r, key):
    """key per second of search (search time if the solver reports it, else wall time)."""
    if r is None or key not in r["stats"]:
        return None
    secs = r["stats"].get("search_s") or r["wall_s"]
    return r["stats"][key] / secs if secs else None


def num(x, digits=0):
    if x is None:
        return "-"
    if digits == 0:
        return "{:,.0f}".format(x)
    return "%.*f" % (digits, x)


def par2(rows_of_config, instances, limit_of):
    total = 0.0
    for inst in instances:
        r = rows_of_config.get(inst)
        if r is not None and r["solved"]:
            total += r["wall_s"]
        else:
            total += 2 * limit_of(inst, r)
    return total / len(instances) if instances else 0.0


def index(rows):
    by_cfg = defaultdict(dict)
    classes = {}
    for r in rows:
        by_cfg[r["config"]][r["instance"]] = r
        classes[r["instance"]] = r["class"]
    return by_cfg, classes


def config_order(configs):
    return sorted(configs, key=lambda c: (c != "clingo", c))


def summary_tables(rows):
    by_cfg, classes = index(rows)
    instances = sorted(classes, key=lambda i: (classes[i], i))
    limit = max((r["time_limit"] for r in rows), default=60)

    def limit_of(_inst, r):
        return r["time_limit"] if r is not None else limit

    cfgs = config_order(by_cfg)
    out = ["## Solved and PAR-2 per configuration", "",
           "| configuration | solved | WRONG | PAR-2 (s) |", "|---|---:|---:|---:|"]
    for c in cfgs:
        rs = by_cfg[c]
        solved = sum(1 for i in instances if i in rs and rs[i]["solved"])
        wrong = sum(1 for r in rs.values() if r["verdict"] == "WRONG")
        out.append("| %s | %d/%d | %s | %.1f |" % (c, solved, len(instances),
                                                    "**%d**" % wrong if wrong else "0",
                                                    par2(rs, instances, limit_of)))
    out += ["", "## Per class (solved / PAR-2 s)", "",
            "| class | n | " + " | ".join(cfgs) + " |", "|---|---:|" + "---:|" * len(cfgs)]
    for cl in sorted(set(classes.values())):
        insts = [i for i in instances if classes[i] == cl]
        cells = []
        for c in cfgs:
            rs = by_cfg[c]
            s = sum(1 for i in insts if i in rs and rs[i]["solved"])
            cells.append("%d / %.1f" % (s, par2(rs, insts, limit_of)))
        out.append("| %s | %d | %s |" % (cl, len(insts), " | ".join(cells)))
    out += ["", "## Per instance (wall s; ratio = time / clingo's time on the same machine)", "",
            "| instance | expected | " + " | ".join(cfgs) + " | " +
            " | ".join("%s/clingo" % c for c in cfgs if c != "clingo") + " |",
            "|---|---|" + "---:|" * (2 * len(cfgs) - ("clingo" in cfgs))]
    for i in instances:
        cl = by_cfg.get("clingo", {}).get(i)
        ratios = []
        for c in cfgs:
            if c == "clingo":
                continue
            r = by_cfg[c].get(i)
            if r and r["solved"] and cl and cl["solved"] and cl["wall_s"] > 0:
                ratios.append("%.2f" % (r["wall_s"] / cl["wall_s"]))
            else:
                ratios.append("-")
        exp = next(iter(by_cfg[c][i]["expected"] for c in cfgs if i in by_cfg[c]))
        out.append("| %s | %s | %s | %s |" % (i, exp, " | ".join(fmt_t(by_cfg[c].get(i))
                                                                for c in cfgs),
                                              " | ".join(ratios)))
    return out


def host_table(rows):
    """The table of benchmarks/results/host-engine.md: clingo vs the host engine, res and fwd."""
    by_cfg, classes = index(rows)
    instances = sorted(classes, key=lambda i: (classes[i], i))
    res = next((c for c in by_cfg if c.startswith("cpu:res")), None)
    fwd = next((c for c in by_cfg if c.startswith("cpu:fwd")), None)
    out = ["| instance | expected | clingo s | res s | fwd s | res/clingo | fwd/clingo | "
           "res dec/s | fwd dec/s | res conflicts | fwd conflicts | res avg learned | "
           "fwd avg learned | result |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for i in instances:
        cl = by_cfg.get("clingo", {}).get(i)
        rr = by_cfg.get(res, {}).get(i)
        rf = by_cfg.get(fwd, {}).get(i)
        ratio = []
        for r in (rr, rf):
            ok = r and r["solved"] and cl and cl["solved"] and cl["wall_s"] > 0
            ratio.append("%.1f" % (r["wall_s"] / cl["wall_s"]) if ok else "-")
        verdicts = [r["verdict"] for r in (rr, rf) if r is not None]
        if "WRONG" in verdicts:
            result = "**WRONG**"
        elif verdicts and all(v == "ok" for v in verdicts):
            result = "ok"
        else:
            result = "/".join(r["result"].lower() for r in (rr, rf) if r is not None) or "-"
        exp = (rr or rf or cl)["expected"]
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            i.split("/instances/")[0] + "/" + os.path.basename(i), exp, fmt_t(cl), fmt_t(rr),
            fmt_t(rf), ratio[0], ratio[1], num(rate(rr, "decisions")), num(rate(rf, "decisions")),
            num(rr and rr["stats"].get("conflicts")), num(rf and rf["stats"].get("conflicts")),
            num(rr and rr["stats"].get("avg_learned_len"), 1),
            num(rf and rf["stats"].get("avg_learned_len"), 1), result))
    return out


# ---- plots ---------------------------------------------------------------------------------

def plot_cactus(by_cfg, path, plt):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for c in config_order(by_cfg):
        times = sorted(r["wall_s"] for r in by_cfg[c].values() if r["solved"])
        if times:
            ax.plot(range(1, len(times) + 1), times, marker="o", ms=3, label=c)
    ax.set_xlabel("instances solved")
    ax.set_ylabel("wall time (s)")
    ax.set_yscale("log")
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("Cactus plot")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_res_fwd(by_cfg, path, plt, panels, title):
    """The paper's Figures 1/2: one point per instance, res vs fwd, per engine."""
    pairs = []
    for eng in ("gpu", "cpu"):
        res = next((c for c in by_cfg if c.startswith(eng + ":res")), None)
        fwd = next((c for c in by_cfg if c.startswith(eng + ":fwd")), None)
        if res and fwd:
            pairs.append((eng, res, fwd))
    if not pairs:
        return False
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 3.4 * len(panels)))
    for ax, (label, fn) in zip(axes, panels):
        seen = False
        for eng, res, fwd in pairs:
            insts = sorted(set(by_cfg[res]) | set(by_cfg[fwd]))
            xs = range(len(insts))
            for cfg, mk in ((res, "o"), (fwd, "s")):
                ys = [fn(by_cfg[cfg].get(i)) for i in insts]
                seen = seen or any(y for y in ys)
                ax.plot([x for x, y in zip(xs, ys) if y], [y for y in ys if y], mk + "-",
                        ms=4, lw=0.8, label=cfg)
            ax.set_xticks(list(xs))
            ax.set_xticklabels([os.path.basename(i)[:14] for i in insts], rotation=75,
                               fontsize=6)
        ax.set_ylabel(label)
        if not seen:
            ax.text(0.5, 0.5, "no data (statistic not reported)", transform=ax.transAxes,
                    ha="center")
            continue
        ax.set_yscale("log")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    axes[0].set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def plots(rows, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report: matplotlib not available, no plots", file=sys.stderr)
        return []
    os.makedirs(outdir, exist_ok=True)
    by_cfg, _ = index(rows)
    made = []
    p = os.path.join(outdir, "cactus.svg")
    plot_cactus(by_cfg, p, plt)
    made.append(("Cactus plot (solved instances vs time)", p))
    p = os.path.join(outdir, "fig1-props-decisions.svg")
    if plot_res_fwd(by_cfg, p, plt, [("propagations/s", lambda r: rate(r, "propagations")),
                                     ("decisions/s", lambda r: rate(r, "decisions"))],
                    "Figure 1: res vs fwd learning"):
        made.append(("Figure 1: propagations/s and decisions/s, res vs fwd", p))
    p = os.path.join(outdir, "fig2-learned.svg")
    if plot_res_fwd(by_cfg, p, plt, [("learned nogoods/s", lambda r: rate(r, "learned")),
                                     ("avg learned length",
                                      lambda r: r and r["stats"].get("avg_learned_len"))],
                    "Figure 2: learned nogoods, res vs fwd"):
        made.append(("Figure 2: learned nogoods/s and average length, res vs fwd", p))
    return made


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("rows", nargs="+")
    ap.add_argument("--out", default="benchmarks/results/report.md")
    ap.add_argument("--plots", default=None, help="plot folder (default: beside --out)")
    ap.add_argument("--host-table", help="write the host-engine table to this file instead")
    ap.add_argument("--label", help="only rows with this label")
    ap.add_argument("--title", default="yasmin-rs benchmark report")
    ap.add_argument("--note", default="", help="a paragraph placed under the header")
    args = ap.parse_args()
    rows = load(args.rows, args.label)
    if not rows:
        sys.exit("report: no rows")
    machines = sorted({r.get("host", "?") for r in rows})
    limits = sorted({r["time_limit"] for r in rows})
    head = ["Rows from: %s. Machine(s): %s. Time limit(s): %s s. Generated by scripts/report.py."
            % (", ".join(os.path.basename(p) for p in args.rows), ", ".join(machines),
               ", ".join(map(str, limits)))]
    if args.note:
        head += ["", args.note]
    if args.host_table:
        text = ["# Host engine vs clingo", ""] + head + [""] + host_table(rows)
        with open(args.host_table, "w") as f:
            f.write("\n".join(text) + "\n")
        print("report: wrote %s" % args.host_table)
    else:
        text = ["# " + args.title, ""] + head + [""] + summary_tables(rows)
        outdir = args.plots or os.path.join(os.path.dirname(args.out) or ".", "plots")
        made = plots(rows, outdir)
        if made:
            text += ["", "## Plots", ""]
            for cap, p in made:
                text += ["%s:" % cap, "", "![%s](%s)" % (cap, os.path.relpath(
                    p, os.path.dirname(os.path.abspath(args.out)))), ""]
        with open(args.out, "w") as f:
            f.write("\n".join(text) + "\n")
        print("report: wrote %s (%d rows, %d plots)" % (args.out, len(rows), len(made)))
    wrong = sum(r["verdict"] == "WRONG" for r in rows)
    if wrong:
        print("report: %d WRONG rows" % wrong, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
