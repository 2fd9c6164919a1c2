#!/usr/bin/env bash
# pstswm with two host BLAS libraries, interleaved: per round and truncation the same deck through two builds (by
# default build/openmp, linked with CMake's default BLAS, OpenBLAS on Debian, and build/blis, configured with
# -DBLA_VENDOR=FLAME), one core, 1 thread, FFTW plans measured (the peers benchmark's setting). One line per run (the
# record's host BLAS, LT and FFT-stage ms per step, ms per field transform), then per truncation the medians of the
# per-round ratios first build / second build (above 1: the second is faster).
#   bash docs/perf/pstswm/host_blas.sh [ROUNDS] [TRUNCATIONS] [BUILD_A] [BUILD_B] [CORE]
#   (defaults: 5, "85 106 170 213 340", build/openmp, build/blis, 1)
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds=${1:-5} truncations=${2:-85 106 170 213 340} build_a=${3:-build/openmp} build_b=${4:-build/blis} core=${5:-1}
log=$(mktemp)
run() {  # BUILD T
  local deck=inputs/pstswm/T$2L18-case2.yaml sets=() json
  [ -f "$deck" ] || { deck=inputs/pstswm/T85L18-case2.yaml; sets=(--set "model.truncation=$2"); }
  json=$(mktemp)
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false OPENBLAS_NUM_THREADS=1 BLIS_NUM_THREADS=1 taskset -c "$core" \
    "$1/bin/proxylab-pstswm" --deck "$deck" "${sets[@]}" --set time.days=0.02 --set transform.fft_planning=measure \
    --quiet --json "$json" > /dev/null
  python3 - "$json" "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["results"]["per_step_s"]
print(f"T{sys.argv[3]} {sys.argv[2]} [{r['provenance']['host_blas']}] lt={1e3 * s['legendre']:.3f} "
      f"fft={1e3 * s['fft_fold']:.3f} field={1e3 * r['results']['seconds_per_field_transform']:.5f}")
PY
  rm -f "$json"
}
for round in $(seq "$rounds"); do
  for t in $truncations; do
    run "$build_a" "$t" | tee -a "$log"
    run "$build_b" "$t" | tee -a "$log"
  done
done
python3 - "$log" "$build_a" "$build_b" <<'PY'
import collections, re, statistics, sys
log, a, b = sys.argv[1:]
runs = collections.defaultdict(list)  # (T, build) -> [{lt, fft, field}] in round order
for line in open(log):
    t, build = line.split()[:2]
    runs[(t, build)].append({k: float(v) for k, v in re.findall(r"(\w+)=([0-9.]+)", line)})
print(f"per-round ratios {a} / {b} (medians, min-max):")
for t in dict.fromkeys(k[0] for k in runs):
    cols = []
    for key in ("lt", "fft", "field"):
        r = [x[key] / y[key] for x, y in zip(runs[(t, a)], runs[(t, b)])]
        cols.append(f"{key} {statistics.median(r):.2f}x ({min(r):.2f}-{max(r):.2f})")
    print(f"  {t}: " + ", ".join(cols))
PY
