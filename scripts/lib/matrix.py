"""`scripts/bench matrix`: every solving mode × every kind of program × every engine, against
clingo 5.8 on generated programs.

  scripts/bench matrix run   [--count N] [--seed S] [--engines E,..] [--bin B] [--jobs J]
                             generate, compute clingo's answers, compare (what CI runs)
  scripts/bench matrix gen   DIR [--count N] [--seed S]
                             programs, their ground forms and clingo's answers (needs rustc,
                             gringo and PyPI's clingo), to carry to another machine
  scripts/bench matrix check DIR [--engines E,..] [--bin B | --batch CLI_BATCH] [--jobs J]
                             compare a binary against DIR's answers (python3 only: the GPU machine)

Programs: the generator of the differential tests (`tests/gen`), kinds tight, nontight,
choice, aggregate, disjunctive (head-cycle-free or not), optimize (#minimize/#maximize, several
priorities, negative weights) and mixed (several kinds over the same atoms, an objective on
every other one); each one also with `#project` directives and with `#show` directives. The
program's class as the solver saw it (tight or not; a head cycle, i.e. candidates checked for
minimality; an objective) is read from yasmin-rs's `--stats` and reported.

Modes (clingo's options; a mode that needs no objective runs with `--opt-mode=ignore` on a
program that has one): `all` (-n 0), `optN`, `opt`, `enum` (every model with its costs),
`enum,B` (B the optimum), `opt,B` (B the optimum, or one below it on the last level: then
unsatisfiable), `brave`, `cautious`, `project` (`--project` with `#project`), `project-show`
(`--project` with `#show`), `brave-proj` and `cautious-proj` (consequences of the program with
`#project`, which clingo takes over the projection; the latter with `--project`). Engines: `cpu1` (`--engine=cpu -t 1`), `cpu4` (`-t 4`), `emu` (the
GPU kernel compiled for the host, 1-8 searches), `auto-emu` (`--engine=auto -t 2` with the
emulated GPU, `--emulated-gpus=1`), `gpu` (the GPU engine, on a machine with one), `gpu-256`
(the same with 256 searches instead of the thousands resident: the same kernel and host code,
and a small program's run is not dominated by taking every search's copy of the same model).

Invariant: a run agrees only when what is compared for its mode equals clingo's exactly and
the exit codes are equal; clingo runs in-process (`clingo.clingo_main`, its text output, exit
code as its command line's) with `--eq=0` (clingo 5.8's default equivalence preprocessing
prints some answer sets of disjunctive programs twice: README, "clingo's known faults"). A
mismatch prints the program, the command and both sides, and the run exits 1.
"""

import collections
import concurrent.futures
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINDS = ["tight", "nontight", "choice", "aggregate", "disjunctive", "optimize", "mixed"]
MODES = ["all", "optN", "opt", "enum", "enum,B", "opt,B", "brave", "cautious", "project",
         "project-show", "brave-proj", "cautious-proj"]
OBJECTIVE_MODES = {"optN", "opt", "enum", "enum,B", "opt,B"}
ENGINES = {
    "cpu1": ["--engine=cpu", "-t", "1"],
    "cpu4": ["--engine=cpu", "-t", "4"],
    "emu": ["--engine=emu"],
    "auto-emu": ["--engine=auto", "-t", "2", "--emulated-gpus=1"],
    "gpu": ["--engine=gpu"],
    "gpu-256": ["--engine=gpu", "--gpu-searches", "256"],
    # Core-guided optimisation (OLL, src/wrap/oll.rs) on the host engine and on the GPU engine's
    # searches: optimisation modes only (it refuses the others).
    "cpu1-usc": ["--engine=cpu", "-t", "1", "--opt-strategy=usc"],
    "emu-usc": ["--engine=emu", "--opt-strategy=usc"],
    "gpu-usc": ["--engine=gpu", "--opt-strategy=usc"],
    # The GPU engine's optimisation modes alone (opt: branch and bound racing OLL).
    "gpu-opt": ["--engine=gpu"],
    # The GPU engine's searches deciding by recency (a VMTF queue; the default is activity),
    # every search or every other.
    "emu-vmtf": ["--engine=emu", "--gpu-decide=vmtf"],
    "gpu-vmtf": ["--engine=gpu", "--gpu-decide=vmtf"],
    "gpu-mixed": ["--engine=gpu", "--gpu-decide=mixed"],
}
# The modes an engine runs, where not all.
ENGINE_MODES = {e: {"optN", "opt"} for e in ("cpu1-usc", "emu-usc", "gpu-usc", "gpu-opt")}
RESULTS = ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN", "OPTIMUM FOUND", "INTERRUPTED")


