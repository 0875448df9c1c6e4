"""`scripts/bench device`: the GPU machine (no Rust, gringo or network; python3, 16 cores).

  device kit     build machine: fill KIT (default .device/kit, git-ignored) with the stripped
                 release binary, examples/gpu_batch, the clingo wheel (+ cffi, pycparser) for the
                 device's CPython 3.12, the xz ground files of the chosen cached instances
                 (smallest first, while the kit fits --budget-mb) and their list.tsv; with
                 --corpus DIR (scripts/gen-corpus.sh) also DIR packed as corpus.tar.xz.
  device smoke   GPU machine: the examples through --engine=gpu with both learning schemes and
                 1, 7, 200 searches, and through the whole machine (auto, -t N; on a host with
                 several GPUs auto has a member on each), against their
                 known model counts; every tests/regress/*.aspif through --engine=gpu against
                 the host engine's answer sets; compute-sanitizer memcheck and racecheck on
                 three examples (SANITIZE=0 skips them).
  device accept  GPU machine: the acceptance check in parts (scripts/lib/accept.sh).
Then on the GPU machine (carry [".device"]):
  scripts/bench run --kit .device/kit --configs gpu:res,cpu:res,clingo --parallel 14 \\
      --time-limit 60 --chunk 1/5 --out $OUT/rows.jsonl

Invariant: KIT/list.tsv names exactly the instances whose ground files are in KIT/ground/, and
the kit stays under the budget (the device carry limit is 64 MiB, working tree included).
"""

import os
import shutil
import tempfile
import subprocess
import sys

import sets

KIT_DEFAULT = os.path.join(sets.ROOT, ".device", "kit")


def _sh(argv, **kw):
    print("+ " + " ".join(argv), flush=True)
    subprocess.run(argv, check=True, **kw)


def du(path):
    total = 0
    for d, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(d, f)) for f in files)
    return total


def kit(args):
    k = args.kit
    os.makedirs(os.path.join(k, "whl"), exist_ok=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(sets.ROOT, "target"))
    if not args.no_build:
        _sh(["nice", "cargo", "build", "--release", "--bin", "yasmin-rs", "--example",
             "gpu_batch", "--example", "cli_batch"], cwd=sets.ROOT)
        _sh(["strip", "-o", os.path.join(k, "yasmin-rs"),
             os.path.join(target, "release", "yasmin-rs")])
        for example in ("gpu_batch", "cli_batch"):
            _sh(["strip", "-o", os.path.join(k, example),
                 os.path.join(target, "release", "examples", example)])
    if not any(w.startswith("clingo-") for w in os.listdir(os.path.join(k, "whl"))):
        _sh([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
             "--python-version", "3.12", "--implementation", "cp",
             "--platform", "manylinux_2_28_x86_64", "--platform", "manylinux_2_17_x86_64",
             "--platform", "manylinux2014_x86_64", "-d", os.path.join(k, "whl"),
             "clingo", "cffi", "pycparser"])
    if args.corpus:
        _sh(["sh", "-c", 'tar cf - -C "$1" --exclude="*.lp" . | xz -T1 -9 > "$2"', "_",
             args.corpus, os.path.join(k, "corpus.tar.xz")])
    # Ground files, smallest first, while the kit fits the budget.
    cache = sets.cache_dir()
    rows = sets.select(sets.read_tsv(os.path.join(cache, "list.tsv")), args.classes,
                       args.instances, None, args.set.split(",") if args.set else None)
    shutil.rmtree(os.path.join(k, "ground"), ignore_errors=True)
    budget = args.budget_mb * 1024 * 1024
    used = du(k)
    keep, skipped = [], []
    for r in sorted(rows, key=lambda r: os.path.getsize(os.path.join(cache, "ground",
                                                                     r["ground"]))):
        src = os.path.join(cache, "ground", r["ground"])
        size = os.path.getsize(src)
        if used + size > budget:
            skipped.append(r["instance"])
            continue
        dst = os.path.join(k, "ground", r["ground"])
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
        used += size
        keep.append(r)
    order = {r["instance"]: i for i, r in enumerate(rows)}  # the cache list's order
    keep.sort(key=lambda r: order[r["instance"]])
    sets.write_tsv(os.path.join(k, "list.tsv"), keep, sets.LIST_COLUMNS)
    print("device kit: %d instances in %s (%.1f MB), budget %d MB"
          % (len(keep), k, du(k) / 2**20, args.budget_mb))
    for s in skipped:
        print("  skipped (budget) " + s)
    return 0


