#!/usr/bin/env bash
# fft3d at 2 ranks against FFTW-MPI under each output contract (fftw_mpi_contracts.c), interleaved: per round and
# size, FFTW-MPI in place (the peer), out of place transposed (oop_t) and oop_t with the spectrum put into fft3d's
# z-contiguous Z stage (oop_tz), then the proxy (./proxylab run) with each decomposition. GFLOP/s, one line each.
#   bash bench/fft3d/contracts.sh [ROUNDS] [SIZES] [PLANNING] [DECOMPOSITIONS]
#   (defaults: 5, "96 128", measure, slab)
# Needs Debian's libfftw3-mpi-dev and OpenMPI (the peers' FFTW-MPI build) and a built proxylab (build/openmp).
# The proxy's pencil at 2 ranks is a 1 x 2 grid, whose X and Z stages are a slab's (fft3d.local=planes runs there).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5} sizes=${2:-96 128} planning=${3:-measure} decomps=${4:-slab}
bin=$(mktemp -d)/fftw_mpi_contracts
mpicc.openmpi -O3 -march=native bench/fft3d/fftw_mpi_contracts.c -o "$bin" -lfftw3_mpi -lfftw3 -lm
for round in $(seq "$rounds"); do
  for n in $sizes; do
    reps=$((10 * (128 / n) ** 3)); [ "$reps" -ge 10 ] || reps=10  # the same work at every size, as run.py
    for mode in inplace oop_t oop_tz; do
      OMP_NUM_THREADS=1 mpirun.openmpi --allow-run-as-root --oversubscribe -n 2 "$bin" "$n" "$planning" "$reps" "$mode"
    done
    for decomp in $decomps; do
      fom=$(OMP_NUM_THREADS=1 ./proxylab run fft3d --ranks 2 --deck inputs/fft3d/128cube.yaml --set "fft3d.nx=$n" \
        --set "fft3d.ny=$n" --set "fft3d.nz=$n" --set "fft3d.planning=$planning" --set "fft3d.decomposition=$decomp" \
        --set "fft3d.iterations=$reps" 2>&1 | sed -n 's/^FOM: \([0-9.]*\) GFLOP\/s.*/\1/p')
      echo "${n}^3 $planning proxy $decomp: ${fom} GFLOP/s"
    done
  done
done
