#!/usr/bin/env bash
# fft3d at one rank against FFTW-MPI's benchmark and FFTW's own 3-D plans for each output contract, interleaved, one
# core: per round and size the proxy out of place and in place (fft3d.in_place), FFTW-MPI's in-place benchmark (the
# peer, fftw_mpi_3d from the peers' build), and fftw_layouts.c's plans A (in place, the input's order: what the peer
# computes), E (out of place into the Z-stage layout: the proxy's contract) and F (in place into it), each plan in a
# process of its own (no shared wisdom). One line per round and size, GFLOP/s (5 N log2 N per transform), then per
# size the medians and the medians (min-max) of the per-round ratios.
#   bash docs/perf/fft3d/one_rank.sh PEERS_DIR [ROUNDS] [SIZES] [PLANNING] [CORE] [LAYOUT_PLANNING]
#   (defaults: 7, "48 64 96 128 192", measure, 1, PLANNING; LAYOUT_PLANNING patient: FFTW's plans A, E, F searched
#   with FFTW_PATIENT while the proxy and the peer plan with PLANNING; PLANNING patient: the peer is the same FFTW-MPI
#   call built from fftw_mpi_contracts.c, mode inplace, as fftw_mpi_3d knows ESTIMATE and MEASURE only)
# Needs a built proxylab (build/openmp) and the peers' fftw_mpi_3d (docs/perf/peers/README.md, setup.sh).
set -euo pipefail
cd "$(dirname "$0")/../../.."
peers=$1 rounds=${2:-7} sizes=${3:-48 64 96 128 192} planning=${4:-measure} core=${5:-1}
layout_planning=${6:-$planning}
layouts=$(mktemp -d)/fftw_layouts
cc -O2 -march=native docs/perf/fft3d/fftw_layouts.c -o "$layouts" -lfftw3 -lm
if [ "$planning" = patient ]; then
  contracts=$(dirname "$layouts")/fftw_mpi_contracts
  mpicc.openmpi -O3 -march=native docs/perf/fft3d/fftw_mpi_contracts.c -o "$contracts" -lfftw3_mpi -lfftw3 -lm
fi
proxy() {  # N ITERATIONS [--set ...]
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false taskset -c "$core" build/openmp/bin/proxylab-fft3d \
    --deck inputs/fft3d/small.yaml --set "fft3d.nx=$1" --set "fft3d.ny=$1" --set "fft3d.nz=$1" \
    --set "fft3d.planning=$planning" --set "fft3d.iterations=$2" --set fft3d.warmup=2 \
    --set verify.serial_max_points=0 --quiet "${@:3}" | sed -n 's/^FOM: \([0-9.]*\) GFLOP\/s.*/\1/p'
}
layout() {  # N ITERATIONS PLAN
  taskset -c "$core" "$layouts" "$1" "$layout_planning" "$(($2 + 1))" "$3" | sed -n 's/.*(\([0-9.]*\) GFLOP\/s)$/\1/p'
}
peer() {  # N ITERATIONS
  local cmd=(./fftw_mpi_3d "$1" "$1" "$1" "$2" "$planning")
  [ "$planning" != patient ] || cmd=("$contracts" "$1" patient "$2" inplace)
  (cd "$peers" && mpirun.openmpi --allow-run-as-root --cpu-set "$core" --bind-to core -n 1 "${cmd[@]}" |
    sed -n 's/.* \([0-9.]*\) GFLOP\/s.*/\1/p')
}
log=$(mktemp)
for round in $(seq "$rounds"); do
  for n in $sizes; do
    it=$((10 * (128 / n) ** 3)); [ "$it" -ge 10 ] || it=10  # the same work at every size, as run.py
    echo "$round $n oop=$(proxy "$n" "$it") ip=$(proxy "$n" "$it" --set fft3d.in_place=true) mpi=$(peer "$n" "$it")" \
      "A=$(layout "$n" "$it" A) E=$(layout "$n" "$it" E) F=$(layout "$n" "$it" F)" | tee -a "$log"
  done
done
python3 - "$log" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    rows[int(f[1])].append({k: float(v) for k, v in (x.split("=") for x in f[2:])})
ratios = [("oop", "mpi"), ("ip", "mpi"), ("oop", "E"), ("ip", "F"), ("E", "A"), ("F", "A"), ("A", "mpi")]
for n, r in sorted(rows.items()):
    print(f"{n}^3, {len(r)} rounds, medians GFLOP/s:", " ".join(f"{k} {statistics.median(x[k] for x in r):.2f}" for k in r[0]))
    cells = []
    for a, b in ratios:
        q = [x[a] / x[b] for x in r]
        cells.append(f"{a}/{b} {statistics.median(q):.2f} ({min(q):.2f}-{max(q):.2f})")
    print("   ", ", ".join(cells))
PY