SMOKE = [("queens", 4), ("hamiltonian", 4), ("coloring", 18)]
# Optimisation examples and clingo 5.8's optimum (costs by priority, highest first).
SMOKE_OPT = [("cover", "21 3")]


def optimum(stdout):
    """'OPTIMUM FOUND' and the summary's costs, or None."""
    if "OPTIMUM FOUND" not in stdout.splitlines():
        return None
    return next((l.split(":", 1)[1].strip() for l in stdout.splitlines()
                 if l.startswith("Optimization :")), None)


def answer_sets(stdout):
    """The answer sets printed (each sorted), sorted."""
    lines = stdout.splitlines()
    return sorted(tuple(sorted(lines[i + 1].split())) for i, l in enumerate(lines)
                  if l.startswith("Answer:") and i + 1 < len(lines))


def models(stdout):
    """The count of the `Models` line, or None."""
    return next((l.split()[2] for l in stdout.splitlines() if l.startswith("Models")), None)


def one_process(kit_dir):
    """Several runs in one process (cli_batch, as the mode matrix runs them): each engine built
    after another's teardown must find the GPU as the first did. Found by the matrix: the
    optimisation race dropped its losers on a thread without the CUDA context, which leaked
    their device memory and failed the next run with CUDA_ERROR_INVALID_CONTEXT."""
    batch = os.path.join(kit_dir, "cli_batch")
    if not os.path.exists(batch):
        print("one process: no %s (scripts/bench device kit builds it)" % batch)
        return 0
    runs = [(["--engine=gpu"], "cover"), (["--engine=gpu", "--opt-strategy=usc"], "cover"),
            (["--engine=gpu"], "cover"), (["--engine=auto"], "cover"),
            (["--engine=gpu", "--opt-strategy=usc"], "cover"), (["--engine=gpu"], "queens")]
    out = tempfile.mkdtemp(prefix="one-process-")  # not $OUT: few files come back from it
    jobs = os.path.join(out, "one-process.jobs")
    with open(jobs, "w") as f:
        for i, (extra, name) in enumerate(runs):
            f.write("\t".join([os.path.join(out, "one-process-%d.out" % i),
                               "examples/%s.aspif" % name, "-n", "0", "-q"] + extra) + "\n")
    p = subprocess.run([batch, jobs], capture_output=True, text=True)
    fails = 0
    for i, (extra, name) in enumerate(runs):
        with open(os.path.join(out, "one-process-%d.out" % i)) as f:
            text = f.read()
        got = optimum(text) if name == "cover" else models(text)
        want = dict(SMOKE_OPT).get(name) or str(dict(SMOKE)[name])
        if got != want:
            fails += 1
            print("SMOKE FAIL one process, run %d (%s %s): %s, want %s; %s"
                  % (i + 1, name, " ".join(extra), got, want, p.stderr.strip()[-300:]))
    return fails


