"""`scripts/bench run`: the configurations asked for on the listed instances, each under a time
limit; one JSON row per run (format: benchmarks/results/ROWS.md).

Invariant: every answer is checked against clingo's reference answer in the list (the
manifests') and, for every row of this invocation, against clingo's answer on the same instance
in the same invocation; a row that contradicts either has verdict WRONG (the same-run check is
made again at the end, over all rows, so lane order cannot hide one) and makes the exit status 1.
A run that cannot be trusted (crash, exit code and printed result disagree) is ERROR, never
solved. `machine` configurations (configs.py) run alone; `device` ones one at a time (or
`--gpu-parallel`) beside `--parallel` single-core lanes.

Needs python3 only (no gringo, Rust or network): ground files (plain, .xz or .gz) are
decompressed to a temporary file first, so a solver's time does not include decompression.
"""

import datetime
import gzip
import json
import lzma
import os
import platform
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import common as bc
import configs as cf
import sets
import slots as sl

# --stats names the two solvers print for the same thing: canonical key -> names to try, in
# order (common.parse_output lower-cases and joins words with '_').
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


def machine_name():
    """'<CPU model>, N cores[, GPU name]' ($YASMIN_BENCH_MACHINE overrides)."""
    if os.environ.get("YASMIN_BENCH_MACHINE"):
        return os.environ["YASMIN_BENCH_MACHINE"]
    cpu = platform.processor() or "cpu"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    name = "%s, %d cores" % (cpu, os.cpu_count() or 0)
    if shutil.which("nvidia-smi"):
        p = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                           capture_output=True, text=True)
        gpus = [g.strip() for g in p.stdout.splitlines() if g.strip()]
        if p.returncode == 0 and gpus:
            name += ", %d x %s" % (len(gpus), gpus[0])
    return name


def find_ground(ground_dir, rel):
    base = rel[:-3] if rel.endswith(".xz") else rel
    for suffix in (".xz", "", ".gz"):
        p = os.path.join(ground_dir, base + suffix)
        if os.path.exists(p):
            return p
    return None


def materialise(path, tmpdir):
    """A plain file for the solver: the file itself, or its decompression in tmpdir."""
    opener = {".gz": gzip.open, ".xz": lzma.open}.get(os.path.splitext(path)[1])
    if opener is None:
        return path
    fd, dst = tempfile.mkstemp(dir=tmpdir, suffix=".aspif")
    with opener(path, "rb") as src, os.fdopen(fd, "wb") as out:
        shutil.copyfileobj(src, out, 1 << 20)
    return dst


def run_one(cfg, inst, ground, args, clingo_result, slot=None):
    # An optimisation instance asks for the optimum (-n 0: clingo's and yasmin-rs's optimisation
    # mode), a decision instance for one model, unless --models says otherwise.
    opt = bc.is_optimisation(inst["expected"], inst.get("kind", ""))
    models = args.models if args.models is not None else (0 if opt else 1)
    argv = cf.command(cfg, ground, args.time_limit, models, args.bin,
                      shlex.split(args.clingo), args.quiet, shlex.split(args.extra),
                      optimising=opt)
    load = os.getloadavg()[0]
    pinned, env = sl.wrap(slot, argv)
    # Hard kill well after the solver's own limit: the solver should stop itself and print.
    run = bc.run_measured(pinned, args.time_limit + args.grace, env=env)
    parsed = bc.parse_output(run["stdout"])
    result = bc.result_of(run, parsed, trust_word=cfg["solver"] == "clingo")
    asked = opt and models == 0
    verdict = bc.verdict(result, inst["expected"], parsed["optimization"], None, asked)
    if verdict == "ok" and clingo_result is not None:
        verdict = bc.verdict(result, clingo_result[0], parsed["optimization"], clingo_result[1],
                             asked)
    row = {
        "class": inst["class"], "instance": inst["instance"], "set": inst.get("set", "shared"),
        "config": cfg["name"], "solver": cfg["solver"], "engine": cfg.get("engine"),
        "learning": cfg.get("learning"), "heuristic": cfg.get("heuristic"),
        "decide": cfg.get("decide"), "threads": cfg["threads"], "expected": inst["expected"],
        "result": result, "verdict": verdict, "solved": verdict == "ok",
        "wall_s": run["wall_s"], "maxrss_kb": run["maxrss_kb"], "rc": run["rc"],
        "time_limit": args.time_limit, "models_asked": models,
        "stats": canonical_stats(parsed["stats"]), "stats_raw": parsed["stats"],
        "machine": args.machine, "load1": round(load, 2), "host": platform.node(),
        "label": args.label,
        "when": datetime.datetime.now().isoformat(timespec="seconds"),
        "argv": " ".join(shlex.quote(a) for a in argv),
    }
    if slot is not None:
        row["slot"] = "cpus %s, gpu %s" % slot
    if parsed["optimization"] is not None:
        row["optimization"] = parsed["optimization"]
    if parsed["trajectory"]:
        row["trajectory"] = parsed["trajectory"]
    if result in ("ERROR", "TIMEOUT") or verdict == "WRONG":
        row["stderr_tail"] = run["stderr"][-1500:]
        row["stdout_tail"] = run["stdout"][-800:]
    return row


