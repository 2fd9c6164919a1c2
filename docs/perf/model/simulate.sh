#!/usr/bin/env bash
# Every proxy under SimGrid SMPI at 64 simulated ranks on the XT4 description (16 nodes... of 2 cores: 32 nodes),
# small decks and few steps, next to the model (docs/model.md, "Simulated runs"). Needs ci/build-smpi.sh first.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=docs/perf/model/simulate-xt4.txt
: > "$out"
sim() { ./proxylab simulate "$@" --machine xt4 --calibrated-on vm --ranks 16,64 | tee -a "$out"; }
sim pop --deck inputs/pop/small.yaml
sim pstswm --deck inputs/pstswm/T85L18-case2.yaml --set time.steps=2
sim evh1 --deck inputs/evh1/sedov-128.yaml --set time.max_steps=5 --set verify.sedov_radius=10 \
  --set verify.sedov_jump=0 --set verify.diagonal=10
sim fft3d --deck inputs/fft3d/64cube.yaml --set fft3d.iterations=2
