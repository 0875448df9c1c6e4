"""`scripts/bench corpus`: generated programs with clingo's answer sets: compute the expected
answers here (`expected`), compare a solver binary against them anywhere (`check`; only python3
needed).

Invariant: DIR/NNNN.expected is the normalised (common.normalise_sets) complete enumeration
clingo printed for DIR/NNNN.aspif; `check` passes only if the solver prints exactly that multiset
of answer sets and an exit code that matches it (20 none, 30 all found).

  scripts/bench corpus expected DIR [--clingo 'clingo --mode=clasp']
  scripts/bench corpus check [--timeout S] [--jobs J] BIN DIR [-- solver args...]
(the options before BIN: whatever follows DIR is the solver's)
DIR is written by scripts/gen-corpus.sh; `check` needs python3 only (the GPU machine).
"""

import argparse
import concurrent.futures
import os
import shlex
import sys
import time

import common as bc


def corpus_files(d):
    names = sorted(f for f in os.listdir(d) if f.endswith(".aspif") or f.endswith(".aspif.gz"))
    return [os.path.join(d, f) for f in names]


def stem(path):
    return path[: -len(".aspif.gz")] if path.endswith(".gz") else path[: -len(".aspif")]


def solve(argv, path, timeout):
    if path.endswith(".gz"):
        return bc.run_measured(argv, timeout, stdin_cmd=["zcat", path])
    return bc.run_measured(argv + [path], timeout)


def cmd_expected(args):
    clingo = shlex.split(args.clingo)
    files = corpus_files(args.dir)
    for f in files:
        run = solve(clingo + ["-n", "0"], f, args.timeout)
        if run["rc"] not in (20, 30):
            sys.exit("clingo failed (rc %s) on %s:\n%s" % (run["rc"], f, run["stderr"]))
        with open(stem(f) + ".expected", "w") as out:
            out.write(bc.normalise_sets(bc.parse_output(run["stdout"])))
    print("expected answers for %d programs in %s" % (len(files), args.dir))


def check_one(binary, extra, path, timeout):
    with open(stem(path) + ".expected") as f:
        expected = f.read()
    run = solve([binary, "-n", "0"] + extra, path, timeout)
    parsed = bc.parse_output(run["stdout"])
    got = bc.normalise_sets(parsed)
    want_rc = 20 if expected.startswith("UNSAT") else 30
    ok = got == expected and run["rc"] == want_rc
    return path, ok, run, got, expected


def cmd_check(args):
    files = [f for f in corpus_files(args.dir) if os.path.exists(stem(f) + ".expected")]
    if not files:
        sys.exit("no NNNN.aspif with NNNN.expected in %s" % args.dir)
    t0 = time.monotonic()
    bad = []
    done = 0

    def one(f):
        # No program starts after --stop-after seconds (a caller's time limit then still
        # gets the summary of those checked).
        if args.stop_after is not None and time.monotonic() - t0 > args.stop_after:
            return None
        return check_one(args.bin, args.solver_args, f, args.timeout)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for res in pool.map(one, files):
            if res is None:
                continue
            path, ok, run, got, expected = res
            done += 1
            if done % 250 == 0:
                print("check-corpus: %d programs checked, %d mismatches so far, %.1fs"
                      % (done, len(bad), time.monotonic() - t0), flush=True)
            if not ok:
                bad.append(path)
                if len(bad) <= args.show:
                    print("MISMATCH %s (rc %s, %.2fs)\n--- expected ---\n%s--- got ---\n%s"
                          "--- stderr ---\n%s" % (path, run["rc"], run["wall_s"], expected, got,
                                                  run["stderr"][-2000:]), flush=True)
    checked = "%d programs" % done if done == len(files) else \
        "%d of %d programs (--stop-after %g)" % (done, len(files), args.stop_after)
    print("check-corpus: %s, %d mismatches, %.1fs (%s %s)"
          % (checked, len(bad), time.monotonic() - t0, args.bin, " ".join(args.solver_args)))
    if bad:
        print("mismatching: " + " ".join(os.path.basename(b) for b in bad))
        sys.exit(1)


def run(args):
    if args.corpus_command == "check" and args.solver_args[:1] == ["--"]:
        args.solver_args = args.solver_args[1:]
    {"expected": cmd_expected, "check": cmd_check}[args.corpus_command](args)
    return 0


def add_parser(sub):
    ap = sub.add_parser("corpus", help="generated programs against clingo's answer sets",
                        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub2 = ap.add_subparsers(dest="corpus_command", required=True)
    e = sub2.add_parser("expected", help="clingo's answer sets of DIR/NNNN.aspif")
    e.add_argument("dir")
    e.add_argument("--clingo", default="clingo --mode=clasp")
    e.add_argument("--timeout", type=float, default=120)
    c = sub2.add_parser("check", help="BIN -n 0 on every program, compared with clingo's")
    c.add_argument("bin")
    c.add_argument("dir")
    c.add_argument("--timeout", type=float, default=60)
    c.add_argument("--jobs", type=int, default=1)
    c.add_argument("--show", type=int, default=10, help="print at most this many mismatches")
    c.add_argument("--stop-after", type=float, default=None,
                   help="start no program after this many seconds (the summary says how many ran)")
    c.add_argument("solver_args", nargs=argparse.REMAINDER)
    ap.set_defaults(func=run)
