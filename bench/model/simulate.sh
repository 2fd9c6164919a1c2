#!/usr/bin/env bash
# Every proxy under SimGrid SMPI on the XT4 description (2 cores per node) at 16 to 1024 simulated ranks, next to the
# model with its kernels calibrated here (docs/model.md, "Simulated runs"); each rank count twice: computation
# measured here and scaled, and communication alone. Decks with a few thousand points per rank at 64 ranks, few
# steps. Needs ci/build-smpi.sh first; about 15 minutes on the 2-core VM.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=bench/model/simulate-xt4.txt
: > "$out"
sim() { ./proxylab simulate "$@" --machine xt4 --calibrated-on vm | tee -a "$out"; }
sim pop --deck inputs/pop/x1.yaml --set solver.max_iters=20 --set solver.crit=0 --ranks 16,64,256,1024
sim pstswm --deck inputs/pstswm/T85L18-case2.yaml --set time.steps=2 --ranks 16,64
sim evh1 --deck inputs/evh1/sedov-256.yaml --set time.max_steps=5 --set verify.sedov_radius=10 \
  --set verify.sedov_jump=0.01 --set verify.diagonal=10 --ranks 16,64
sim fft3d --deck inputs/fft3d/128cube.yaml --set fft3d.iterations=2 --ranks 16,64,128
