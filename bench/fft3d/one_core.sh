# Shared by one_rank.sh and local_plans.sh (sourced from the repository root): one-rank runs on one core, each run a
# process of its own, GFLOP/s (5 N log2 N per transform). Set `core` and `planning` first (`layout_planning`: the
# planning of fftw_layouts.c's plans, default `planning`). Builds fftw_layouts.c into $work, removed at exit.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -march=native bench/fft3d/fftw_layouts.c -o "$work/fftw_layouts" -lfftw3 -lm

# The same work at every size (10 transforms of 128^3), as run.py.
iterations() {  # N
  local it=$((10 * (128 / $1) ** 3))
  echo $((it >= 10 ? it : 10))
}
proxy() {  # N ITERATIONS [--set KEY=VALUE ...]
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false taskset -c "$core" build/openmp/bin/proxylab-fft3d \
    --deck inputs/fft3d/small.yaml --set "fft3d.nx=$1" --set "fft3d.ny=$1" --set "fft3d.nz=$1" \
    --set "fft3d.planning=$planning" --set "fft3d.iterations=$2" --set fft3d.warmup=2 \
    --set verify.serial_max_points=0 --quiet "${@:3}" | sed -n 's/^FOM: \([0-9.]*\) GFLOP\/s.*/\1/p'
}
layout() {  # N ITERATIONS PLAN (fftw_layouts.c: A, E, F, ...)
  taskset -c "$core" "$work/fftw_layouts" "$1" "${layout_planning:-$planning}" "$(($2 + 1))" "$3" |
    sed -n 's/.*(\([0-9.]*\) GFLOP\/s), round trip ok.*/\1/p'
}
# Per size of a log of lines "ROUND N NAME=GFLOPS ...": the medians, and the medians (min-max) of the per-round
# ratios A/B named.
summarize() {  # LOG A/B ...
  python3 - "$@" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    rows[int(f[1])].append({k: float(v) for k, v in (x.split("=") for x in f[2:])})
ratios = [r.split("/") for r in sys.argv[2:]]
for n, r in sorted(rows.items()):
    print(f"{n}^3, {len(r)} rounds, medians GFLOP/s:", " ".join(f"{k} {statistics.median(x[k] for x in r):.2f}" for k in r[0]))
    cells = []
    for a, b in ratios:
        q = [x[a] / x[b] for x in r]
        cells.append(f"{a}/{b} {statistics.median(q):.2f} ({min(q):.2f}-{max(q):.2f})")
    print("   ", ", ".join(cells))
PY
}