# ---- output ------------------------------------------------------------------------------------

def parse(text):
    """Models (atoms sorted, costs or None) in print order, the result word, the summary's
    optimum, and the classes `--stats` tells (yasmin-rs)."""
    models, result, optimum = [], None, None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if line.startswith("Answer:"):
            atoms = tuple(sorted(lines[i + 1].split())) if i + 1 < len(lines) else ()
            costs = None
            if i + 2 < len(lines) and lines[i + 2].startswith("Optimization:"):
                costs = tuple(int(x) for x in lines[i + 2].split(":", 1)[1].split())
                i += 1
            models.append((atoms, costs))
            i += 2
            continue
        if line in RESULTS:
            result = line
        m = re.match(r"^Optimization\s+:\s*(.*)$", line)
        if m:
            optimum = tuple(int(x) for x in m.group(1).split())
        i += 1
    return {"models": models, "result": result, "optimum": optimum,
            "tight": "Tight        : Yes" in text, "minimality": "\nMinimality   :" in text}


def projected(atoms, proj):
    return tuple(a for a in atoms if a in proj)


def view(mode, out, rc, proj=None):
    """What is compared for `mode` (JSON-able)."""
    ms = out["models"]
    v = {"rc": rc, "result": out["result"]}
    if mode in ("all", "project-show"):
        v["sets"] = sorted(collections.Counter(a for a, _ in ms).items())
    elif mode == "optN":
        best = out["optimum"]
        v["optimum"] = best
        v["sets"] = sorted({a for a, c in ms if c == best})
    elif mode in ("opt", "opt,B"):
        v["optimum"] = ms[-1][1] if ms else None
        # Each model printed is better than the one before (branch and bound).
        v["decreasing"] = all(a is None or b is None or a > b
                              for (_, a), (_, b) in zip(ms, ms[1:]))
    elif mode in ("enum", "enum,B"):
        v["sets"] = sorted(collections.Counter(ms).items())
    elif mode in ("brave", "cautious", "brave-proj", "cautious-proj"):
        v["consequence"] = ms[-1][0] if ms else None
    elif mode == "project":
        proj = set(proj or ())
        counts = collections.Counter(projected(a, proj) for a, _ in ms)
        v["projections"] = sorted(counts)
        v["each_once"] = all(n == 1 for n in counts.values())
    return v


def without(view, key):
    """`view` without `key` (the rest of what is compared)."""
    return {k: x for k, x in view.items() if k != key}


def agrees(mode, want, got, info):
    """`got` (yasmin-rs's view) against `want` (clingo's): equal, except that where answer sets
    are counted (`all`, `enum`, `enum,B`, `project-show`) yasmin-rs may print one set of shown
    atoms fewer times than clingo, never more: clingo with `--eq=0` prints one answer set of
    some programs several times (answer sets that differ only on gringo's auxiliary atoms, and
    clasp's repeats, tests/differential.rs), so each distinct set must be printed, at most as
    often as clingo prints it."""
    if mode in ("brave-proj", "cautious-proj") and want.get("consequence") is not None \
            and got.get("consequence") is not None:
        # clingo also prints shown atoms outside the projection that its top level fixes
        # true (README, "clingo's known faults"): those may differ, if true in every answer set.
        everywhere = set(info["want"]["cautious"]["view"].get("consequence") or ())
        free = everywhere - set(info["proj"])
        w, g = set(want["consequence"]) - free, set(got["consequence"]) - free
        return w == g and without(want, "consequence") == without(got, "consequence")
    if "sets" not in want or mode == "optN":
        return got == want
    if without(got, "sets") != without(want, "sets"):
        return False
    w = {json.dumps(k): n for k, n in want["sets"]}
    g = {json.dumps(k): n for k, n in got["sets"]}
    return w.keys() == g.keys() and all(1 <= g[k] <= w[k] for k in g)


