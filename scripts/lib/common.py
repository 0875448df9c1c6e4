"""Shared helpers of `scripts/bench` (runner, corpus, report): clingo-style output, timed runs.

Invariant: one parser for clingo-style text output, used for clingo and yasmin-rs alike, so both
sides of every comparison are normalised the same way. Pure python3 standard library: the GPU
machine has python3 but no Rust, gringo or network.
"""

import os
import re
import signal
import subprocess
import sys
import threading
import time

RESULT_WORDS = ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN", "OPTIMUM FOUND", "INTERRUPTED")

# Exit codes shared by clingo and yasmin-rs: +10 a model was found, +20 the search space was
# exhausted, +1 stopped early (time limit, signal).
EXIT_RESULT = {10: "SAT", 11: "SAT", 20: "UNSAT", 30: "SAT"}


def parse_output(text):
    """Parse clingo-style text output.

    Returns dict: result ('SAT', 'UNSAT', 'OPT', 'UNKNOWN' or None), sets (sorted list of sorted
    atom tuples), optimization (last 'Optimization:' values, or None), stats (dict of numbers from
    'Key : value' lines, keys lower-case with '_' for spaces, e.g. 'decisions', 'conflicts'),
    trajectory (optimisation: [seconds since the start, costs] of each model printed with its
    'Answer: N (Time: Ts)' line and an 'Optimization:' line, in print order).
    """
    sets, result, opt, stats = [], None, None, {}
    trajectory, answer_time = [], None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if line.startswith("Answer:"):
            t = re.search(r"\(Time: ([0-9.]+)s\)", line)
            answer_time = float(t.group(1)) if t else None
            following = lines[i + 1] if i + 1 < len(lines) else ""
            if following.startswith("Optimization:"):
                i += 1  # clingo -q2,0: the cost without the atoms
                continue
            sets.append(tuple(sorted(following.split())))
            i += 2
            continue
        summary = re.fullmatch(r"Optimization\s+:\s*(-?\d+(?:\s+-?\d+)*)\s*", line)
        if line.startswith("Optimization:") or summary:
            # after each model, and in the summary (the only one printed with -q)
            opt = [int(x) for x in line.split(":", 1)[1].split() if re.fullmatch(r"-?\d+", x)]
            if not summary and answer_time is not None:
                trajectory.append([answer_time, opt])
                answer_time = None
        elif line.startswith("Portfolio"):
            # yasmin-rs's race: 'Portfolio : answer from the CPU engine; …', 'answer from CPU
            # thread 3 (luby); …' or 'answer from the GPU engine; …'
            stats["portfolio_cpu"] = 1.0 if re.search(r"from (the CPU engine|CPU thread)", line) else 0.0
            # Several GPUs: '… from the GPU engine on GPU 2; members: … and N GPU searches on
            # 4 GPUs' (the decision race) or '… the GPU engine on 4 GPUs, …' (optimisation).
            g = re.search(r"on (\d+) GPUs", line)
            stats["portfolio_gpus"] = float(g.group(1)) if g else (
                1.0 if re.search(r"GPU searches|the GPU engine \(", line) else 0.0)
            g = re.search(r"from the GPU engine on GPU (\d+)", line)
            if g:
                stats["portfolio_gpu_answered"] = float(g.group(1))
        elif line.startswith("Time") and "(Solving:" in line:
            # 'Time : 7.132s (Solving: 7.00s 1st Model: …)': clingo gives its search time only here
            m = re.search(r"\(Solving: ([0-9.]+)s", line)
            stats.setdefault("solving", float(m.group(1)))
            m = re.match(r"^Time\s*:\s*([0-9.]+)", line)
            if m:
                stats.setdefault("time", float(m.group(1)))
        elif line in RESULT_WORDS:
            result = {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT",
                      "OPTIMUM FOUND": "OPT"}.get(line, line)
        else:
            m = re.match(r"^\s*([A-Za-z][A-Za-z0-9 /_().>-]*?)\s*:\s*(-?[0-9][0-9.e+]*)", line)
            if m:
                key = re.sub(r"[^a-z0-9]+", "_", m.group(1).lower()).strip("_")
                # clasp: 'Conflict : 95 (Average Length: 7.9 ...)' under 'Lemmas'
                avg = re.search(r"\(Average Length:\s*([0-9.]+)", line)
                if avg and key + "_avg_len" not in stats:
                    stats[key + "_avg_len"] = float(avg.group(1))
                try:
                    val = float(m.group(2).rstrip("."))
                except ValueError:
                    val = None
                if val is not None and key not in stats:
                    stats[key] = val
                if key == "device_memory":
                    # 'Device memory: T MB (nogoods N learned L rules R state S; driver D)'
                    for part, num in re.findall(r"([a-z]+) ([0-9.]+)", line.split("(", 1)[-1]):
                        stats["device_memory_" + part] = float(num)
        i += 1
    sets.sort()
    return {"result": result, "sets": sets, "optimization": opt, "stats": stats,
            "trajectory": trajectory}


