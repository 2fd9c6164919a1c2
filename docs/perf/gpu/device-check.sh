#!/usr/bin/env bash
# The GPU check: proxylab's CUDA build (Kokkos 4.6.01 + ci/patches/kokkos-4.6.01-cuda13.patch, Hopper) run on
# one NVIDIA GPU. The binaries and the shared libraries the GPU machine lacks (MPICH and its UCX, OpenBLAS,
# yaml-cpp, hwloc) were built on the Debian 12 development machine and travel in .gpu/bundle.tar.xz
# (docs/perf/gpu/bundle.sh).
# Usage: bash docs/perf/gpu/device-check.sh OUTDIR   (writes OUTDIR/gpu.log and OUTDIR/records.tar)
set -uo pipefail
out=${1:?usage: device-check.sh OUTDIR}
mkdir -p "$out/records"
[ -f .gpu/bundle.tar.xz ] && tar -C .gpu -xJf .gpu/bundle.tar.xz
# CUDA's runtime library comes from the GPU machine's own toolkit.
cudart=$(find /usr/local/cuda*/ /usr/lib /opt -name 'libcudart.so.13*' 2>/dev/null | head -n 1)
export LD_LIBRARY_PATH=$PWD/.gpu/lib${cudart:+:$(dirname "$cudart")}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMP_PROC_BIND=spread OMP_PLACES=threads OMP_NUM_THREADS=8
bin=.gpu/bin
log=$out/gpu.log
exec > >(tee "$log") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
nvcc --version 2>/dev/null | tail -2
lscpu | grep -E 'Model name|^CPU\(s\)'
# run NAME BINARY ARGS...: one run, its summary lines and the record's path
run() {
  local name=$1; shift
  echo "=== $name: $*"
  timeout 120 "$@" --json "$out/records/$name.json" >"$out/records/$name.txt" 2>&1
  local rc=$?
  grep -E 'ranks x threads|iterations \(|time per iteration|FOM:|VERIFICATION|error|Error' "$out/records/$name.txt" | head -8
  echo "exit $rc"
}
# The unit tests compiled for the GPU (Catch2; each variant against the reference), at 1 and 2 ranks.
for t in $bin/test-*; do
  [ -f "$t" ] || continue
  name=$(basename "$t")
  echo "=== $name"; timeout 120 "$t" > "$out/records/$name.txt" 2>&1; echo "exit $?"; tail -n 3 "$out/records/$name.txt"
  case $name in test-common-mpi|test-comm-strategies|test-pop-solvers)
    echo "=== $name, 2 ranks"; timeout 120 $bin/mpiexec.hydra -n 2 "$t" > "$out/records/$name-np2.txt" 2>&1
    echo "exit $?"; tail -n 3 "$out/records/$name-np2.txt" ;;
  esac
done
pop=$bin/proxylab-pop
run pop-small-flat $pop --deck inputs/pop/small.yaml
for m in flat mdrange team; do
  run "pop-x1-$m" $pop --deck inputs/pop/x1.yaml --set solver.mapping=$m
done
# Three interleaved rounds of the tenth-degree benchmark (GPU mappings and, below, the host): take the medians.
for r in 1 2 3; do
  for m in flat mdrange team; do
    run "pop-tenth-$m-r$r" $pop --deck inputs/pop/tenth-bench.yaml --set solver.mapping=$m --set bench.stream=false
  done
  [ -x $bin/host/proxylab-pop ] && OMP_NUM_THREADS=16 run "pop-tenth-bench-host-team-r$r" $bin/host/proxylab-pop \
    --deck inputs/pop/tenth-bench.yaml --set bench.stream=false
done
# The same decks on the machine's CPU cores: the OpenMP build (-march=x86-64-v3), 16 threads, 1 rank.
if [ -x $bin/host/proxylab-pop ]; then
  for d in x1; do
    OMP_NUM_THREADS=16 run "pop-$d-host-team" $bin/host/proxylab-pop --deck inputs/pop/$d.yaml --set bench.stream=false
  done
fi
run pop-x1-2ranks $bin/mpiexec.hydra -n 2 $pop --deck inputs/pop/x1.yaml
run pop-tenth-converged-team $pop --deck inputs/pop/tenth.yaml --set solver.mapping=team
# STREAM on the GPU's memory: 2^27 doubles (1 GiB) per array
run stream $bin/proxylab-stream --deck inputs/stream/default.yaml --set stream.n=134217728
tar -C "$out" -cf "$out/records.tar" records && rm -rf "$out/records"
