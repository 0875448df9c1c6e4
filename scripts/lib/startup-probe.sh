#!/usr/bin/env bash
# Where a small run's time goes before and after the search, on the GPU machine: the driver's
# own start (cuInit through ctypes, nothing else), then each binary on a small example with
# `--engine=cpu`, `--engine=cpu -t 16`, `--engine=auto` and `--engine=gpu`, REPEAT times each:
# wall seconds (the process, exit included), the run's own `Time` line, and its `GPUs` phase
# (how long asking the driver took). Wall minus Time is what the process spends after its
# last line: the driver's teardown at exit.
#
# Usage: REPEAT=3 bash scripts/lib/startup-probe.sh BIN... (run from the repository root).
set -uo pipefail
REPEAT=${REPEAT:-3}
EXAMPLE=${EXAMPLE:-examples/queens.aspif}
nvidia-smi --query-gpu=index,name,persistence_mode --format=csv,noheader 2>/dev/null
python3 - <<'EOF'
import ctypes, time
t = time.time()
cuda = ctypes.CDLL("libcuda.so.1")
loaded = time.time() - t
t = time.time()
rc = cuda.cuInit(0)
n = ctypes.c_int(0)
cuda.cuDeviceGetCount(ctypes.byref(n))
print("libcuda load %.3f s, cuInit %.3f s (rc %d, %d GPUs)" % (loaded, time.time() - t, rc, n.value))
EOF
echo "| binary | run | wall s | Time s | GPUs phase |"
echo "|---|---|---:|---:|---|"
for bin in "$@"; do
    for run in "--engine=cpu" "--engine=cpu -t 16" "--engine=auto" "--engine=gpu"; do
        for _ in $(seq "$REPEAT"); do
            start=$(date +%s.%N)
            # shellcheck disable=SC2086
            out=$("$bin" "$EXAMPLE" -n 1 --stats $run 2>&1)
            end=$(date +%s.%N)
            wall=$(python3 -c "import sys; print('%.3f' % (float(sys.argv[1]) - float(sys.argv[2])))" "$end" "$start")
            time=$(awk '/^Time/ { print $3; exit }' <<<"$out")
            gpus=$(grep -m1 'GPUs *:' <<<"$out" | sed 's/^ *//')
            echo "| $(basename "$bin") | $run | $wall | $time | $gpus |"
        done
    done
done
