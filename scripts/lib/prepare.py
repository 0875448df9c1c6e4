"""`scripts/bench prepare`: materialise the instances and ground them into the cache.

For each instance of the sets asked for: the added classes' encoding and instance files come out
of a local git mirror (`git --git-dir=MIRROR/<owner>+<name>/repo show COMMIT:PATH`) into
CACHE/src/<class>/; the shared classes are read where they are ($BENCH_DIR). Each is ground
(gringo, or $YASMIN_BENCH_GRINGO, e.g. 'python3 -m clingo --mode=gringo') to aspif and kept
xz-compressed as CACHE/ground/<class>/<file>.aspif.xz. Then CACHE/list.tsv lists every instance
whose ground file is there.

Invariant: a file in the cache is complete — each is written under a temporary name and renamed
only when its producer succeeded — so a cached file is never redone and never half-written, and
list.tsv names only instances with a ground file. Cached files are named by class and file, not by
commit: after changing a manifest row's source, remove its files from the cache.
"""

import concurrent.futures
import os
import shlex
import shutil
import subprocess
import sys
import time

import sets


def _mirror_git(repo):
    root = sets.mirror_dir()
    if not root:
        raise SystemExit("prepare: no mirror folder (set YASMIN_BENCH_MIRROR)")
    gd = os.path.join(root, repo.replace("/", "+"), "repo")
    if not os.path.isdir(gd):
        raise SystemExit("prepare: no mirror of %s at %s (fetch it first)" % (repo, gd))
    return gd


def _git_show(gitdir, commit, path, dst):
    if os.path.exists(dst):
        return
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    tmp = dst + ".tmp"
    with open(tmp, "wb") as out:
        p = subprocess.run(["git", "--git-dir=" + gitdir, "show", "%s:%s" % (commit, path)],
                           stdout=out, stderr=subprocess.PIPE)
    if p.returncode != 0:
        os.unlink(tmp)
        raise SystemExit("prepare: git show %s:%s failed: %s"
                         % (commit, path, p.stderr.decode().strip()))
    os.replace(tmp, dst)


def sources(which, m, cache):
    """(encoding path, instance path) on disk of one manifest row, materialised if needed."""
    name = sets.instance_name(m["instance"])
    if which == "shared":
        d = sets.shared_dir()
        return os.path.join(d, m["class"], "encoding.lp"), os.path.join(d, name)
    gd = _mirror_git(m["repo"])
    enc = os.path.join(cache, "src", m["class"], "encoding.lp")
    inst = os.path.join(cache, "src", name)
    _git_show(gd, m["commit"], m["encoding_path"], enc)
    _git_show(gd, m["commit"], m["instance_path"], inst)
    return enc, inst


def grounder():
    cmd = os.environ.get("YASMIN_BENCH_GRINGO")
    if cmd:
        return shlex.split(cmd)
    if shutil.which("gringo"):
        return ["gringo"]
    return [sys.executable, "-m", "clingo", "--mode=gringo"]


def ground(enc, inst, dst, timeout):
    """Ground ENC + INST into DST (xz); returns seconds spent, or raises."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    tmp = dst + ".tmp.%d" % os.getpid()
    t0 = time.monotonic()
    with open(tmp, "wb") as out:
        g = subprocess.Popen(["nice"] + grounder() + [enc, inst], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        x = subprocess.Popen(["nice", "xz", "-6", "-T1", "-c"], stdin=g.stdout, stdout=out)
        g.stdout.close()
        try:
            err = g.communicate(timeout=timeout)[1]
        except subprocess.TimeoutExpired:
            g.kill()
            err = b"timed out after %d s" % timeout
            g.wait()
        x.wait()
    if g.returncode != 0 or x.returncode != 0:
        os.unlink(tmp)
        raise RuntimeError(err.decode("utf-8", "replace").strip()[-400:])
    os.replace(tmp, dst)
    return time.monotonic() - t0


def run(args):
    cache = sets.cache_dir()
    which = args.set.split(",")
    todo = []
    for w, m in sets.manifests(which):
        row = sets.list_row(m, w)
        if sets.select([row], args.classes, args.instances):
            todo.append((w, m, row))
    if not todo:
        raise SystemExit("prepare: nothing selected (sets %s; BENCH_DIR=%s)"
                         % (args.set, sets.shared_dir()))

    def one(item):
        w, m, row = item
        dst = os.path.join(cache, "ground", row["ground"])
        enc, inst = sources(w, m, cache)
        if os.path.exists(dst) or args.no_ground:
            return row, None, None
        try:
            return row, ground(enc, inst, dst, args.timeout), None
        except RuntimeError as e:
            return row, None, str(e)

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for row, secs, err in pool.map(one, todo):
            if err:
                failed += 1
                print("GROUND FAILED %s: %s" % (row["instance"], err), file=sys.stderr)
            elif secs is not None:
                print("grounded %s in %.1f s" % (row["instance"], secs), flush=True)
    # The list: every instance of every set whose ground file is in the cache.
    listed = [sets.list_row(m, w) for w, m in sets.manifests()]
    listed = [r for r in listed if os.path.exists(os.path.join(cache, "ground", r["ground"]))]
    sets.write_tsv(os.path.join(cache, "list.tsv"), listed, sets.LIST_COLUMNS)
    print("prepare: %d instances ground in %s (list.tsv), %d failed" % (len(listed), cache, failed))
    return 1 if failed else 0


def add_parser(sub):
    p = sub.add_parser("prepare", help="materialise and ground the instances into the cache")
    p.add_argument("--set", default="shared,added", help="shared, added or both (default)")
    p.add_argument("--classes", help="comma-separated classes")
    p.add_argument("--instances", help="comma-separated substrings of instance names")
    p.add_argument("--jobs", type=int, default=1, help="grounders at a time (default 1)")
    p.add_argument("--timeout", type=int, default=600, help="seconds per grounding")
    p.add_argument("--no-ground", action="store_true", help="only materialise the sources")
    p.set_defaults(func=run)