def jsonable(x):
    return json.loads(json.dumps(x))


# ---- clingo, in-process -----------------------------------------------------------------------

class _App:
    program_name = "clingo"
    version = "5.8"


def clingo_run(args):
    """clingo's command line in this process: (stdout text, exit code)."""
    import clingo  # PyPI's clingo 5.8 (scripts/setup.sh)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile() as f, open(os.devnull, "w") as null:
        os.dup2(f.fileno(), 1)
        os.dup2(null.fileno(), 2)  # its warnings (`--opt-mode=enum` ignores the objective)
        try:
            rc = clingo.clingo_main(_App(), list(args))
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        f.seek(0)
        return f.read().decode(), rc


# ---- programs ---------------------------------------------------------------------------------

def gen_binary(work):
    exe = os.path.join(work, "gen_program")
    if not os.path.exists(exe):
        subprocess.run(["rustc", "--edition", "2021", "-O", "-o", exe,
                        os.path.join(ROOT, "tests/gen/emit.rs")], check=True)
    return exe


def extras(pid, text):
    """The `#project` and `#show` directives of program `pid`: two to four of its atoms."""
    atoms = sorted(set(re.findall(r"\ba(\d+)\b", text)), key=int)
    r = random.Random(pid)
    pick = r.sample(atoms, min(len(atoms), r.randint(2, 4))) if atoms else []
    proj = "".join("#project a%s.\n" % a for a in pick)
    show = "".join("#show a%s/0.\n" % a for a in pick)
    return ["a" + a for a in pick], proj, show


def gringo(lp, aspif):
    with open(aspif, "w") as out:
        subprocess.run(["gringo", "-Wnone", lp], stdout=out, check=True)


def modes_of(has_objective, has_optimum):
    """The modes of a program: those about an objective when it has one, the bounds' when it
    has an optimum."""
    return [m for m in MODES if (has_objective or m not in OBJECTIVE_MODES)
            and (has_optimum or m not in ("enum,B", "opt,B"))]


def mode_args(mode, optimum, last_level_down):
    """yasmin-rs's and clingo's options for `mode` (optimum: clingo's, for the bounds)."""
    bound = list(optimum or ())
    if mode == "opt,B" and last_level_down and bound:
        bound[-1] -= 1
    b = ",".join(str(x) for x in bound)
    return {
        "all": ["-n", "0"],
        "optN": ["--opt-mode=optN", "-n", "0"],
        "opt": ["-n", "0"],
        "enum": ["--opt-mode=enum", "-n", "0"],
        "enum,B": ["--opt-mode=enum," + b, "-n", "0"],
        "opt,B": ["--opt-mode=opt," + b, "-n", "0"],
        "brave": ["--enum-mode=brave", "-n", "0"],
        "cautious": ["--enum-mode=cautious", "-n", "0"],
        "project": ["--project", "-n", "0"],
        "project-show": ["--project", "-n", "0"],
        # Consequences of a program with #project directives: over the projection (clingo's).
        "brave-proj": ["--enum-mode=brave", "-n", "0"],
        "cautious-proj": ["--enum-mode=cautious", "-n", "0", "--project"],
    }[mode]


def file_of(mode):
    return {"project": "proj", "project-show": "show", "brave-proj": "proj",
            "cautious-proj": "proj"}.get(mode, "base")


