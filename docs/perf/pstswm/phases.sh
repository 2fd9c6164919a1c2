#!/usr/bin/env bash
# pstswm's spectral and grid-point phases of two binaries (e.g. a commit and its parent), interleaved, 5 rounds,
# 1 rank: ms per step (timer max / steps) and the case 2 l2 error, which must agree.
#   bash docs/perf/pstswm/phases.sh OLD_BINARY NEW_BINARY
set -euo pipefail
old=$1 new=$2
for deck in T42L18-case2 T85L18-case2; do
  steps=20; [ $deck = T85L18-case2 ] && steps=10
  for round in 1 2 3 4 5; do
    for which in old new; do
      bin=${!which}
      out=$(OMP_NUM_THREADS=1 mpiexec.mpich -n 1 "$bin" --deck inputs/pstswm/$deck.yaml --set time.steps=$steps 2>&1)
      sp=$(awk '$1=="timestep/spectral"{print $6}' <<<"$out"); gp=$(awk '$1=="timestep/grid_point"{print $6}' <<<"$out")
      l2=$(sed -n 's/.*normalized l2 height error .* value \([^ ]*\) .*/\1/p' <<<"$out")
      echo "$deck $which $round $(python3 -c "print(f'{1e3*$sp/$steps:.3f} {1e3*$gp/$steps:.3f}')") $l2"
    done
  done
done
