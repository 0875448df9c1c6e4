"""Where the benchmark inputs live, and the one list of instances every command reads.

Two sets of instances, one list: `shared` (15 classes, 74 instances: the files of
$BENCH_DIR/MANIFEST.tsv where that folder is here, else fetched from the public repositories that
benchmarks/added/SHARED-MANIFEST.tsv names, the same rows with their repository, commit and
paths) and `added` (benchmarks/added/MANIFEST.tsv: classes fetched from public repositories, by
repository, commit and path). `scripts/bench prepare` writes both into the cache and the list
CACHE/list.tsv; `run` and `device kit` read that list.

Invariant: an instance is named the same everywhere — `<class>/instances/<file>.lp`, as the
shared manifest writes it without its `benchmarks/` prefix — and its ground file is
`<class>/<file>.aspif.xz` under CACHE/ground (or KIT/ground on the GPU machine).

Locations (environment variables; defaults need no machine path):
  YASMIN_BENCH_CACHE   the cache (default $XDG_CACHE_HOME/yasmin-bench, else ~/.cache/yasmin-bench);
                       `prepare` keeps its clones of the source repositories in CACHE/git
  BENCH_DIR            the shared set on disk (default: the nearest `shared/benchmarks` folder at
                       or above the repository's parent); used where it holds MANIFEST.tsv
  YASMIN_BENCH_MIRROR  local git mirrors of the source repositories, one bare git dir per
                       repository at MIRROR/<owner>+<name>/repo (as the `fetch` tool leaves them;
                       default: the nearest `.mirror` folder above the repository); set, it is
                       the only source (no network)
  YASMIN_BENCH_GIT_URL where `prepare` clones a repository the mirror lacks from (default
                       https://github.com/{repo}.git; {repo} is owner/name, {owner} and {name}
                       its parts; a value without `{` is a base: BASE/owner/name)
  YASMIN_BENCH_ADDED   the added set's manifest (default benchmarks/added/MANIFEST.tsv)
"""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ADDED_MANIFEST = os.environ.get("YASMIN_BENCH_ADDED") or os.path.join(
    ROOT, "benchmarks", "added", "MANIFEST.tsv")
# The shared manifest's rows with the added manifest's source columns (repo, commit,
# encoding_path, instance_path): the shared set for a machine that has no $BENCH_DIR.
SHARED_SOURCES = os.path.join(ROOT, "benchmarks", "added", "SHARED-MANIFEST.tsv")

# The columns of CACHE/list.tsv (and KIT/list.tsv): what a run needs to know of an instance.
LIST_COLUMNS = ["class", "instance", "ground", "set", "kind", "tight", "expected", "clingo_s",
                "ground_rules"]


def _upward(name):
    d = os.path.dirname(ROOT)
    while True:
        cand = os.path.join(d, name)
        if os.path.isdir(cand):
            return cand
        if os.path.dirname(d) == d:
            return None
        d = os.path.dirname(d)


def cache_dir():
    if os.environ.get("YASMIN_BENCH_CACHE"):
        return os.environ["YASMIN_BENCH_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "yasmin-bench")


def shared_dir():
    return os.environ.get("BENCH_DIR") or _upward(os.path.join("shared", "benchmarks"))


def shared_on_disk():
    """The shared set's folder if it is here (holds MANIFEST.tsv), else None."""
    d = shared_dir()
    return d if d and os.path.exists(os.path.join(d, "MANIFEST.tsv")) else None


def mirror_dir():
    return os.environ.get("YASMIN_BENCH_MIRROR") or _upward(".mirror")


def git_url(repo):
    """The URL `prepare` clones repository REPO (owner/name) from."""
    t = os.environ.get("YASMIN_BENCH_GIT_URL") or "https://github.com/{repo}.git"
    if "{" not in t:
        return "%s/%s" % (t.rstrip("/"), repo)
    owner, _, name = repo.partition("/")
    return t.format(repo=repo, owner=owner, name=name)


def read_tsv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def write_tsv(path, rows, columns):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\t".join(columns) + "\n")
        for r in rows:
            f.write("\t".join(str(r.get(c, "")) for c in columns) + "\n")
    os.replace(tmp, path)


def instance_name(manifest_instance):
    """'benchmarks/visitall/instances/x.lp' -> 'visitall/instances/x.lp'."""
    p = manifest_instance
    return p[len("benchmarks/"):] if p.startswith("benchmarks/") else p


def ground_name(name):
    """'visitall/instances/x.lp' -> 'visitall/x.aspif.xz' (relative to the ground folder)."""
    cls, _, rest = name.partition("/instances/")
    return "%s/%s.aspif.xz" % (cls, os.path.splitext(rest)[0])


def list_row(m, which):
    """A list.tsv row from a manifest row (shared or added: the same columns)."""
    name = instance_name(m["instance"])
    return {
        "class": m["class"], "instance": name, "ground": ground_name(name), "set": which,
        "kind": m.get("rule_types", ""), "tight": m.get("tight", ""),
        "expected": m.get("clingo_result", ""), "clingo_s": m.get("clingo_s", ""),
        "ground_rules": m.get("ground_rules", ""),
    }


def manifests(which=("shared", "added")):
    """[(set, manifest row)] of the sets asked for that exist here."""
    out = []
    if "shared" in which:
        d = shared_on_disk()
        if d:
            out += [("shared", m) for m in read_tsv(os.path.join(d, "MANIFEST.tsv"))]
        elif os.path.exists(SHARED_SOURCES):
            out += [("shared", m) for m in read_tsv(SHARED_SOURCES)]
    if "added" in which and os.path.exists(ADDED_MANIFEST):
        out += [("added", m) for m in read_tsv(ADDED_MANIFEST)]
    return out


def select(rows, classes=None, instances=None, chunk=None, which=None):
    """The rows to run: filters first, then every n-th of what is left (chunk 'i/n', 1-based)."""
    if which:
        rows = [r for r in rows if r.get("set", "shared") in which]
    if classes:
        keep = set(classes.split(","))
        rows = [r for r in rows if r["class"] in keep]
    if instances:
        rows = [r for r in rows if any(s in r["instance"] for s in instances.split(","))]
    if chunk and chunk != "all":
        i, n = (int(x) for x in chunk.split("/"))
        if not 1 <= i <= n:
            raise SystemExit("--chunk i/n needs 1 <= i <= n")
        rows = rows[i - 1::n]
    return rows
