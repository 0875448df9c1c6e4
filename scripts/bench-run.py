#!/usr/bin/env python3
"""Benchmark runner: yasmin-rs in the configurations asked for, and clingo, on ground files on
disk, each under a time limit; one JSON line per run.

Invariant: every run's answer is compared with clingo's reference answer from the list (MANIFEST)
and with clingo's answer in this same invocation when clingo was run and finished; a run that
contradicts either is recorded with verdict WRONG and makes the exit status 1. A run that cannot be
trusted (crash, exit code and printed result disagree) is 'ERROR', never counted as solved.

Needs python3 only (no gringo, Rust or network): ground files come from --ground-dir, as
<class>/<base>.aspif or compressed (.aspif.gz, .aspif.xz), decompressed to a temporary file so the
solver's time does not include decompression.

Configurations (--configs, comma separated):
  clingo                          clingo (--clingo CMD, default 'clingo --mode=clasp')
  clingo-tN                       the same with N threads (clingo's parallel portfolio, -t N)
  ENGINE:LEARNING[:HEURISTIC[:DECIDE]]
                                  yasmin-rs --engine ENGINE --learning LEARNING --heuristic H
                                  --decide D; e.g. cpu:res, gpu:fwd:jw, cpu:res:activity:vars
                                  (heuristic and decisions default: the binary's; LEARNING
                                  `default`: no --learning, e.g. auto:default, the defaults)
  ...+FLAG=VALUE[+FLAG=VALUE...]  more yasmin-rs options, e.g.
                                  cpu:fwd:activity:vars+fwd-cut=lits+save-progress=0
                                  (--fwd-cut=lits --save-progress=0)

Example (GPU machine):
  python3 scripts/bench-run.py --bin .device/yasmin-rs --ground-dir .device/ground \\
      --list .device/list.tsv --configs clingo,gpu:res,gpu:fwd,cpu:res \\
      --clingo 'python3 -m clingo' --time-limit 60 --chunk 1/2 --out $OUT/rows.jsonl
"""

import argparse
import datetime
import gzip
import json
import lzma
import os
import platform
import shlex
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

# --stats names the two solvers print for the same thing: canonical key -> names to try, in
# order (bench_common.parse_output lower-cases and joins words with '_').
STAT_KEYS = {
    "decisions": ["decisions", "choices"],
    "conflicts": ["conflicts"],
    "propagations": ["propagations", "props"],
    "learned": ["learned", "learned_nogoods", "lemmas", "conflict"],
    "learned_lits": ["learned_lits", "learned_literals"],
    "avg_learned_len": ["avg_learned_length", "average_learned_length", "avg_learned_len",
                        "learned_avg_length", "lemmas_avg_len", "conflict_avg_len"],
    "loop_nogoods": ["loop_nogoods", "loop"],
    "restarts": ["restarts"],
    "models": ["models"],
    "search_s": ["search_time", "search", "solving", "solve_time"],
    "total_s": ["time", "total_time"],
    "kernel_launches": ["kernel_launches", "kernel_calls", "launches"],
    "bytes_to_device": ["bytes_to_device", "host_device"],
    "bytes_from_device": ["bytes_from_device", "device_host"],
    "gpu_searches": ["gpu_searches"],
    "cubes_refuted": ["cubes"],
    "answer_from_cpu": ["portfolio_cpu"],
}


def canonical_stats(raw):
    out = {}
    for key, names in STAT_KEYS.items():
        for n in names:
            if n in raw:
                out[key] = raw[n]
                break
    if "avg_learned_len" not in out and out.get("learned") and "learned_lits" in out:
        out["avg_learned_len"] = out["learned_lits"] / out["learned"]
    return out


