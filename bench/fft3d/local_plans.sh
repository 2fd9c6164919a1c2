#!/usr/bin/env bash
# fft3d's local plans at one rank, in place, against FFTW's own in-place 3-D plan into the same (Z-stage) layout:
# per round and size the proxy with fft3d.local = planes, whole and staged, and fftw_layouts.c's plan F, each in a
# process of its own, one core. It asks whether a fixed rule (planning estimate) could pick better than `planes`:
# `whole` runs FFTW's plan F inside the proxy. One line per round and size (GFLOP/s, 5 N log2 N per transform), then
# per size the medians and the medians (min-max) of the per-round ratios to F.
#   bash bench/fft3d/local_plans.sh [ROUNDS] [SIZES] [PLANNING] [CORE]
#   (defaults: 5, "32 40 48 56 64 72 80 96 112 128", estimate, 1)
# Needs a built proxylab (build/openmp).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5} sizes=${2:-32 40 48 56 64 72 80 96 112 128} planning=${3:-estimate} core=${4:-1}
source bench/fft3d/one_core.sh  # proxy, layout, iterations, summarize; $work
log=$work/log
for round in $(seq "$rounds"); do
  for n in $sizes; do
    it=$(iterations "$n")
    local_plan() { proxy "$n" "$it" --set fft3d.in_place=true --set "fft3d.local=$1"; }
    echo "$round $n planes=$(local_plan planes) whole=$(local_plan whole) staged=$(local_plan staged)" \
      "F=$(layout "$n" "$it" F)" | tee -a "$log"
  done
done
summarize "$log" planes/F whole/F staged/F whole/planes