def normalise_sets(parsed):
    """The normalised text of a complete enumeration: 'UNSAT' or 'SAT <n>', then one line per
    answer set (atoms sorted, lines sorted). Duplicates are kept: a solver that prints one model
    twice must not compare equal."""
    sets = parsed["sets"]
    head = "UNSAT" if not sets else "SAT %d" % len(sets)
    return "\n".join([head] + [" ".join(s) for s in sets]) + "\n"


# The solver is started by a fresh, small python (`SPAWN`) that forks it, waits for it and writes
# its peak RSS and wall time to a pipe. Why: Linux hands a forked child its parent's peak RSS as
# a floor of the child's own (`ru_maxrss` survives fork and exec), so a solver forked by this
# process would report at least this process's peak, which grows with the output it has read.
SPAWN = """import os, sys, time
w = int(sys.argv[1])
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    os.close(w)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, st, ru = os.wait4(pid, 0)
os.write(w, b"%d %.4f" % (ru.ru_maxrss, time.monotonic() - t0))
code = os.waitstatus_to_exitcode(st)
sys.exit(code if code >= 0 else 128 - code)
"""


def run_measured(argv, timeout, stdin_path=None, stdin_cmd=None, env=None):
    """Run argv with a wall-clock limit, in its own process group (killed whole on timeout).

    stdin_path: a file given as standard input; stdin_cmd: a command whose stdout is piped in
    (e.g. ['zcat', 'f.gz']). Returns dict: rc (None if killed), timed_out, wall_s (the solver's
    own, from its fork to its exit), maxrss_kb (peak resident memory of the solver process, from
    wait4 in SPAWN; None if killed), stdout, stderr.
    """
    feeder = None
    stdin = subprocess.DEVNULL
    if stdin_path is not None:
        stdin = open(stdin_path, "rb")
    elif stdin_cmd is not None:
        feeder = subprocess.Popen(stdin_cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        stdin = feeder.stdout
    r, w = os.pipe()
    t0 = time.monotonic()
    p = subprocess.Popen([sys.executable, "-S", "-c", SPAWN, str(w)] + list(argv), stdin=stdin,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         env=env, pass_fds=(w,))
    os.close(w)
    if feeder is not None:
        feeder.stdout.close()  # the solver holds the pipe now
    out_chunks, err_chunks = [], []
    t_out = threading.Thread(target=lambda: out_chunks.append(p.stdout.read()))
    t_err = threading.Thread(target=lambda: err_chunks.append(p.stderr.read()))
    t_out.start()
    t_err.start()
    killed = {"v": False}

    def kill():
        killed["v"] = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    rc = p.wait()
    wall = time.monotonic() - t0
    timer.cancel()
    t_out.join()
    t_err.join()
    with os.fdopen(r, "rb") as f:
        measured = f.read().split()
    if feeder is not None:
        feeder.wait()
    if stdin_path is not None:
        stdin.close()
    maxrss = None
    if len(measured) == 2:  # the solver ended (not killed with SPAWN)
        maxrss, wall = int(measured[0]), float(measured[1])
    return {
        "rc": None if killed["v"] else rc,
        "timed_out": killed["v"],
        "wall_s": round(wall, 4),
        "maxrss_kb": maxrss,
        "stdout": out_chunks[0].decode("utf-8", "replace") if out_chunks else "",
        "stderr": err_chunks[0].decode("utf-8", "replace") if err_chunks else "",
    }


def result_of(run, parsed, trust_word=False):
    """One word for a run: SAT, UNSAT, OPT, UNKNOWN, TIMEOUT, or ERROR (crash, bad exit code).

    The exit code and the printed result word must agree; a mismatch between them is an ERROR
    (it means the output cannot be trusted). trust_word: the PyPI clingo (`python3 -m clingo`)
    always exits 0, so for it the printed word alone decides."""
    if run["timed_out"]:
        return "TIMEOUT"
    rc = run["rc"]
    word = parsed["result"]
    if word == "OPT" and rc == 30:
        return "OPT"
    if word == "UNKNOWN" and rc in (0, 1):
        return "UNKNOWN"
    if trust_word and rc == 0 and word in ("SAT", "UNSAT", "OPT"):
        return word
    if rc in EXIT_RESULT and word is not None:
        by_code = EXIT_RESULT[rc]
        if word in ("SAT", "OPT") and by_code == "SAT":
            return "SAT"
        if word == "UNSAT" and by_code == "UNSAT":
            return "UNSAT"
    return "ERROR"


def optimum_of(reference):
    """'OPT=9' -> [9], 'OPT=3,12' -> [3, 12]; None for any other reference."""
    if not reference.startswith("OPT="):
        return None
    return [int(x) for x in reference[4:].split(",")]


def agrees(result, reference, costs=None, ref_costs=None):
    """Does a solver's result contradict the reference (clingo's) answer? Returns 'ok',
    'WRONG' (the two answers contradict each other), or 'unsolved' (timeout/unknown/error).

    reference: a manifest answer ('SAT', 'UNSAT', 'OPT=v[,v...]', 'SAT(best=..)') or a result
    word; costs / ref_costs: the last 'Optimization:' values of the two. Two proven optima must
    be equal, and no model may cost less than a proven optimum."""
    if result in ("TIMEOUT", "UNKNOWN", "ERROR", None):
        return "unsolved"
    if ref_costs is None:
        ref_costs = optimum_of(reference)
    ref = reference.split("(")[0].split("=")[0]  # 'SAT(best=..)' -> 'SAT', 'OPT=9' -> 'OPT'
    if ref in ("SAT", "OPT"):
        if result not in ("SAT", "OPT"):
            return "WRONG"
        if ref == "OPT" and ref_costs is not None and costs is not None:
            if (result == "OPT" and costs != ref_costs) or costs < ref_costs:
                return "WRONG"
        return "ok"
    if ref == "UNSAT":
        return "ok" if result == "UNSAT" else "WRONG"
    return "ok"  # no reference answer: nothing to contradict


def is_optimisation(reference, kind=""):
    """An instance with an objective: its manifest answer is an optimum or a best cost, or its
    ground program has a minimize statement."""
    return reference.startswith(("OPT", "SAT(best")) or "minimize" in kind


def verdict(result, reference, costs=None, ref_costs=None, asked_optimum=False):
    """agrees(), and a run asked for the optimum (-n 0 on an optimisation instance) counts as
    solved only when it proved one: a model alone is 'unsolved' (unless it is WRONG)."""
    v = agrees(result, reference, costs, ref_costs)
    if v == "ok" and asked_optimum and result != "OPT":
        return "unsolved"
    return v