def expected_one(d, pid):
    """clingo's view of every mode of program `pid` in `d`."""
    info = json.load(open(os.path.join(d, pid + ".json")))
    aspif = {k: os.path.join(d, "%s.%s.aspif" % (pid, k)) for k in ("base", "proj", "show")}
    out, _ = clingo_run(["--eq=0", "-n", "0", aspif["base"]])
    # An aspif minimize statement (a line `2 priority n ...`): an objective, even with no
    # model. Per ground form: gringo may simplify it away in one and not in another
    # (`#project` directives keep atoms it would otherwise drop).
    objective = {k: any(l.startswith("2 ") for l in open(f)) for k, f in aspif.items()}
    has_objective = objective["base"]
    p = parse(out)
    optimum = p["models"][-1][1] if has_objective and p["models"] else None
    info["objective"] = has_objective
    info["optimum"] = optimum
    info["down"] = int(pid) % 2 == 1
    want = {}
    for mode in modes_of(info["objective"], optimum is not None):
        args = mode_args(mode, optimum, info["down"])
        if objective[file_of(mode)] and mode not in OBJECTIVE_MODES:
            args = args + ["--opt-mode=ignore"]
        o, rc = clingo_run(["--eq=0"] + args + [aspif[file_of(mode)]])
        want[mode] = {"args": args, "view": jsonable(view(mode, parse(o), rc, info["proj"]))}
    info["want"] = want
    with open(os.path.join(d, pid + ".json"), "w") as f:
        json.dump(info, f)
    return pid


def cmd_gen_into(d, count, seed, work, kinds=None):
    os.makedirs(d, exist_ok=True)
    exe = gen_binary(work)
    kinds = kinds or KINDS
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise SystemExit("matrix: unknown kinds %s (kinds: %s)" % (",".join(unknown),
                                                                ",".join(KINDS)))
    subprocess.run([exe, "--out", d, "--count", str(count), "--seed", str(seed),
                    "--kinds", ",".join(kinds)], check=True)
    index = [l.split("\t") for l in open(os.path.join(d, "index.tsv")).read().split("\n")[1:] if l]
    for pid, kind, pseed in index:
        text = open(os.path.join(d, pid + ".lp")).read()
        proj_atoms, proj, show = extras(int(pid) + seed * 1000003, text)
        for k, extra in (("base", ""), ("proj", proj), ("show", show)):
            lp = os.path.join(d, "%s.%s.lp" % (pid, k))
            with open(lp, "w") as f:
                f.write(text + extra)
            gringo(lp, os.path.join(d, "%s.%s.aspif" % (pid, k)))
            os.remove(lp)
        with open(os.path.join(d, pid + ".json"), "w") as f:
            json.dump({"id": pid, "kind": kind, "seed": int(pseed), "proj": proj_atoms}, f)
    for pid, _, _ in index:
        expected_one(d, pid)
    return [pid for pid, _, _ in index]


# ---- yasmin-rs --------------------------------------------------------------------------------

def engine_args(engine, pid):
    """The engine's options, varied from program to program: learning scheme, --eq, the
    number of device searches."""
    i = int(pid)
    args = list(ENGINES[engine])
    args += ["--learning", ["res", "fwd"][i % 2]]
    if i % 5 == 2:
        args += ["--eq=0"]
    if engine in ("emu", "auto-emu", "emu-usc", "emu-vmtf"):
        args += ["--gpu-searches", str(1 + i % 8)]
    if engine == "cpu1" and i % 3 == 1:
        args += ["--decide=vars"]
    return args


def jobs_of(d, pids, engines, time_limit=60):
    jobs = []
    for pid in pids:
        info = json.load(open(os.path.join(d, pid + ".json")))
        for mode, w in info["want"].items():
            for engine in engines:
                if mode not in ENGINE_MODES.get(engine, {mode}):
                    continue
                aspif = os.path.join(d, "%s.%s.aspif" % (pid, file_of(mode)))
                args = [aspif] + w["args"] + engine_args(engine, pid) + [
                    "--stats", "--time-limit", str(time_limit)]
                jobs.append((pid, mode, engine, args))
    return jobs


def run_process(binary, args, timeout):
    try:
        p = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.stdout.decode(), p.returncode, p.stderr.decode()
    except subprocess.TimeoutExpired:
        return "", None, "killed after %s s" % timeout


