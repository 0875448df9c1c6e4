"""`scripts/bench prepare`: materialise the instances and ground them into the cache.

For each instance of the sets asked for: the shared classes are read where they are ($BENCH_DIR,
when it holds MANIFEST.tsv). Otherwise — the added classes always, the shared ones on a machine
without $BENCH_DIR (their rows then come from benchmarks/added/SHARED-MANIFEST.tsv) — the
encoding and instance files are taken out of the row's repository at its pinned commit into
CACHE/src/<class>/ (`git show COMMIT:PATH`): out of a local bare mirror
(MIRROR/<owner>+<name>/repo, `YASMIN_BENCH_MIRROR`; set, it is the only source and nothing is
fetched), else out of a clone that this command makes and keeps in CACHE/git/<owner>+<name>
(`git clone --filter=blob:none --no-checkout` from $YASMIN_BENCH_GIT_URL or --git-url, default
https://github.com/OWNER/NAME.git, then a sparse checkout of the commit that fetches only the
files the rows name). Each is ground (gringo, or $YASMIN_BENCH_GRINGO, e.g. 'python3 -m clingo
--mode=gringo') to aspif and kept xz-compressed as CACHE/ground/<class>/<file>.aspif.xz. Then
CACHE/list.tsv lists every instance whose ground file is there.

Invariant: a file in the cache is complete — each is written under a temporary name and renamed
only when its producer succeeded — so a cached file is never redone and never half-written, and
list.tsv names only instances with a ground file. Cached files are named by class and file, not by
commit: after changing a manifest row's source, remove its files from the cache.
"""

import collections
import concurrent.futures
import os
import shlex
import shutil
import subprocess
import sys
import time

import sets

# git never asks for a password (a repository that is not there fails at once), and gives up on
# a transfer that stalls for a minute.
GIT_ENV = dict(os.environ, GIT_TERMINAL_PROMPT="0", GIT_HTTP_LOW_SPEED_LIMIT="1000",
               GIT_HTTP_LOW_SPEED_TIME="60")
OFFLINE_HINT = ("without network: YASMIN_BENCH_MIRROR=DIR, DIR/<owner>+<name>/repo a bare clone "
                "of each repository (then nothing is fetched), or YASMIN_BENCH_GIT_URL / "
                "--git-url naming another git URL (e.g. file:///DIR/{owner}+{name}/repo); for "
                "the shared set also BENCH_DIR=a copy of the shared folder")


def _mirror_git(repo):
    """REPO's bare git dir in the mirror folder, or None where no mirror holds it (then it is
    cloned); with YASMIN_BENCH_MIRROR set a missing one is an error: nothing is fetched."""
    root = sets.mirror_dir()
    gd = os.path.join(root, repo.replace("/", "+"), "repo") if root else None
    if gd and os.path.isdir(gd):
        return gd
    if os.environ.get("YASMIN_BENCH_MIRROR"):
        raise SystemExit("prepare: no mirror of %s at %s (YASMIN_BENCH_MIRROR is set, so nothing "
                         "is fetched: put a bare clone of %s there, or unset it to clone)"
                         % (repo, gd, sets.git_url(repo)))
    return None


def _git(args, what, url=None, stdin=None):
    """Run git ARGS; on failure stop with WHAT and git's own message (and, where it may have
    fetched from URL, the network hint)."""
    p = subprocess.run(["git"] + args, env=GIT_ENV, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        if url:
            raise SystemExit(_fetch_failed(what, url, p.stderr))
        raise SystemExit("prepare: %s failed: %s" % (what, p.stderr.strip()[-600:]))
    return p.stdout


def _fetch_failed(what, url, err):
    return ("prepare: %s from %s failed — is the network reachable?\n  git: %s\n  %s"
            % (what, url, err.strip()[-600:] or "(no message)", OFFLINE_HINT))


def _clone(repo, cache):
    """The work tree of this command's clone of REPO (commits and trees only, no files yet)."""
    d = os.path.join(cache, "git", repo.replace("/", "+"))
    url = sets.git_url(repo)
    if os.path.isdir(os.path.join(d, ".git")):
        # The URL asked for now is where missing commits and files come from.
        _git(["-C", d, "remote", "set-url", "origin", url], "git remote set-url")
        return d, url
    print("prepare: cloning %s into %s (--filter=blob:none --no-checkout: commits and trees, "
          "no files)" % (url, d), flush=True)
    tmp = d + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.dirname(d), exist_ok=True)
    p = subprocess.run(["git", "clone", "--quiet", "--filter=blob:none", "--no-checkout", url,
                        tmp], env=GIT_ENV, capture_output=True, text=True)
    if p.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise SystemExit(_fetch_failed("git clone of %s" % repo, url, p.stderr))
    os.replace(tmp, d)
    return d, url


def _has_commit(d, commit):
    # A partial clone would fetch a missing commit quietly; it is fetched below, said so.
    return subprocess.run(["git", "-C", d, "cat-file", "-e", commit + "^{commit}"],
                          env=dict(GIT_ENV, GIT_NO_LAZY_FETCH="1"),
                          capture_output=True).returncode == 0


