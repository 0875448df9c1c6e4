"""Slots of a multi-GPU host: each slot one GPU and an equal share of the host's cores, so that
`scripts/bench run --slots` can run several whole-machine configurations at once, each on what a
one-GPU machine of the same host type has (e.g. a 4-GPU, 64-core host as four 16-core, one-GPU
machines).

Invariant: the slots' CPU sets are disjoint, hold whole physical cores (hyper-thread siblings
stay together), are equally large, and together are at most the CPUs this process may use; a
GPU goes to the slot whose cores lie on its NUMA node where the topology says so.
"""

import os
import shutil
import subprocess

SYS = "/sys"


def _read(path, default=None):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def cpu_list(text):
    """'0-3,8,10-11' -> [0, 1, 2, 3, 8, 10, 11]."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def cpu_text(cpus):
    """[0, 1, 2, 3, 8] -> '0-3,8' (taskset's form)."""
    parts, cpus = [], sorted(cpus)
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        parts.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(parts)


def physical_cores(cpus, sys_root=SYS):
    """The CPUs grouped by physical core, cores in (package, lowest CPU) order."""
    groups = {}
    for c in cpus:
        topo = os.path.join(sys_root, "devices/system/cpu/cpu%d/topology" % c)
        key = (_read(os.path.join(topo, "physical_package_id"), "0"),
               _read(os.path.join(topo, "core_id"), str(c)))
        groups.setdefault(key, []).append(c)
    return sorted(groups.values(), key=lambda g: (min(g), len(g)))


def split(cores, n):
    """n disjoint, equally large CPU lists out of the physical cores, contiguous in their order;
    the cores left over (fewer than n) are not used."""
    if n < 1 or len(cores) < n:
        raise ValueError("%d slots need at least %d physical cores, found %d" %
                         (n, n, len(cores)))
    per = len(cores) // n
    return [sorted(c for core in cores[k * per:(k + 1) * per] for c in core) for k in range(n)]


def gpu_nodes(sys_root=SYS):
    """Each visible GPU's NUMA node (None where unknown), in nvidia-smi's (CUDA's PCI) order."""
    if not shutil.which("nvidia-smi"):
        return []
    p = subprocess.run(["nvidia-smi", "--query-gpu=pci.bus_id", "--format=csv,noheader"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return []
    nodes = []
    for bus in (b.strip() for b in p.stdout.splitlines() if b.strip()):
        dom, _, rest = bus.lower().partition(":")
        node = _read(os.path.join(sys_root, "bus/pci/devices/%s:%s/numa_node" % (dom[-4:], rest)))
        nodes.append(int(node) if node not in (None, "-1") else None)
    return nodes


def cpu_node(cpu, sys_root=SYS):
    base = os.path.join(sys_root, "devices/system/cpu/cpu%d" % cpu)
    try:
        return next(int(e[4:]) for e in os.listdir(base) if e.startswith("node") and e[4:].isdigit())
    except (OSError, StopIteration):
        return None


def assign(cpu_sets, nodes, node_of):
    """GPU index per slot: each slot takes a GPU on its first CPU's NUMA node while one is left,
    otherwise the lowest GPU left."""
    left = list(range(len(nodes)))
    out = []
    for cpus in cpu_sets:
        node = node_of(cpus[0])
        pick = next((g for g in left if nodes[g] is not None and nodes[g] == node), left[0])
        left.remove(pick)
        out.append(pick)
    return out


def machine_slots(n=None, sys_root=SYS):
    """[(cpu_text, gpu_index)] for n slots (default: one per GPU)."""
    nodes = gpu_nodes(sys_root)
    n = n or len(nodes)
    if n < 1:
        raise SystemExit("slots: no GPU found (nvidia-smi) and no slot count given")
    if nodes and n > len(nodes):
        raise SystemExit("slots: %d slots asked for, %d GPUs visible" % (n, len(nodes)))
    sets = split(physical_cores(sorted(os.sched_getaffinity(0)), sys_root), n)
    gpus = assign(sets, nodes, lambda c: cpu_node(c, sys_root)) if nodes else [None] * n
    return [(cpu_text(s), g) for s, g in zip(sets, gpus)]


def wrap(slot, argv, env=None):
    """argv and environment that run argv on the slot's CPUs and GPU."""
    if slot is None:
        return argv, env
    cpus, gpu = slot
    if not shutil.which("taskset"):
        raise SystemExit("slots: taskset (util-linux) is needed to pin runs to a slot's cores")
    env = dict(env if env is not None else os.environ)
    if gpu is not None:  # nvidia-smi's order is PCI order; CUDA's default is not
        env["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"
        env["CUDA_VISIBLE_DEVICES"] = str(gpu)
    return ["taskset", "-c", cpus] + list(argv), env