class Instances:
    """Each instance's ground file decompressed once, shared by its runs, removed after the last
    one; and clingo's answer on it in this invocation, once known."""

    def __init__(self, insts, n_configs, args, tmp):
        self.lock = threading.Lock()
        self.files, self.left, self.clingo = {}, {}, {}
        self.args, self.tmp, self.n = args, tmp, n_configs

    def take(self, inst):
        key = inst["instance"]
        with self.lock:
            if key not in self.files:
                src = find_ground(self.args.ground_dir, inst["ground"])
                self.files[key] = None if src is None else (src, materialise(src, self.tmp))
                self.left[key] = self.n
            return self.files[key]

    def done(self, inst):
        key = inst["instance"]
        with self.lock:
            self.left[key] -= 1
            f = self.files[key]
            if self.left[key] == 0 and f is not None and f[1] != f[0]:
                os.unlink(f[1])


def cross_check(rows):
    """Same-run check over all rows: a yasmin-rs row that contradicts clingo's on its instance."""
    ref = {(r["instance"]): (r["result"], r.get("optimization")) for r in rows
           if r["solver"] == "clingo" and r["result"] in ("SAT", "UNSAT", "OPT")}
    bad = []
    for r in rows:
        c = ref.get(r["instance"])
        if c and r["verdict"] != "WRONG" and \
                bc.agrees(r["result"], c[0], r.get("optimization"), c[1]) == "WRONG":
            bad.append(r)
    return bad