def smoke(args):
    binary = os.path.join(args.kit, "yasmin-rs")
    out = os.environ.get("OUT", "/tmp/out")
    os.makedirs(out, exist_ok=True)
    fails = 0
    for name, want in SMOKE:
        for learning in ("res", "fwd"):
            for n in (1, 7, 200):
                p = subprocess.run([binary, "examples/%s.aspif" % name, "-n", "0", "-q",
                                    "--engine=gpu", "--learning=" + learning,
                                    "--gpu-searches=%d" % n], capture_output=True, text=True)
                got = models(p.stdout)
                if got != str(want):
                    fails += 1
                    print("SMOKE FAIL %s %s searches=%d: %s models, want %d (exit %d)"
                          % (name, learning, n, got, want, p.returncode))
    # The whole machine (GPU + host threads) and the host threads alone.
    for name, want in SMOKE:
        for extra in (["--engine=auto"], ["--engine=auto", "-t", "3"],
                      ["--engine=cpu", "-t", "16"], ["--engine=auto", "--learning=fwd"]):
            p = subprocess.run([binary, "examples/%s.aspif" % name, "-n", "0", "-q"] + extra,
                               capture_output=True, text=True)
            got = models(p.stdout)
            if got != str(want):
                fails += 1
                print("SMOKE FAIL %s %s: %s models, want %d (exit %d)"
                      % (name, " ".join(extra), got, want, p.returncode))
    # Optimisation: the GPU engine's branch and bound, alone and beside the host threads.
    for name, want in SMOKE_OPT:
        runs = [["--engine=gpu", "--learning=" + lr, "--gpu-searches=%d" % n]
                for lr in ("res", "fwd") for n in (1, 7, 200)]
        runs += [["--engine=auto"], ["--engine=auto", "-t", "3"], ["--engine=gpu",
                                                                   "--opt-mode=optN"]]
        for extra in runs:
            p = subprocess.run([binary, "examples/%s.aspif" % name, "-n", "0", "-q"] + extra,
                               capture_output=True, text=True)
            got = optimum(p.stdout)
            if got != want:
                fails += 1
                print("SMOKE FAIL %s %s: optimum %s, want %s (exit %d)"
                      % (name, " ".join(extra), got, want, p.returncode))
    # The regression inputs (tests/regress.rs) through the GPU engine, at the default count of
    # searches and at 256, against the host engine.
    regress = os.path.join(sets.ROOT, "tests", "regress")
    for name in sorted(f for f in os.listdir(regress) if f.endswith(".aspif")):
        path = os.path.join(regress, name)
        want = subprocess.run([binary, path, "-n", "0", "--engine=cpu"], capture_output=True,
                              text=True)
        for extra in ([], ["--gpu-searches=256"]):
            p = subprocess.run([binary, path, "-n", "0", "--engine=gpu"] + extra,
                               capture_output=True, text=True)
            if (p.returncode, answer_sets(p.stdout)) != (want.returncode,
                                                          answer_sets(want.stdout)):
                fails += 1
                print("SMOKE FAIL %s --engine=gpu %s: exit %d, host engine exit %d; %s"
                      % (name, " ".join(extra), p.returncode, want.returncode,
                         p.stderr.strip()[:200]))
    fails += one_process(args.kit)
    p = subprocess.run([binary, "examples/queens.aspif", "-n", "1", "--stats"],
                       capture_output=True, text=True)
    # Where a small run's time goes on this machine: the driver's start (the GPUs phase)
    # against the search.
    print("\n".join(l for l in p.stdout.splitlines() + p.stderr.splitlines()
                    if l.startswith(("Portfolio", "GPU searches", "Conflicts", "Time"))
                    or "GPUs     :" in l))
    san = shutil.which("compute-sanitizer")
    if os.environ.get("SANITIZE") == "0":
        print("sanitizers skipped (SANITIZE=0)")
    elif san:
        for tool in ("memcheck", "racecheck"):
            for name in ("queens", "hamiltonian", "cover"):
                p = subprocess.run([san, "--tool", tool, "--error-exitcode", "9", binary,
                                    "examples/%s.aspif" % name, "-n", "0", "-q", "--engine=gpu",
                                    "--gpu-searches=8"], capture_output=True, text=True)
                text = p.stdout + p.stderr
                summary = next((l for l in text.splitlines() if "SUMMARY" in l), "")
                print("sanitizer %s %s: exit %d %s" % (tool, name, p.returncode, summary))
                fails += p.returncode == 9
                with open(os.path.join(out, "sanitizer.txt"), "a") as f:
                    f.write("== %s %s\n%s\n" % (tool, name, "\n".join(text.splitlines()[:80])))
    else:
        print("compute-sanitizer not found")
    print("smoke failures: %d" % fails)
    return 1 if fails else 0


def accept(args):
    env = dict(os.environ, PART=" ".join(args.parts))
    return subprocess.call(["bash", os.path.join(sets.ROOT, "scripts", "lib", "accept.sh"),
                            args.kit], env=env)


def add_parser(sub):
    import argparse
    p = sub.add_parser("device", help="the GPU machine: kit, smoke test, acceptance checks",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    s = p.add_subparsers(dest="device_command", required=True)
    k = s.add_parser("kit", help="build machine: fill the kit")
    k.add_argument("--kit", default=KIT_DEFAULT)
    k.add_argument("--budget-mb", type=int, default=50)
    k.add_argument("--set", help="shared, added (default: both)")
    k.add_argument("--classes")
    k.add_argument("--instances")
    k.add_argument("--corpus", help="a folder of scripts/gen-corpus.sh to carry")
    k.add_argument("--no-build", action="store_true", help="keep the kit's binaries")
    k.set_defaults(func=kit)
    m = s.add_parser("smoke", help="GPU machine: examples' model counts, compute-sanitizer")
    m.add_argument("--kit", default=KIT_DEFAULT)
    m.set_defaults(func=smoke)
    a = s.add_parser("accept", help="GPU machine: corpus, instances, table1, sanitizer parts")
    a.add_argument("--kit", default=KIT_DEFAULT)
    a.add_argument("parts", nargs="+", choices=["corpus", "instances", "table1", "sanitizer"])
    a.set_defaults(func=accept)
