"""Solver configurations of `scripts/bench run`: names -> command lines, and how much of the
machine each takes.

  clingo                     clingo 5.8, one thread (--clingo or $YASMIN_BENCH_CLINGO, default
                             'python3 -m clingo', PyPI's; with --kit the kit's wheel)
  clingo-tN                  the same with N threads (clingo's parallel portfolio, -t N)
  ENGINE:LEARNING[:HEURISTIC[:DECIDE]][:tN][+FLAG=VALUE...]
                             yasmin-rs --engine ENGINE --learning LEARNING [--heuristic H]
                             [--decide D] [-t N] [--FLAG=VALUE ...]; e.g. cpu:res, gpu:fwd:jw,
                             cpu:res:t16, cpu:fwd:activity:vars+fwd-cut=lits+save-progress=0;
                             LEARNING `default` gives no --learning (auto:default: the defaults;
                             cpu:default+parallel-mode=16 is cpu:default:t16)
  yasmin:NAME:FLAGS          yasmin-rs with exactly FLAGS (split as a shell would), named NAME in
                             the rows; e.g. 'yasmin:res-t8:--engine=cpu --learning=res -t 8';
                             a first flag bin=PATH runs the binary PATH instead of --bin's (two
                             builds side by side in one run: 'yasmin:gpu-before:bin=old --engine=gpu')

Invariant: a configuration's `share` says what it occupies, and `run` never runs a `machine`
configuration beside anything else: `single` (one host core: clingo, cpu:* without -t),
`device` (the GPU and one host thread: gpu:*; one at a time, beside single runs) and `machine`
(every core: auto:*, clingo-tN and anything with -t N or --parallel-mode=N, N > 1).
"""

import re
import shlex

ENGINES = ("cpu", "gpu", "auto")


def _share(engine, threads):
    if engine == "auto" or threads > 1:
        return "machine"
    return "device" if engine == "gpu" else "single"


def _threads_in(flags):
    """The -t/--parallel-mode N[,compete] in a yasmin-rs flag list (1 if none)."""
    for i, f in enumerate(flags):
        m = re.fullmatch(r"(?:-t|--parallel-mode=|--threads=)(\d+)(?:,\w+)?", f)
        if m:
            return int(m.group(1))
        if f in ("-t", "--parallel-mode", "--threads") and i + 1 < len(flags):
            m = re.fullmatch(r"(\d+)(?:,\w+)?", flags[i + 1])
            if m:
                return int(m.group(1))
    return 1


def _engine_in(flags):
    for i, f in enumerate(flags):
        m = re.fullmatch(r"--engine=(\w+)", f)
        if m:
            return m.group(1)
        if f == "--engine" and i + 1 < len(flags):
            return flags[i + 1]
    return "auto"  # the binary's default


def parse(c):
    """A configuration dict: name, solver ('clingo' or 'yasmin-rs'), share, and the arguments."""
    if c == "clingo":
        return {"name": c, "solver": "clingo", "threads": 1, "share": "single", "flags": []}
    m = re.fullmatch(r"clingo-t(\d+)", c)
    if m:
        n = int(m.group(1))
        return {"name": c, "solver": "clingo", "threads": n,
                "share": "machine" if n > 1 else "single", "flags": ["-t", str(n)]}
    if c.startswith("yasmin:"):
        _, name, flags = (c.split(":", 2) + [""])[:3]
        if not name:
            raise SystemExit("bad configuration %r (want yasmin:NAME:FLAGS)" % c)
        flags = shlex.split(flags)
        binary = None
        if flags and flags[0].startswith("bin="):
            binary = flags.pop(0)[4:]
        engine, threads = _engine_in(flags), _threads_in(flags)
        return {"name": name, "solver": "yasmin-rs", "engine": engine, "threads": threads,
                "share": _share(engine, threads), "flags": flags, "binary": binary}
    base, *extra = c.split("+")
    parts = base.split(":")
    threads = 1
    if parts and re.fullmatch(r"t\d+", parts[-1]):
        threads = int(parts.pop()[1:])
    if (len(parts) not in (2, 3, 4) or parts[0] not in ENGINES
            or not all(f and not f.startswith("-") for f in extra)):
        raise SystemExit("bad configuration %r (want clingo, clingo-tN, yasmin:NAME:FLAGS or "
                         "ENGINE:LEARNING[:HEURISTIC[:DECIDE]][:tN][+FLAG=VALUE...])" % c)
    flags = ["--engine", parts[0]]
    if parts[1] != "default":  # `default`: the binary's own learning scheme
        flags += ["--learning", parts[1]]
    if len(parts) >= 3:
        flags += ["--heuristic", parts[2]]
    if len(parts) == 4:
        flags += ["--decide", parts[3]]
    given = threads > 1 or any(f.startswith(("parallel-mode=", "t=")) for f in extra)
    if threads > 1:
        flags += ["-t", str(threads)]
    elif parts[0] == "cpu" and not given:
        # yasmin-rs's host engine takes every core unless told: `cpu:res` is one thread.
        flags += ["-t", "1"]
    flags += ["--" + f for f in extra]
    threads = _threads_in(flags)  # :tN, or +parallel-mode=N among the extra flags
    cfg = {"name": c, "solver": "yasmin-rs", "engine": parts[0], "learning": parts[1],
           "threads": threads, "share": _share(parts[0], threads), "flags": flags}
    if len(parts) >= 3:
        cfg["heuristic"] = parts[2]
    if len(parts) == 4:
        cfg["decide"] = parts[3]
    return cfg


def command(cfg, ground, time_limit, models, binary, clingo, quiet=False, extra=(),
            optimising=False):
    """argv of one run of CFG on the ground file GROUND. clingo prints no models (`-q`); on an
    optimisation instance it prints each model's `Answer: N (Time: …)` and cost (`-q2,0`), so
    that the rows hold its trajectory. yasmin-rs prints its models unless QUIET, and then
    exactly what clingo prints (the same flags), so that its rows hold a trajectory too."""
    if cfg["solver"] == "clingo":
        return (list(clingo) + cfg["flags"] + [ground, "--stats", "-q2,0" if optimising else "-q",
                                                "-n", str(models),
                                                "--time-limit=%d" % time_limit])
    argv = [cfg.get("binary") or binary, ground, "--stats", "-n", str(models),
            "--time-limit", str(time_limit)]
    argv += cfg["flags"]
    if quiet:
        argv.append("-q2,0" if optimising else "-q")
    return argv + list(extra)