def _checkout(d, url, repo, commit, paths):
    """Make PATHS of COMMIT local in the clone D: fetch the commit if it lacks it, then a sparse
    checkout of just those paths (one request for all their files)."""
    if not _has_commit(d, commit):
        print("prepare: fetching commit %s of %s from %s" % (commit, repo, url), flush=True)
        p = subprocess.run(["git", "-C", d, "fetch", "--quiet", "--filter=blob:none", "origin",
                            commit], env=GIT_ENV, capture_output=True, text=True)
        if p.returncode != 0 and not _has_commit(d, commit):
            q = subprocess.run(["git", "-C", d, "fetch", "--quiet", "--filter=blob:none",
                                "origin"], env=GIT_ENV, capture_output=True, text=True)
            if q.returncode != 0:
                raise SystemExit(_fetch_failed("git fetch of %s" % repo, url, q.stderr))
        if not _has_commit(d, commit):
            raise SystemExit("prepare: %s has no commit %s (manifest row's `commit`)"
                             % (url, commit))
    # ls-tree reads trees only (a file's blob would be fetched, one request each, by cat-file).
    have = set(_git(["-C", d, "-c", "core.quotePath=false", "ls-tree", "-z", "--full-tree",
                     "--name-only", commit, "--"] + paths, "git ls-tree").split("\0"))
    missing = [path for path in paths if path not in have]
    if missing:
        raise SystemExit("prepare: %s@%s has no file %s (manifest row's paths)"
                         % (repo, commit[:7], ", ".join(missing)))
    # Non-cone patterns, anchored, with the pattern characters escaped: exactly these files.
    pats = ["/" + "".join("\\" + c if c in "\\*?[" else c for c in path) for path in paths]
    what = "git sparse checkout of %s@%s" % (repo, commit[:7])
    _git(["-C", d, "sparse-checkout", "set", "--no-cone", "--stdin"], what, url,
         stdin="\n".join(pats) + "\n")
    _git(["-C", d, "checkout", "--quiet", "--detach", commit], what, url)


def _git_show(gitdir, commit, path, dst):
    if os.path.exists(dst):
        return
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    tmp = dst + ".tmp"
    with open(tmp, "wb") as out:
        p = subprocess.run(["git", "--git-dir=" + gitdir, "show", "%s:%s" % (commit, path)],
                           stdout=out, stderr=subprocess.PIPE, env=GIT_ENV)
    if p.returncode != 0:
        os.unlink(tmp)
        raise SystemExit("prepare: git show %s:%s failed: %s"
                         % (commit, path, p.stderr.decode().strip()))
    os.replace(tmp, dst)


def _paths(which, m, cache):
    """(encoding path, instance path) on disk of one manifest row."""
    name = sets.instance_name(m["instance"])
    d = sets.shared_on_disk() if which == "shared" else None
    if d:
        return os.path.join(d, m["class"], "encoding.lp"), os.path.join(d, name)
    return (os.path.join(cache, "src", m["class"], "encoding.lp"),
            os.path.join(cache, "src", name))


def _files(n):
    return "1 file" if n == 1 else "%d files" % n


def materialise(rows, cache):
    """Bring the files of ROWS ([(set, manifest row)]) that are not on disk yet into CACHE/src:
    out of the mirror where it holds the repository, else out of a clone (fetched as needed)."""
    want = collections.OrderedDict()  # (repo, commit) -> {dst: path in the repository}
    for which, m in rows:
        if which == "shared" and sets.shared_on_disk():
            continue
        enc, inst = _paths(which, m, cache)
        for path, dst in ((m["encoding_path"], enc), (m["instance_path"], inst)):
            if not os.path.exists(dst):
                want.setdefault((m["repo"], m["commit"]), {})[dst] = path
    for (repo, commit), files in want.items():
        gd = _mirror_git(repo)
        if gd:
            print("prepare: %s@%s: %s out of the mirror %s" % (repo, commit[:7],
                                                                _files(len(files)), gd), flush=True)
        else:
            d, url = _clone(repo, cache)
            print("prepare: %s@%s: fetching %s from %s (sparse checkout in %s)"
                  % (repo, commit[:7], _files(len(files)), url, d), flush=True)
            _checkout(d, url, repo, commit, sorted(set(files.values())))
            gd = os.path.join(d, ".git")
        for dst, path in files.items():
            _git_show(gd, commit, path, dst)
    if want:
        print("prepare: sources in %s" % os.path.join(cache, "src"), flush=True)


def sources(which, m, cache):
    """(encoding path, instance path) on disk of one manifest row, materialised if needed."""
    materialise([(which, m)], cache)
    return _paths(which, m, cache)


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


def _say_where(which):
    """One line per set asked for: where its instances come from."""
    if "shared" in which:
        d = sets.shared_on_disk()
        if d:
            print("prepare: shared set: the files of %s (BENCH_DIR), read where they are" % d)
            if os.path.exists(sets.SHARED_SOURCES):
                a = {m["instance"] for m in sets.read_tsv(os.path.join(d, "MANIFEST.tsv"))}
                b = {m["instance"] for m in sets.read_tsv(sets.SHARED_SOURCES)}
                if a != b:
                    print("prepare: note: %s and %s differ in %d instances"
                          % (os.path.join(d, "MANIFEST.tsv"), sets.SHARED_SOURCES, len(a ^ b)))
        elif os.path.exists(sets.SHARED_SOURCES):
            print("prepare: shared set: no MANIFEST.tsv at BENCH_DIR (%s), so from the "
                  "repositories and commits %s names" % (sets.shared_dir() or "unset",
                                                        sets.SHARED_SOURCES))
    if "added" in which and os.path.exists(sets.ADDED_MANIFEST):
        print("prepare: added set: from the repositories and commits %s names"
              % sets.ADDED_MANIFEST)


def run(args):
    if args.git_url:
        os.environ["YASMIN_BENCH_GIT_URL"] = args.git_url
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
    _say_where(which)
    materialise([(w, m) for w, m, _ in todo], cache)

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
    p.add_argument("--git-url", help="where to clone a repository the mirror lacks from "
                   "($YASMIN_BENCH_GIT_URL; default https://github.com/{repo}.git; {repo} is "
                   "owner/name, {owner} and {name} its parts; without `{` a base: BASE/owner/name)")
    p.set_defaults(func=run)
