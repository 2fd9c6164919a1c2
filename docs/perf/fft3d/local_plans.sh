#!/usr/bin/env bash
# fft3d's local plans at one rank, in place, against FFTW's own in-place 3-D plan into the same (Z-stage) layout:
# per round and size the proxy with fft3d.local = planes, whole and staged, and fftw_layouts.c's plan F, each in a
# process of its own, one core. It asks whether a fixed rule (planning estimate) could pick better than `planes`:
# `whole` runs FFTW's plan F inside the proxy. One line per round and size (GFLOP/s, 5 N log2 N per transform), then
# per size the medians and the medians (min-max) of the per-round ratios to F.
#   bash docs/perf/fft3d/local_plans.sh [ROUNDS] [SIZES] [PLANNING] [CORE]
#   (defaults: 5, "32 40 48 56 64 72 80 96 112 128", estimate, 1)
# Needs a built proxylab (build/openmp).
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-5} sizes=${2:-32 40 48 56 64 72 80 96 112 128} planning=${3:-estimate} core=${4:-1}
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
cc -O2 -march=native docs/perf/fft3d/fftw_layouts.c -o "$folder/fftw_layouts" -lfftw3 -lm
proxy() {  # N ITERATIONS LOCAL
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false taskset -c "$core" build/openmp/bin/proxylab-fft3d \
    --set "fft3d.nx=$1" --set "fft3d.ny=$1" --set "fft3d.nz=$1" --set "fft3d.planning=$planning" \
    --set "fft3d.iterations=$2" --set fft3d.warmup=2 --set verify.serial_max_points=0 --set fft3d.in_place=true \
    --set "fft3d.local=$3" --quiet | sed -n 's/^FOM: \([0-9.]*\) GFLOP\/s.*/\1/p'
}
layout() {  # N ITERATIONS PLAN
  taskset -c "$core" "$folder/fftw_layouts" "$1" "$planning" "$(($2 + 1))" "$3" | sed -n 's/.*(\([0-9.]*\) GFLOP\/s)$/\1/p'
}
log="$folder/log"
for round in $(seq "$rounds"); do
  for n in $sizes; do
    it=$((10 * (128 / n) ** 3)); [ "$it" -ge 10 ] || it=10  # the same work at every size, as run.py
    echo "$round $n planes=$(proxy "$n" "$it" planes) whole=$(proxy "$n" "$it" whole)" \
      "staged=$(proxy "$n" "$it" staged) F=$(layout "$n" "$it" F)" | tee -a "$log"
  done
done
python3 - "$log" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    rows[int(f[1])].append({k: float(v) for k, v in (x.split("=") for x in f[2:])})
for n, r in sorted(rows.items()):
    med = " ".join(f"{k} {statistics.median(x[k] for x in r):.2f}" for k in r[0])
    cells = []
    for a in ("planes", "whole", "staged"):
        q = [x[a] / x["F"] for x in r]
        cells.append(f"{a}/F {statistics.median(q):.2f} ({min(q):.2f}-{max(q):.2f})")
    q = [x["whole"] / x["planes"] for x in r]
    cells.append(f"whole/planes {statistics.median(q):.2f} ({min(q):.2f}-{max(q):.2f})")
    print(f"{n}^3, {len(r)} rounds, medians GFLOP/s: {med}\n    " + ", ".join(cells))
PY