def run_batch(batch, jobs, work, nproc, log_path=None):
    """Run `jobs` through examples/cli_batch in `nproc` processes; {index: (out, rc, err)}."""
    out_dir = tempfile.mkdtemp(dir=work)
    shards = [jobs[k::nproc] for k in range(nproc)]
    procs = []
    for k, shard in enumerate(shards):
        jf = os.path.join(out_dir, "jobs%d.tsv" % k)
        with open(jf, "w") as f:
            for idx, (_, _, _, args) in shard:
                f.write("\t".join([os.path.join(out_dir, "%d.out" % idx)] + args) + "\n")
        err = open(os.path.join(out_dir, "err%d.txt" % k), "w")
        times = open(log_path, "a") if log_path else subprocess.DEVNULL
        procs.append(subprocess.Popen([batch, jf], stdout=times, stderr=err))
    for p in procs:
        p.wait()
    res = {}
    for k, shard in enumerate(shards):
        for idx, _ in shard:
            o = os.path.join(out_dir, "%d.out" % idx)
            try:
                rc = int(open(o + ".rc").read())
                res[idx] = (open(o).read(), rc, "")
            except (OSError, ValueError):
                res[idx] = ("", None, "cli_batch did not finish this job (shard %d)" % k)
    shutil.rmtree(out_dir, ignore_errors=True)
    return res


def check_dir(d, pids, engines, binary, batch, jobs_n, work, log=print, batch_log=None,
              time_limit=60):
    jobs = jobs_of(d, pids, engines, time_limit)
    indexed = list(enumerate(jobs))
    start = time.time()
    if batch:
        results = run_batch(batch, indexed, work, jobs_n, batch_log)
    else:
        with concurrent.futures.ThreadPoolExecutor(jobs_n) as ex:
            futs = {ex.submit(run_process, binary, j[3], 90): i for i, j in indexed}
            results = {futs[f]: f.result() for f in concurrent.futures.as_completed(futs)}
    infos = {pid: json.load(open(os.path.join(d, pid + ".json"))) for pid in pids}
    table = collections.defaultdict(lambda: [0, 0])  # (class, mode, engine) -> [runs, bad]
    classes = {}
    bad = []
    for i, (pid, mode, engine, args) in indexed:
        out, rc, err = results[i]
        info = infos[pid]
        p = parse(out)
        if mode == "all":
            classes[pid] = program_class(info, p)
        got = jsonable(view(mode, p, rc, info["proj"]))
        want = info["want"][mode]["view"]
        if mode in ("opt", "opt,B"):
            want = dict(want, decreasing=True)
        ok = agrees(mode, want, got, info)
        cls = classes.get(pid) or info["kind"]
        table[(cls, mode, engine)][0] += 1
        if not ok:
            table[(cls, mode, engine)][1] += 1
            bad.append((pid, mode, engine, args, want, got, err))
    elapsed = time.time() - start
    for pid in pids:
        classes.setdefault(pid, infos[pid]["kind"])
    summary(log, table, len(pids), len(jobs), len(bad), elapsed, classes)
    for pid, mode, engine, args, want, got, err in bad[:10]:
        path = os.path.join(d, "%s.%s.aspif" % (pid, file_of(mode)))
        text = open(path).read() if os.path.exists(path) else ""
        info = infos[pid]
        log("MISMATCH program %s (kind %s, generator seed %s; gen_program --kind %s --seed %s), "
            "mode %s, engine %s:\n  yasmin-rs %s\n  clingo  %s\n  want %s\n  got  %s\n%s"
            % (pid, info["kind"], info["seed"], info["kind"], info["seed"], mode, engine,
               " ".join(shlex.quote(a) for a in args), " ".join(info["want"][mode]["args"]),
               json.dumps(want), json.dumps(got), err.strip()[-2000:]))
        if len(text) < 4000:
            log("  --- ground program (aspif) ---\n" + text)
    return len(bad)


def program_class(info, p):
    """The generator's kind and what the solver saw: tight, non-tight, or a head cycle (its
    candidates checked for minimality: not head-cycle-free), and an objective."""
    cls = "non-HCF" if p["minimality"] else ("tight" if p["tight"] else "non-tight")
    return info["kind"] + ":" + cls + ("+objective" if info["objective"] else "")


def summary(log, table, programs, runs, bad, elapsed, classes):
    log("mode matrix: %d programs, %d runs, %d mismatches, %.1f s" % (programs, runs, bad,
                                                                       elapsed))
    engines = sorted({e for _, _, e in table})
    log("programs by class: " + ", ".join(
        "%s %d" % kv for kv in sorted(collections.Counter(classes.values()).items())))
    log("runs (mismatches) by mode and engine:")
    log("  %-13s" % "mode" + "".join("%14s" % e for e in engines))
    for mode in MODES:
        row = []
        for e in engines:
            n = sum(v[0] for (c, m, en), v in table.items() if m == mode and en == e)
            b = sum(v[1] for (c, m, en), v in table.items() if m == mode and en == e)
            row.append("%14s" % ("%d (%d)" % (n, b)))
        log("  %-13s" % mode + "".join(row))