def read_list(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def select(rows, args):
    if args.classes:
        keep = set(args.classes.split(","))
        rows = [r for r in rows if r["class"] in keep]
    if args.instances:
        rows = [r for r in rows if any(s in r["instance"] for s in args.instances.split(","))]
    if args.chunk:
        i, n = (int(x) for x in args.chunk.split("/"))
        if not 1 <= i <= n:
            sys.exit("--chunk i/n needs 1 <= i <= n")
        rows = rows[i - 1::n]
    return rows


def find_ground(ground_dir, rel):
    for suffix in ("", ".xz", ".gz"):
        p = os.path.join(ground_dir, rel + suffix)
        if os.path.exists(p):
            return p
    return None


def materialise(path, tmpdir):
    """A plain file for the solver: the file itself, or its decompression in tmpdir."""
    if path.endswith(".gz"):
        opener = gzip.open
    elif path.endswith(".xz"):
        opener = lzma.open
    else:
        return path
    dst = os.path.join(tmpdir, os.path.basename(path).rsplit(".", 1)[0])
    with opener(path, "rb") as src, open(dst, "wb") as out:
        shutil.copyfileobj(src, out, 1 << 20)
    return dst


def parse_config(c):
    if c == "clingo":
        return {"name": "clingo", "solver": "clingo"}
    if c.startswith("clingo-t") and c[8:].isdigit():
        return {"name": c, "solver": "clingo", "threads": int(c[8:])}
    base, *flags = c.split("+")
    parts = base.split(":")
    if (len(parts) not in (2, 3, 4) or parts[0] not in ("cpu", "gpu", "auto")
            or not all(f and not f.startswith("-") for f in flags)):
        sys.exit("bad configuration %r (want clingo or "
                 "ENGINE:LEARNING[:HEURISTIC[:DECIDE]][+FLAG=VALUE...])" % c)
    cfg = {"name": c, "solver": "yasmin-rs", "engine": parts[0], "learning": parts[1],
           "flags": ["--" + f for f in flags]}
    if len(parts) >= 3:
        cfg["heuristic"] = parts[2]
    if len(parts) == 4:
        cfg["decide"] = parts[3]
    return cfg


def command(cfg, args, ground):
    if cfg["solver"] == "clingo":
        threads = ["-t", str(cfg["threads"])] if "threads" in cfg else []
        return shlex.split(args.clingo) + threads + [
            ground, "--stats", "-q", "-n", str(args.models),
            "--time-limit=%d" % args.time_limit]
    argv = [args.bin, ground, "--stats", "-n", str(args.models), "--engine", cfg["engine"],
            "--time-limit", str(args.time_limit)]
    if cfg["learning"] != "default":
        argv += ["--learning", cfg["learning"]]
    if "heuristic" in cfg:
        argv += ["--heuristic", cfg["heuristic"]]
    if "decide" in cfg:
        argv += ["--decide", cfg["decide"]]
    argv += cfg["flags"]
    if args.quiet:
        argv.append("-q")
    return argv + shlex.split(args.extra)


def run_one(cfg, inst, ground, args, clingo_result):
    argv = command(cfg, args, ground)
    # Hard kill well after the solver's own limit: the solver should stop itself and print.
    run = bc.run_measured(argv, args.time_limit + args.grace)
    parsed = bc.parse_output(run["stdout"])
    result = bc.result_of(run, parsed, trust_word=cfg["solver"] == "clingo")
    verdict = bc.agrees(result, inst["expected"])
    if verdict == "ok" and clingo_result in ("SAT", "UNSAT", "OPT"):
        verdict = bc.agrees(result, clingo_result)
    row = {
        "class": inst["class"],
        "instance": inst["instance"],
        "config": cfg["name"],
        "solver": cfg["solver"],
        "engine": cfg.get("engine"),
        "learning": cfg.get("learning"),
        "heuristic": cfg.get("heuristic"),
        "decide": cfg.get("decide"),
        "expected": inst["expected"],
        "result": result,
        "verdict": verdict,
        "solved": verdict == "ok",
        "wall_s": run["wall_s"],
        "maxrss_kb": run["maxrss_kb"],
        "rc": run["rc"],
        "time_limit": args.time_limit,
        "models_asked": args.models,
        "stats": canonical_stats(parsed["stats"]),
        "stats_raw": parsed["stats"],
        "host": platform.node(),
        "label": args.label,
        "when": datetime.datetime.now().isoformat(timespec="seconds"),
        "argv": " ".join(shlex.quote(a) for a in argv),
    }
    if parsed["optimization"] is not None:
        row["optimization"] = parsed["optimization"]
    if result in ("ERROR", "TIMEOUT") or verdict == "WRONG":
        row["stderr_tail"] = run["stderr"][-1500:]
        row["stdout_tail"] = run["stdout"][-800:]
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--list", default=os.path.join(root, "benchmarks/list.tsv"))
    ap.add_argument("--ground-dir", default=os.path.join(root, "benchmarks/cache"))
    ap.add_argument("--bin", default=os.path.join(root, "target/release/yasmin-rs"))
    ap.add_argument("--configs", default="clingo,cpu:res,cpu:fwd")
    ap.add_argument("--clingo", default="clingo --mode=clasp",
                    help="clingo command reading aspif (GPU machine: 'python3 -m clingo')")
    ap.add_argument("--time-limit", type=int, default=60)
    ap.add_argument("--grace", type=int, default=15, help="seconds after the limit before kill")
    ap.add_argument("--models", type=int, default=1)
    ap.add_argument("--chunk", help="i/n: every n-th instance starting at the i-th (1-based)")
    ap.add_argument("--classes", help="comma-separated classes")
    ap.add_argument("--instances", help="comma-separated substrings of instance paths")
    ap.add_argument("--extra", default="", help="extra yasmin-rs arguments")
    ap.add_argument("-q", "--quiet", action="store_true", help="pass -q to yasmin-rs")
    ap.add_argument("--label", default="", help="free text recorded in every row")
    ap.add_argument("--out", required=True, help="JSON-lines file to append to")
    args = ap.parse_args()

    configs = [parse_config(c) for c in args.configs.split(",") if c]
    insts = select(read_list(args.list), args)
    if not insts:
        sys.exit("no instance selected")
    wrong = missing = 0
    with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp, open(args.out, "a") as out:
        for inst in insts:
            src = find_ground(args.ground_dir, inst["ground"])
            if src is None:
                print("MISSING ground file %s under %s" % (inst["ground"], args.ground_dir),
                      file=sys.stderr)
                missing += 1
                continue
            ground = materialise(src, tmp)
            clingo_result = None
            # clingo first, so yasmin-rs runs are checked against this machine's answer too.
            for cfg in sorted(configs, key=lambda c: c["solver"] != "clingo"):
                row = run_one(cfg, inst, ground, args, clingo_result)
                if cfg["solver"] == "clingo":
                    clingo_result = row["result"]
                out.write(json.dumps(row) + "\n")
                out.flush()
                wrong += row["verdict"] == "WRONG"
                st = row["stats"]
                print("%-42s %-16s %-8s %-8s %7.2fs %6.0f MB  dec=%s confl=%s" % (
                    inst["instance"][-42:], cfg["name"], row["result"], row["verdict"],
                    row["wall_s"], row["maxrss_kb"] / 1024, st.get("decisions", "-"),
                    st.get("conflicts", "-")), flush=True)
            if ground != src:
                os.unlink(ground)
    print("bench-run: %d instances x %d configurations, %d WRONG, %d missing ground files"
          % (len(insts), len(configs), wrong, missing))
    sys.exit(1 if wrong else (2 if missing else 0))


if __name__ == "__main__":
    main()
