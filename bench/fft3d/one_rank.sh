#!/usr/bin/env bash
# fft3d at one rank against FFTW-MPI's benchmark and FFTW's own 3-D plans for each output contract, interleaved, one
# core: per round and size the proxy out of place and in place (fft3d.in_place), FFTW-MPI's in-place benchmark (the
# peer, fftw_mpi_3d from the peers' build), and fftw_layouts.c's plans A (in place, the input's order: what the peer
# computes), E (out of place into the Z-stage layout: the proxy's contract) and F (in place into it), each plan in a
# process of its own (no shared wisdom). One line per round and size, GFLOP/s (5 N log2 N per transform), then per
# size the medians and the medians (min-max) of the per-round ratios.
#   bash bench/fft3d/one_rank.sh PEERS_DIR [ROUNDS] [SIZES] [PLANNING] [CORE] [LAYOUT_PLANNING]
#   (defaults: 7, "48 64 96 128 192", measure, 1, PLANNING; LAYOUT_PLANNING patient: FFTW's plans A, E, F searched
#   with FFTW_PATIENT while the proxy and the peer plan with PLANNING; PLANNING patient: the peer is the same FFTW-MPI
#   call built from fftw_mpi_contracts.c, mode inplace, as fftw_mpi_3d knows ESTIMATE and MEASURE only)
# Needs a built proxylab (build/openmp) and the peers' fftw_mpi_3d (bench/peers/README.md, setup.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
peers=$1 rounds=${2:-7} sizes=${3:-48 64 96 128 192} planning=${4:-measure} core=${5:-1}
layout_planning=${6:-$planning}
source bench/fft3d/one_core.sh  # proxy, layout, iterations, summarize; $work
if [ "$planning" = patient ]; then
  contracts=$work/fftw_mpi_contracts
  mpicc.openmpi -O3 -march=native bench/fft3d/fftw_mpi_contracts.c -o "$contracts" -lfftw3_mpi -lfftw3 -lm
fi
peer() {  # N ITERATIONS
  local cmd=(./fftw_mpi_3d "$1" "$1" "$1" "$2" "$planning")
  [ "$planning" != patient ] || cmd=("$contracts" "$1" patient "$2" inplace)
  (cd "$peers" && mpirun.openmpi --allow-run-as-root --cpu-set "$core" --bind-to core -n 1 "${cmd[@]}" |
    sed -n 's/.* \([0-9.]*\) GFLOP\/s.*/\1/p')
}
log=$work/log
for round in $(seq "$rounds"); do
  for n in $sizes; do
    it=$(iterations "$n")
    echo "$round $n oop=$(proxy "$n" "$it") ip=$(proxy "$n" "$it" --set fft3d.in_place=true) mpi=$(peer "$n" "$it")" \
      "A=$(layout "$n" "$it" A) E=$(layout "$n" "$it" E) F=$(layout "$n" "$it" F)" | tee -a "$log"
  done
done
summarize "$log" oop/mpi ip/mpi oop/E ip/F E/A F/A A/mpi
