"""Tests of scripts/bench's helpers (python3 -m unittest discover -s scripts/lib; tests/bench.rs
runs them under cargo test). No solver needed: the end-to-end tests use stand-in solvers, small
shell scripts that print what clingo or yasmin-rs would."""

import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

import common
import configs
import manifest
import report
import sets
import slots

BENCH = os.path.join(sets.ROOT, "scripts", "bench")


def fake_solver(path, word, code, opt=None):
    """A stand-in solver: prints WORD (and an Optimization line) and exits CODE."""
    lines = ["Answer: 1", "a", ] + (["Optimization: %d" % opt] if opt is not None else [])
    if word == "UNSATISFIABLE":
        lines = []
    body = "\n".join(lines + [word, "", "Models       : 1", "Choices      : 7",
                               "Conflicts    : 3", "Time         : 0.010s"])
    with open(path, "w") as f:
        f.write("#!/bin/sh\ncat <<'EOF'\n%s\nEOF\nexit %d\n" % (body, code))
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


class Slots(unittest.TestCase):
    def fake_sys(self, root, cpus):
        """cpus: {cpu: (package, core, node)} as sysfs shows them."""
        for c, (pkg, core, node) in cpus.items():
            topo = os.path.join(root, "devices/system/cpu/cpu%d/topology" % c)
            os.makedirs(topo)
            with open(os.path.join(topo, "physical_package_id"), "w") as f:
                f.write("%d\n" % pkg)
            with open(os.path.join(topo, "core_id"), "w") as f:
                f.write("%d\n" % core)
            os.makedirs(os.path.join(root, "devices/system/cpu/cpu%d/node%d" % (c, node)))

    def test_cpu_lists_round_trip(self):
        self.assertEqual(slots.cpu_list("0-3,8,10-11"), [0, 1, 2, 3, 8, 10, 11])
        self.assertEqual(slots.cpu_text([11, 0, 1, 2, 3, 8, 10]), "0-3,8,10-11")

    def test_siblings_stay_together_and_slots_are_disjoint(self):
        # two packages of 4 cores, hyper-threads numbered cpu and cpu + 8
        cpus = {c: (c % 8 // 4, c % 4, c % 8 // 4) for c in range(16)}
        with tempfile.TemporaryDirectory() as root:
            self.fake_sys(root, cpus)
            cores = slots.physical_cores(sorted(cpus), root)
            self.assertEqual(len(cores), 8)
            sets2 = slots.split(cores, 2)
            self.assertEqual(sets2, [[0, 1, 2, 3, 8, 9, 10, 11], [4, 5, 6, 7, 12, 13, 14, 15]])
            four = slots.split(cores, 4)
            self.assertEqual(sorted(c for s in four for c in s), list(range(16)))
            self.assertTrue(all(len(s) == 4 for s in four))
            # GPUs listed node 1 first: the slot on node 0 takes the GPU on node 0
            gpus = slots.assign(sets2, [1, 0], lambda c: slots.cpu_node(c, root))
            self.assertEqual(gpus, [1, 0])
            self.assertRaises(ValueError, slots.split, cores, 9)

    def test_wrap_pins_cpus_and_gpu(self):
        argv, env = slots.wrap(("0-3", 2), ["solver", "-q"], {"PATH": "/bin"})
        self.assertEqual(argv[-2:], ["solver", "-q"])
        self.assertEqual(argv[:3], ["taskset", "-c", "0-3"])
        self.assertEqual(env["CUDA_VISIBLE_DEVICES"], "2")
        self.assertEqual(slots.wrap(None, ["s"]), (["s"], None))


class Configs(unittest.TestCase):
    def test_forms_and_shares(self):
        cases = {
            "clingo": ("single", []),
            "clingo-t16": ("machine", ["-t", "16"]),
            # yasmin-rs's host engine takes every core unless told: `cpu:res` is one thread.
            "cpu:res": ("single", ["--engine", "cpu", "--learning", "res", "-t", "1"]),
            "cpu:res:t16": ("machine", ["--engine", "cpu", "--learning", "res", "-t", "16"]),
            "gpu:fwd:jw": ("device", ["--engine", "gpu", "--learning", "fwd", "--heuristic",
                                      "jw"]),
            "auto:res": ("machine", ["--engine", "auto", "--learning", "res"]),
            "cpu:fwd:activity:vars+fwd-cut=lits": (
                "single", ["--engine", "cpu", "--learning", "fwd", "--heuristic", "activity",
                           "--decide", "vars", "-t", "1", "--fwd-cut=lits"]),
            "yasmin:g1:--engine=gpu -t 1": ("device", ["--engine=gpu", "-t", "1"]),
            "yasmin:c8:--engine cpu --parallel-mode 8,compete": (
                "machine", ["--engine", "cpu", "--parallel-mode", "8,compete"]),
            "auto:default": ("machine", ["--engine", "auto"]),
            "cpu:default+parallel-mode=16": ("machine", ["--engine", "cpu",
                                                         "--parallel-mode=16"]),
            "cpu:default+parallel-mode=1": ("single", ["--engine", "cpu", "--parallel-mode=1"]),
            "gpu:default": ("device", ["--engine", "gpu"]),
        }
        for name, (share, flags) in cases.items():
            c = configs.parse(name)
            self.assertEqual((c["share"], c["flags"]), (share, flags), name)
        self.assertEqual(configs.parse("yasmin:g1:--engine=gpu")["name"], "g1")
        old = configs.parse("yasmin:g0:bin=/x/old --engine=gpu")
        self.assertEqual((old["share"], old["flags"]), ("device", ["--engine=gpu"]))
        self.assertEqual(configs.command(old, "g.aspif", 10, 1, "new", ["clingo"])[0], "/x/old")
        self.assertEqual(configs.command(configs.parse("gpu:default"), "g.aspif", 10, 1, "new",
                                         ["clingo"])[0], "new")

    def test_quiet_runs_still_print_costs_when_optimising(self):
        # A quiet optimisation run must print each model's time and cost, as clingo's does,
        # or the report has no trajectory (best cost within 10 s) for it.
        for name in ("cpu:default", "clingo"):
            cfg = configs.parse(name)
            argv = configs.command(cfg, "g.aspif", 10, 0, "bin", ["clingo"], quiet=True,
                                   optimising=True)
            self.assertIn("-q2,0", argv, name)
            self.assertNotIn("-q", argv, name)
            plain = configs.command(cfg, "g.aspif", 10, 1, "bin", ["clingo"], quiet=True)
            self.assertIn("-q", plain, name)

    def test_bad_forms_are_refused(self):
        for bad in ("cpu", "tpu:res", "cpu:res+-x", "yasmin::--x", "cpu:res:a:b:c"):
            with self.assertRaises(SystemExit, msg=bad):
                configs.parse(bad)


class Verdicts(unittest.TestCase):
    def test_decision(self):
        self.assertEqual(common.agrees("SAT", "SAT"), "ok")
        self.assertEqual(common.agrees("UNSAT", "SAT"), "WRONG")
        self.assertEqual(common.agrees("SAT", "UNSAT"), "WRONG")
        self.assertEqual(common.agrees("TIMEOUT", "UNSAT"), "unsolved")
        self.assertEqual(common.agrees("SAT", "SAT(best=562;not_proven_in_60s)"), "ok")

    def test_optimum(self):
        self.assertEqual(common.agrees("OPT", "OPT=9", [9]), "ok")
        self.assertEqual(common.agrees("OPT", "OPT=9", [10]), "WRONG")
        self.assertEqual(common.agrees("SAT", "OPT=9", [12]), "ok")  # not yet optimal
        self.assertEqual(common.agrees("SAT", "OPT=9", [8]), "WRONG")  # beats a proved optimum
        self.assertEqual(common.agrees("OPT", "OPT", [3, 4], [3, 4]), "ok")
        self.assertEqual(common.agrees("OPT", "OPT", [3, 5], [3, 4]), "WRONG")
        self.assertEqual(common.agrees("UNSAT", "OPT=9"), "WRONG")

    def test_asked_for_the_optimum_a_model_is_not_enough(self):
        self.assertTrue(common.is_optimisation("SAT(best=3;not_proven_in_60s)"))
        self.assertTrue(common.is_optimisation("SAT", "normal+minimize"))
        self.assertFalse(common.is_optimisation("SAT", "normal+choice"))
        self.assertEqual(common.verdict("SAT", "OPT=9", [12], None, True), "unsolved")
        self.assertEqual(common.verdict("SAT", "OPT=9", [12], None, False), "ok")
        self.assertEqual(common.verdict("OPT", "OPT=9", [9], None, True), "ok")
        self.assertEqual(common.verdict("SAT", "OPT=9", [8], None, True), "WRONG")


class Parse(unittest.TestCase):
    def test_optimization_from_models_and_summary(self):
        text = ("Answer: 1\na\nOptimization: 9 20\nAnswer: 2\nb\nOptimization: 9 19\n"
                "OPTIMUM FOUND\n\nModels       : 2\n  Optimum    : yes\n")
        p = common.parse_output(text)
        self.assertEqual((p["result"], p["optimization"]), ("OPT", [9, 19]))
        # clingo -q prints no model, only the summary's 'Optimization : ...'
        text = "OPTIMUM FOUND\n\nModels       : 3\n  Optimum    : yes\nOptimization : 9 19 94\n"
        self.assertEqual(common.parse_output(text)["optimization"], [9, 19, 94])
        self.assertIsNone(common.parse_output("SATISFIABLE\nTime : 1.0s\n")["optimization"])

    def test_portfolio_line_names_the_gpus_and_the_answering_one(self):
        def stats(line):
            return common.parse_output("SATISFIABLE\nPortfolio    : " + line + "\n")["stats"]
        s = stats("answer from the GPU engine on GPU 2; members: the CPU engine (12 threads) "
                  "and 800 GPU searches on 4 GPUs")
        self.assertEqual((s["portfolio_cpu"], s["portfolio_gpus"], s["portfolio_gpu_answered"]),
                         (0.0, 4.0, 2.0))
        s = stats("answer from CPU thread 0 (auto); members: the CPU engine (2 threads) and "
                  "200 GPU searches")
        self.assertEqual((s["portfolio_cpu"], s["portfolio_gpus"]), (1.0, 1.0))
        self.assertNotIn("portfolio_gpu_answered", s)
        s = stats("last model from CPU thread 1 (luby); members: the CPU engine (2 threads and "
                  "the GPU engine on 3 GPUs, optimising together)")
        self.assertEqual(s["portfolio_gpus"], 3.0)
        s = stats("answer from CPU thread 1 (luby); members: the CPU engine (4 threads); CPU "
                  "threads shared 3 nogoods, imported 2")
        self.assertEqual(s["portfolio_gpus"], 0.0)


class Measure(unittest.TestCase):
    def test_peak_memory_is_the_solvers_own(self):
        # This process's peak must not show as the solver's (Linux's ru_maxrss floor).
        big = bytearray(300 << 20)
        for i in range(0, len(big), 4096):
            big[i] = 1
        del big
        small = common.run_measured(["true"], 10)
        self.assertEqual(small["rc"], 0)
        self.assertLess(small["maxrss_kb"], 100 << 10)
        grow = common.run_measured([sys.executable, "-c", "x = bytearray(200 << 20)\n"
                                    "for i in range(0, len(x), 4096): x[i] = 1"], 30)
        self.assertGreater(grow["maxrss_kb"], 200 << 10)

    def test_exit_codes_and_kill(self):
        self.assertEqual(common.run_measured(["sh", "-c", "exit 20"], 10)["rc"], 20)
        r = common.run_measured(["sleep", "5"], 0.5)
        self.assertEqual((r["rc"], r["timed_out"], r["maxrss_kb"]), (None, True, None))


class Lists(unittest.TestCase):
    def test_names(self):
        name = sets.instance_name("benchmarks/visitall/instances/0032-visitall-39-1.lp")
        self.assertEqual(name, "visitall/instances/0032-visitall-39-1.lp")
        self.assertEqual(sets.ground_name(name), "visitall/0032-visitall-39-1.aspif.xz")

    def test_select_filters_then_chunks(self):
        rows = [{"class": c, "instance": "%s/instances/%d.lp" % (c, i), "set": s}
                for c, s in (("a", "shared"), ("b", "added")) for i in range(5)]
        self.assertEqual(len(sets.select(rows, which=["added"])), 5)
        got = sets.select(rows, classes="a", chunk="2/2")
        self.assertEqual([r["instance"] for r in got], ["a/instances/1.lp", "a/instances/3.lp"])
        union = sum((sets.select(rows, chunk="%d/3" % i) for i in (1, 2, 3)), [])
        self.assertEqual(sorted(r["instance"] for r in union), sorted(r["instance"] for r in rows))


class Smodels(unittest.TestCase):
    def facts(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".smodels", delete=False) as f:
            f.write(text)
        try:
            return manifest.smodels_facts(f.name)
        finally:
            os.unlink(f.name)

    def test_positive_loop_is_not_tight(self):
        # a :- b.  b :- a.  c :- not a.  {d}.
        counts, top, tight = self.facts("1 2 1 0 3\n1 3 1 0 2\n1 4 1 1 2\n3 1 5 0 0\n0\n"
                                        "2 a\n3 b\n0\nB+\n0\nB-\n1\n0\n1\n")
        self.assertEqual((dict(counts), top, tight), ({1: 3, 3: 1}, 5, False))

    def test_negative_loop_and_weights_are_tight(self):
        # a :- not b.  b :- not a.  c :- 2 [a=5, b=7].  #minimize [a=9].
        counts, top, tight = self.facts("1 2 1 1 3\n1 3 1 1 2\n5 4 2 2 0 2 3 5 7\n"
                                        "6 0 1 0 2 9\n0\n0\nB+\n0\nB-\n1\n0\n1\n")
        self.assertEqual((dict(counts), top, tight), ({1: 2, 5: 1, 6: 1}, 4, True))


def row(inst, cfg, result, wall, expected="SAT", limit=60, solver="yasmin-rs", opt=None):
    r = {"class": inst.split("/")[0], "instance": inst, "config": cfg, "solver": solver,
         "result": result, "expected": expected, "wall_s": wall, "time_limit": limit,
         "verdict": common.agrees(result, expected, opt), "stats": {}}
    if opt is not None:
        r["optimization"] = opt
    return r


class Report(unittest.TestCase):
    def test_solved_within_and_par2(self):
        rows = [row("k/instances/1.lp", "clingo", "SAT", 5.0, solver="clingo"),
                row("k/instances/1.lp", "cpu:res", "SAT", 30.0),
                row("k/instances/2.lp", "clingo", "UNSAT", 50.0, "UNSAT", solver="clingo"),
                row("k/instances/2.lp", "cpu:res", "TIMEOUT", 70.0, "UNSAT")]
        report.recheck(rows)
        tab, tot = report.class_table(rows, 10)
        self.assertEqual((tot["clingo"], tot["cpu:res"]), (1, 0))
        self.assertIn("| k | 2 | 1 | 0 | 25 | 40 | clingo |", tab)  # 5+2*10; 2*10+2*10
        tab, tot = report.class_table(rows, 60)
        self.assertEqual((tot["clingo"], tot["cpu:res"]), (2, 1))
        self.assertIn("Wrong answers: 0.", tab)

    def test_speed_table_takes_one_thread_host_engine_rows_by_any_name(self):
        def rated(inst, cfg, conflicts, secs, solver="yasmin-rs", engine="cpu", threads=1):
            r = row(inst, cfg, "SAT", secs, solver=solver)
            r.update(engine=engine, threads=threads,
                     stats={"conflicts": conflicts, "search_s": secs})
            return r
        rows = [rated("k/instances/1.lp", "clingo", 1000, 2.0, solver="clingo", engine=None),
                rated("k/instances/1.lp", "after", 500, 2.0),
                rated("k/instances/1.lp", "cpu:t4", 4000, 2.0, threads=4),
                rated("k/instances/1.lp", "gpu", 9000, 2.0, engine="gpu"),
                rated("k/instances/2.lp", "clingo", 100, 0.5, solver="clingo", engine=None),
                rated("k/instances/2.lp", "after", 100, 0.5)]  # under 1 s: not rated
        tab = report.speed_table(rows)
        self.assertIn("`after` ÷ clingo (n)", tab[0])
        self.assertNotIn("cpu:t4", tab[0])
        self.assertNotIn("`gpu`", tab[0])
        self.assertIn("| k | 0.50 (1) |", tab)

    def test_speed_table_reads_the_shared_decision_instances_apart(self):
        def rated(inst, cfg, conflicts, expected="SAT", set_="shared", solver="yasmin-rs"):
            r = row(inst, cfg, "SAT", 2.0, expected, solver=solver)
            r.update(engine="cpu" if solver == "yasmin-rs" else None, threads=1, set=set_,
                     stats={"conflicts": conflicts, "search_s": 2.0})
            return r
        rows = []
        for inst, ours, set_, expected in (("a/instances/1.lp", 900, "shared", "SAT"),
                                           ("a/instances/2.lp", 1200, "shared", "UNSAT"),
                                           ("b/instances/1.lp", 600, "shared", "SAT"),
                                           ("c/instances/1.lp", 100, "added", "SAT"),
                                           ("d/instances/1.lp", 200, "shared", "OPT=3")):
            rows += [rated(inst, "clingo", 1000, expected, set_, solver="clingo"),
                     rated(inst, "after", ours, expected, set_)]
        tab = report.speed_table(rows)
        # All five: 0.1, 0.2, 0.6, 0.9, 1.2; the shared decision ones: 0.6, 0.9, 1.2, whose
        # lowest class is b (0.6; a's median is 1.2 of [0.9, 1.2]).
        self.assertIn("| **median** | **0.60** (5) |", tab)
        self.assertIn("| median, shared decision instances | 0.90 (3) |", tab)
        self.assertIn("| lowest class, shared decision instances | b 0.60 |", tab)

    def test_same_run_clingo_makes_wrong(self):
        # The manifest has no answer ('') but clingo's row says UNSAT: a SAT is WRONG.
        rows = [row("k/instances/1.lp", "clingo", "UNSAT", 1.0, "", solver="clingo"),
                row("k/instances/1.lp", "cpu:res", "SAT", 1.0, ""),
                row("k/instances/3.lp", "clingo", "OPT", 1.0, "", solver="clingo", opt=[7]),
                row("k/instances/3.lp", "cpu:res", "OPT", 1.0, "", opt=[8])]
        report.recheck(rows)
        self.assertEqual([r["verdict"] for r in rows], ["ok", "WRONG", "ok", "WRONG"])
        tab, _ = report.class_table(rows, 10)
        self.assertIn("**WRONG** `cpu:res`", tab[-1])


class PrepareFromMirror(unittest.TestCase):
    """`scripts/bench prepare --set added`: files out of a bare git mirror, ground, xz, listed."""

    def test_materialise_ground_list(self):
        import lzma
        with tempfile.TemporaryDirectory() as tmp:
            work = os.path.join(tmp, "work")
            os.makedirs(os.path.join(work, "P", "instances"))
            with open(os.path.join(work, "P", "encoding.asp"), "w") as f:
                f.write("a :- b.\n")
            with open(os.path.join(work, "P", "instances", "i1.asp"), "w") as f:
                f.write("b.\n")
            git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", work]
            subprocess.run(["git", "init", "-q", work], check=True)
            subprocess.run(git + ["add", "."], check=True)
            subprocess.run(git + ["commit", "-q", "-m", "x"], check=True)
            commit = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True,
                                    text=True, check=True).stdout.strip()
            mirror = os.path.join(tmp, "mirror", "o+r", "repo")
            subprocess.run(["git", "clone", "-q", "--bare", work, mirror], check=True)
            man = os.path.join(tmp, "MANIFEST.tsv")
            sets.write_tsv(man, [{"class": "p", "instance": "benchmarks/p/instances/i1.lp",
                                  "clingo_result": "SAT", "repo": "o/r", "commit": commit,
                                  "encoding_path": "P/encoding.asp",
                                  "instance_path": "P/instances/i1.asp"}], manifest.COLUMNS)
            cache = os.path.join(tmp, "cache")
            env = dict(os.environ, YASMIN_BENCH_ADDED=man, YASMIN_BENCH_CACHE=cache,
                       YASMIN_BENCH_MIRROR=os.path.join(tmp, "mirror"),
                       BENCH_DIR=os.path.join(tmp, "none"), YASMIN_BENCH_GRINGO="cat")
            p = subprocess.run([sys.executable, BENCH, "prepare", "--set", "added"], env=env,
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            with lzma.open(os.path.join(cache, "ground", "p", "i1.aspif.xz"), "rt") as f:
                self.assertEqual(f.read(), "a :- b.\nb.\n")  # the stand-in grounder: cat
            listed = sets.read_tsv(os.path.join(cache, "list.tsv"))
            self.assertEqual([(r["instance"], r["ground"], r["set"], r["expected"])
                              for r in listed],
                             [("p/instances/i1.lp", "p/i1.aspif.xz", "added", "SAT")])
            # A commit the mirror lacks is an error, not an empty file.
            sets.write_tsv(man, [{"class": "p", "instance": "benchmarks/p/instances/i2.lp",
                                  "repo": "o/r", "commit": "0" * 40,
                                  "encoding_path": "P/encoding.asp",
                                  "instance_path": "P/instances/i1.asp"}], manifest.COLUMNS)
            p = subprocess.run([sys.executable, BENCH, "prepare", "--set", "added"], env=env,
                               capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertFalse(os.path.exists(os.path.join(cache, "src", "p", "instances",
                                                         "i2.lp")))


class RunEndToEnd(unittest.TestCase):
    """`scripts/bench run` with stand-in solvers: rows, the same-run check, the exit code."""

    def run_bench(self, tmp, yasmin_word, yasmin_code, expected, configs_arg, kind=""):
        g = os.path.join(tmp, "ground", "k")
        os.makedirs(g, exist_ok=True)
        with open(os.path.join(g, "1.aspif"), "w") as f:
            f.write("asp 1 0 0\n0\n")
        lst = os.path.join(tmp, "list.tsv")
        sets.write_tsv(lst, [{"class": "k", "instance": "k/instances/1.lp",
                              "ground": "k/1.aspif.xz", "set": "added",
                              "expected": expected, "kind": kind}], sets.LIST_COLUMNS)
        clingo = fake_solver(os.path.join(tmp, "clingo"), "UNSATISFIABLE", 0)
        yasmin = fake_solver(os.path.join(tmp, "yasmin"), yasmin_word, yasmin_code)
        out = os.path.join(tmp, "rows.jsonl")
        p = subprocess.run([sys.executable, BENCH, "run", "--list", lst, "--ground-dir",
                            os.path.join(tmp, "ground"), "--bin", yasmin, "--clingo", clingo,
                            "--configs", configs_arg, "--time-limit", "5", "--parallel", "2",
                            "--machine", "test", "--out", out], capture_output=True, text=True)
        with open(out) as f:
            return p.returncode, [json.loads(l) for l in f]

    def test_agreeing_answers(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, rows = self.run_bench(tmp, "UNSATISFIABLE", 20, "UNSAT", "clingo,cpu:res")
        self.assertEqual(rc, 0)
        self.assertEqual(sorted((r["config"], r["result"], r["verdict"]) for r in rows),
                         [("clingo", "UNSAT", "ok"), ("cpu:res", "UNSAT", "ok")])
        self.assertEqual({r["machine"] for r in rows}, {"test"})
        self.assertEqual(rows[0]["stats"]["conflicts"], 3.0)

    def test_contradicting_clingo_in_the_same_run_is_wrong(self):
        # No reference in the list: only clingo's row in this run can show the answer wrong;
        # the GPU configuration runs in its own lane, possibly before clingo has answered.
        with tempfile.TemporaryDirectory() as tmp:
            rc, rows = self.run_bench(tmp, "SATISFIABLE", 10, "", "clingo,gpu:res,cpu:res")
        self.assertEqual(rc, 1)
        verdicts = {r["config"]: r["verdict"] for r in rows}
        self.assertEqual(verdicts, {"clingo": "ok", "gpu:res": "WRONG", "cpu:res": "WRONG"})

    def test_optimisation_instances_ask_for_the_optimum(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, rows = self.run_bench(tmp, "SATISFIABLE", 11, "OPT=3", "cpu:res",
                                      "normal+minimize")
        r = rows[0]
        self.assertEqual((rc, r["models_asked"], r["result"], r["verdict"]),
                         (0, 0, "SAT", "unsolved"))
        self.assertIn(" -n 0 ", r["argv"])

    def test_exit_code_and_word_disagreeing_is_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, rows = self.run_bench(tmp, "SATISFIABLE", 20, "UNSAT", "cpu:res")
        self.assertEqual((rc, rows[0]["result"], rows[0]["verdict"]), (0, "ERROR", "unsolved"))


class CorpusCheck(unittest.TestCase):
    """scripts/bench corpus check against a stand-in solver that answers UNSAT."""

    def check(self, expected, extra=()):
        with tempfile.TemporaryDirectory() as d:
            for i, want in enumerate(expected):
                open(os.path.join(d, "%04d.aspif" % i), "w").close()
                with open(os.path.join(d, "%04d.expected" % i), "w") as f:
                    f.write(want)
            solver = fake_solver(os.path.join(d, "solver"), "UNSATISFIABLE", 20)
            p = subprocess.run([sys.executable, BENCH, "corpus", "check", *extra, solver, d],
                               capture_output=True, text=True)
            return p.returncode, p.stdout

    def test_agreeing_programs_pass(self):
        rc, out = self.check(["UNSAT\n"] * 3, ["--jobs", "2"])
        self.assertEqual(rc, 0, out)
        self.assertIn("check-corpus: 3 programs, 0 mismatches", out)

    def test_a_mismatch_fails(self):
        rc, out = self.check(["UNSAT\n", "SAT 1\na\n"])
        self.assertEqual(rc, 1, out)
        self.assertIn("MISMATCH", out)
        self.assertIn("mismatching: 0001.aspif", out)

    def test_stop_after_says_how_many_were_checked(self):
        rc, out = self.check(["UNSAT\n"] * 3, ["--stop-after", "-1"])
        self.assertEqual(rc, 0, out)
        self.assertIn("check-corpus: 0 of 3 programs (--stop-after -1), 0 mismatches", out)


if __name__ == "__main__":
    unittest.main()