# ---- commands ---------------------------------------------------------------------------------

def default_bin():
    return os.path.join(ROOT, "target/release/yasmin-rs")


def cmd_run(args):
    work = tempfile.mkdtemp(prefix="yasmin-matrix-")
    try:
        d = os.path.join(work, "programs")
        log("mode matrix: seed %d, %d programs (reproduce: scripts/bench matrix run --seed %d "
            "--count %d --engines %s%s)" % (args.seed, args.count, args.seed, args.count,
                                            args.engines,
                                            " --kinds " + ",".join(args.kinds)
                                            if args.kinds else ""))
        pids = cmd_gen_into(d, args.count, args.seed, work, args.kinds)
        bad = check_dir(d, pids, args.engines.split(","), args.bin, None, args.jobs, work)
        if args.rows:
            with open(args.rows, "a") as f:
                f.write(json.dumps({"seed": args.seed, "programs": len(pids),
                                    "engines": args.engines, "mismatches": bad}) + "\n")
        return 1 if bad else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cmd_gen(args):
    work = tempfile.mkdtemp(prefix="yasmin-matrix-")
    try:
        pids = cmd_gen_into(args.dir, args.count, args.seed, work, args.kinds)
        for f in os.listdir(args.dir):
            if f.endswith(".lp") or f == "gen_program":
                os.remove(os.path.join(args.dir, f))
        print("mode matrix: %d programs with clingo's answers in %s" % (len(pids), args.dir))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cmd_check(args):
    pids = sorted(f[:-5] for f in os.listdir(args.dir) if f.endswith(".json"))
    pids = pids[args.offset:]
    if args.limit:
        pids = pids[:args.limit]
    work = tempfile.mkdtemp(prefix="yasmin-matrix-")
    try:
        bad = check_dir(args.dir, pids, args.engines.split(","), args.bin, args.batch,
                        args.jobs, work, batch_log=args.batch_log, time_limit=args.time_limit)
        return 1 if bad else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def log(msg):
    print(msg, flush=True)


def add_parser(sub):
    p = sub.add_parser("matrix", help="every mode x every kind of program x every engine, "
                                      "against clingo 5.8")
    s = p.add_subparsers(dest="matrix_command", required=True)
    common = dict(jobs=os.cpu_count() or 2)
    r = s.add_parser("run")
    r.add_argument("--count", type=int, default=70)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--engines", default="cpu1,cpu4,emu")
    r.add_argument("--bin", default=default_bin())
    r.add_argument("--jobs", type=int, default=common["jobs"])
    r.add_argument("--rows", help="append a JSON row of the counts to this file")
    r.add_argument("--kinds", type=lambda v: v.split(","),
                   help="comma-separated kinds of program (default: all, %s)" % ",".join(KINDS))
    r.set_defaults(func=cmd_run)
    g = s.add_parser("gen")
    g.add_argument("dir")
    g.add_argument("--count", type=int, default=2000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--kinds", type=lambda v: v.split(","),
                   help="comma-separated kinds of program (default: all)")
    g.set_defaults(func=cmd_gen)
    c = s.add_parser("check")
    c.add_argument("dir")
    c.add_argument("--engines", default="gpu")
    c.add_argument("--bin", default=default_bin())
    c.add_argument("--batch", help="examples/cli_batch's binary: every run in a few processes")
    c.add_argument("--jobs", type=int, default=common["jobs"])
    c.add_argument("--batch-log", help="append cli_batch's line per run (code, seconds) here")
    c.add_argument("--time-limit", type=int, default=60, help="each run's --time-limit")
    c.add_argument("--offset", type=int, default=0, help="skip the first programs")
    c.add_argument("--limit", type=int, default=0, help="at most this many programs")
    c.set_defaults(func=cmd_check)
