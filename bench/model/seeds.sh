#!/usr/bin/env bash
# The model against what the seeds report (docs/model.md, "Validation against the seeds"): each command's table
# goes to bench/model/seeds/NAME.txt, its model.json and model.png to results/model-seeds/NAME/ (not tracked).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=bench/model/seeds
run() { local name=$1; shift; ./proxylab model "$@" --out "results/model-seeds/$name" --quiet | tee "$out/$name.txt"; }
# PSTSWM transpose vs distributed (ring pipeline, as the seed) on the X1 (seed 000 "PSTSWM Algorithm Comparison":
# T680L96; T170L18 here: counting runs of T680L96 do not fit this 2-core machine's time)
run pstswm-x1 pstswm --deck inputs/pstswm/T170L18-case2.yaml --set time.steps=2 --set parallel.combine=ring \
  --machine x1 --vary parallel.algorithm=transpose,distributed --ranks 1,4,16,32,64,128
# POP's barotropic solver on the X1: latency-bound global sums at scale (seed 000 "Perf. Diagnosis vs. ES40")
run pop-x1 pop --deck inputs/pop/x1.yaml --set solver.max_iters=100 --set solver.crit=0 --machine x1 \
  --vary solver.name=pcg,pcsi --ranks 1,16,64,96,256,1024,4096
# CASTEP's shared-memory (node-aware) all-to-all on the XT6, full (24 per node) and under-populated (4 per node)
# nodes at 144 ranks (seed 002 "CASTEP: XT6 performance, different configurations"): a 144^3 FFT in slabs, so that
# every transpose is one all-to-all over all ranks, as CASTEP's
fft="--deck inputs/fft3d/128cube.yaml --set fft3d.nx=144 --set fft3d.ny=144 --set fft3d.nz=144 --set fft3d.iterations=2"
run fft3d-xt6-24pn fft3d $fft --machine xt6 --vary fft3d.transpose=alltoallv,node_aware --ranks 24,48,72,144
run fft3d-xt6-4pn fft3d $fft --machine xt6 --ranks-per-node 4 --vary fft3d.transpose=alltoallv,node_aware \
  --ranks 24,48,72,144
# EVH1's transposes between sweeps vs a halo exchange, on the X1 (seed 000 "EVH1": the decomposition is
# restructured for each direction; more MPI ranks in SSP mode)
run evh1-x1 evh1 --deck inputs/evh1/sedov-128.yaml --set time.max_steps=20 --set verify.sedov_radius=10 \
  --set verify.sedov_jump=0 --set verify.diagonal=10 --machine x1 --vary evh1.algorithm=transpose,halo \
  --ranks 1,4,16,64,128