def run(args):
    if args.kit:
        kit_env(args)
    args.bin = args.bin or os.path.join(sets.ROOT, "target/release/yasmin-rs")
    args.machine = args.machine or machine_name()
    cfgs = [cf.parse(c) for c in args.configs.split(",") if c]
    names = [c["name"] for c in cfgs]
    if len(set(names)) != len(names):
        raise SystemExit("run: two configurations with one name")
    insts = sets.select(sets.read_tsv(args.list), args.classes, args.instances, args.chunk,
                        args.set.split(",") if args.set else None)
    if not insts:
        raise SystemExit("run: no instance selected from %s" % args.list)
    # clingo first on each instance, so later runs are checked against its answer as they go.
    cfgs.sort(key=lambda c: c["solver"] != "clingo")
    done = resumed(args)
    slot_list = sl.machine_slots(args.slots or None) if args.slots is not None else None
    if slot_list:
        args.machine += " (as %d slots of %d CPUs%s each)" % (
            len(slot_list), len(sl.cpu_list(slot_list[0][0])),
            "" if slot_list[0][1] is None else " and one GPU")
    jobs = {"single": queue.Queue(), "device": queue.Queue(), "machine": queue.Queue()}
    for inst in insts:
        for c in cfgs:
            if (inst["instance"], c["name"]) not in done:
                # with slots, every run takes a whole slot: one queue
                jobs["machine" if slot_list else c["share"]].put((inst, c))
    rows, lock = [], threading.Lock()
    missing = set()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp, open(args.out, "a") as out:
        start = out.tell()
        files = Instances(insts, len(cfgs), args, tmp)

        deadline = time.monotonic() + args.stop_after if args.stop_after else None

        def lane(q, slot=None):
            while True:
                if deadline is not None and time.monotonic() > deadline:
                    return  # what is left is for a later --resume
                try:
                    inst, c = q.get_nowait()
                except queue.Empty:
                    return
                f = files.take(inst)
                if f is None:
                    with lock:
                        missing.add(inst["instance"])
                    files.done(inst)
                    continue
                with lock:
                    ref = files.clingo.get(inst["instance"])
                row = run_one(c, inst, f[1], args, ref, slot)
                files.done(inst)
                with lock:
                    if c["solver"] == "clingo" and row["result"] in ("SAT", "UNSAT", "OPT"):
                        files.clingo.setdefault(inst["instance"],
                                                (row["result"], row.get("optimization")))
                    rows.append(row)
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    st = row["stats"]
                    print("%-44s %-18s %-8s %-8s %7.2fs %6.0f MB  dec=%s confl=%s" % (
                        inst["instance"][-44:], c["name"][:18], row["result"], row["verdict"],
                        row["wall_s"], (row["maxrss_kb"] or 0) / 1024, st.get("decisions", "-"),
                        st.get("conflicts", "-")), flush=True)

        if slot_list:
            for k, slot in enumerate(slot_list):
                print("slot %d: cpus %s, gpu %s" % (k, slot[0], slot[1]), flush=True)
            lanes = [threading.Thread(target=lane, args=(jobs["machine"], s)) for s in slot_list]
        else:
            lanes = [threading.Thread(target=lane, args=(jobs["single"],))
                     for _ in range(max(1, args.parallel))]
            lanes += [threading.Thread(target=lane, args=(jobs["device"],))
                      for _ in range(max(1, args.gpu_parallel))]
        for t in lanes:
            t.start()
        for t in lanes:
            t.join()
        lane(jobs["machine"])  # alone: nothing else runs now
        late = cross_check(rows)
        for r in late:
            print("WRONG (against clingo in this run): %s %s %s" % (
                r["instance"], r["config"], r["result"]), file=sys.stderr)
            r["verdict"], r["solved"] = "WRONG", False
        if late:  # this invocation's rows again, with the verdicts corrected
            out.seek(start)
            out.truncate()
            out.writelines(json.dumps(r) + "\n" for r in rows)
    wrong = sum(r["verdict"] == "WRONG" for r in rows)
    for c in cfgs:
        mine = [r for r in rows if r["config"] == c["name"]]
        print("%-40s solved %d/%d within %d s, %d WRONG" % (
            c["name"], sum(r["verdict"] == "ok" for r in mine), len(mine), args.time_limit,
            sum(r["verdict"] == "WRONG" for r in mine)))
    for m in sorted(missing):
        print("MISSING ground file of %s under %s" % (m, args.ground_dir), file=sys.stderr)
    print("run: %d instances x %d configurations on %s: %d WRONG, %d missing ground files"
          % (len(insts), len(cfgs), args.machine, wrong, len(missing)))
    return 1 if wrong else (2 if missing else 0)


def resumed(args):
    """(instance, config) pairs already in --out when --resume is given: not run again."""
    if not args.resume or not os.path.exists(args.out):
        return set()
    with open(args.out) as f:
        rows = [json.loads(l) for l in f if l.strip()]
    return {(r["instance"], r["config"]) for r in rows}


