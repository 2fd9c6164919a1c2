#!/usr/bin/env bash
# fft3d slabs: fft3d.local=planes against staged with ESTIMATE, 1 and 2 ranks, 3 interleaved rounds, GFLOP/s per run
# (iterations as run.py), one line per run on stdout. Set PROXYLAB_MPIEXEC for the launcher.
#   bash bench/fft3d/slab-planes-vs-staged.sh > slab-planes-vs-staged.log
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "# slab-planes-vs-staged.sh: slab, planes vs staged with ESTIMATE (./proxylab run fft3d --ranks R --set fft3d.decomposition=slab --set fft3d.local=L --set fft3d.planning=estimate, iterations as run.py), GFLOP/s; $(date -u '+%F %H:%M') UTC, AMD EPYC Zen 3"
for round in 1 2 3; do
  for n in 48 64 96 128 192; do
    reps=$((10 * (128 / n) ** 3)); [ "$reps" -ge 10 ] || reps=10
    for r in 1 2; do
      for l in staged planes; do
        fom=$(OMP_NUM_THREADS=1 ./proxylab run fft3d --ranks $r --deck inputs/fft3d/128cube.yaml --set fft3d.nx=$n --set fft3d.ny=$n --set fft3d.nz=$n --set fft3d.planning=estimate --set fft3d.decomposition=slab --set fft3d.local=$l --set fft3d.iterations=$reps 2>&1 | sed -n 's/^FOM: \([0-9.]*\) GFLOP\/s.*/\1/p')
        echo "$n slab-${r}rank $l $fom"
      done
    done
  done
done