def kit_env(args):
    """On the GPU machine: the kit's binary, ground files, list and clingo (installed from the
    kit's wheels into /tmp/site, unless python3 imports a clingo already; that machine has no
    network)."""
    k = args.kit
    args.bin = args.bin or os.path.join(k, "yasmin-rs")
    args.ground_dir = os.path.join(k, "ground")
    args.list = os.path.join(k, "list.tsv")
    site = "/tmp/site"
    have = subprocess.run([sys.executable, "-c", "import clingo"], capture_output=True)
    if have.returncode == 0:  # a clingo here already (not on the GPU machine)
        args.clingo = "%s -m clingo" % shlex.quote(sys.executable)
        return
    # Several runners may start at once (scripts/lib/side-by-side.sh): one installs, under a
    # lock, and the others find the install done.
    import fcntl
    with open("/tmp/site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.isdir(os.path.join(site, "clingo")):
            whl = [os.path.join(k, "whl", w) for w in os.listdir(os.path.join(k, "whl"))]
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index",
                            "--no-deps", "--no-compile", "--no-cache-dir", "--upgrade",
                            "--target", site] + whl, check=True)
    os.environ["PYTHONPATH"] = site
    args.clingo = "%s -m clingo" % shlex.quote(sys.executable)


def add_parser(sub):
    cache = sets.cache_dir()
    p = sub.add_parser("run", help="run configurations on instances; JSON rows",
                       description=__doc__ + "\n" + cf.__doc__,
                       formatter_class=__import__("argparse").RawDescriptionHelpFormatter)
    p.add_argument("--configs", default="clingo,cpu:res", help="comma-separated (see above)")
    p.add_argument("--time-limit", type=int, default=60, help="seconds per run (default 60)")
    p.add_argument("--parallel", type=int, default=1,
                   help="single-core runs at a time (default 1; the GPU machine: 14)")
    p.add_argument("--gpu-parallel", type=int, default=1,
                   help="GPU runs at a time, sharing the device (default 1)")
    p.add_argument("--slots", type=int, nargs="?", const=0, default=None,
                   help="split a multi-GPU host into N slots (default: one per GPU), each one GPU "
                   "and an equal share of the physical cores (slots.py); every run takes a slot, "
                   "N at a time; the rows say which")
    p.add_argument("--resume", action="store_true",
                   help="skip the instance/configuration pairs --out holds already")
    p.add_argument("--stop-after", type=float,
                   help="start no run after this many seconds (runs under way finish)")
    p.add_argument("--chunk", help="i/n: every n-th selected instance from the i-th (1-based)")
    p.add_argument("--set", help="shared, added (default: every instance of the list)")
    p.add_argument("--classes", help="comma-separated classes")
    p.add_argument("--instances", help="comma-separated substrings of instance names")
    p.add_argument("--out", required=True, help="JSON-lines file to append rows to")
    p.add_argument("--kit", help="a kit folder (scripts/bench device kit): its binary, ground "
                   "files, list and clingo wheel; for the GPU machine")
    p.add_argument("--list", default=os.path.join(cache, "list.tsv"))
    p.add_argument("--ground-dir", default=os.path.join(cache, "ground"))
    p.add_argument("--bin", help="the yasmin-rs binary (default: the kit's, else "
                   "target/release/yasmin-rs)")
    p.add_argument("--clingo", default=os.environ.get("YASMIN_BENCH_CLINGO", "python3 -m clingo"),
                   help="clingo 5.8 command reading aspif ($YASMIN_BENCH_CLINGO)")
    p.add_argument("--grace", type=int, default=10, help="seconds past the limit before a kill")
    p.add_argument("--models", type=int, help="-n for every run (default: 0, the optimum, on "
                   "optimisation instances; 1 on the others)")
    p.add_argument("--extra", default="", help="extra yasmin-rs arguments for every run")
    p.add_argument("-q", "--quiet", action="store_true", help="pass -q to yasmin-rs")
    p.add_argument("--label", default="", help="free text recorded in every row")
    p.add_argument("--machine", help="the machine's name in the rows (default: CPU model, "
                   "cores, GPU; or $YASMIN_BENCH_MACHINE)")
    p.set_defaults(func=run)
