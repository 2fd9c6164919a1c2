#!/usr/bin/env bash
# The GPU check: proxylab's CUDA build (Kokkos 4.6.01 + ci/patches/kokkos-4.6.01-cuda13.patch, Hopper; the FFT
# layer's cuFFT back end, kokkos-fft 1.0.0 for fft3d's library baseline) run on one NVIDIA GPU. The binaries and the shared libraries the GPU machine lacks (MPICH and
# its UCX, OpenBLAS, yaml-cpp, hwloc) were built on the Debian 12 development machine and travel in
# .gpu/bundle.tar.xz (bench/gpu/bundle.sh); the CUDA libraries are the machine's own.
# Usage: bash bench/gpu/device-check.sh OUTDIR [PART...]   (writes OUTDIR/gpu.log and OUTDIR/records.tar)
#   then, back here: python3 bench/gpu/metrics.py OUTDIR/records.tar --append bench/gpu/results.json (README.md)
#   PART: tests, pop, fft3d, evh1, pstswm, stream, run in the order given (default: all, in that order; one call of
#   the device tool runs them all)
# A device lease is short, so a check stops itself before it is killed: PROXYLAB_CHECK_SECONDS (default 0: no
# limit) skips every run that would start after that many seconds, PROXYLAB_RUN_TIMEOUT (default 120) ends one run,
# and records.tar is rewritten after each part, so what was gathered comes back even when the call is cut short.
# PROXYLAB_CHECK_ONLY=REGEX runs only the runs whose names match (bash regex), e.g. a rerun of what failed;
# PROXYLAB_CHECK_RANKS=1 skips the runs of several ranks (they time-share the one GPU: slow, correctness only).
set -uo pipefail
out=${1:?usage: device-check.sh OUTDIR}
mkdir -p "$out/records"
[ -f .gpu/bundle.tar.xz ] && tar -C .gpu -xJf .gpu/bundle.tar.xz
parts=${*:2}; parts=${parts:-tests pop fft3d evh1 pstswm stream}
budget=${PROXYLAB_CHECK_SECONDS:-0}
run_timeout=${PROXYLAB_RUN_TIMEOUT:-120}
# skip_run NAME COMMAND...: true when the run is not to start: silently where PROXYLAB_CHECK_ONLY leaves it out,
# saying why where the check's time is spent or PROXYLAB_CHECK_RANKS=1 and it runs several ranks
skip_run() {
  if [ -n "${PROXYLAB_CHECK_ONLY:-}" ] && ! [[ $1 =~ $PROXYLAB_CHECK_ONLY ]]; then return 0; fi
  if [ "$budget" != 0 ] && [ "$SECONDS" -ge "$budget" ]; then echo "=== $1: skipped (PROXYLAB_CHECK_SECONDS=$budget spent)"; return 0; fi
  if [ "${PROXYLAB_CHECK_RANKS:-2}" = 1 ] && [[ " $* " == *mpiexec* ]]; then echo "=== $1: skipped (PROXYLAB_CHECK_RANKS=1)"; return 0; fi
  return 1
}
# CUDA's runtime, cuFFT and cuBLAS come from the GPU machine's own toolkit.
cuda_libs=""
for lib in 'libcudart.so.13*' 'libcufft.so.12*' 'libcublas.so.13*'; do
  found=$(find /usr/local/cuda*/ /usr/lib /opt -name "$lib" 2>/dev/null | head -n 1)
  [ -n "$found" ] && [[ ":$cuda_libs:" != *":$(dirname "$found"):"* ]] && cuda_libs=$cuda_libs:$(dirname "$found")
done
export LD_LIBRARY_PATH=$PWD/.gpu/lib$cuda_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMP_PROC_BIND=spread OMP_PLACES=threads OMP_NUM_THREADS=8
# Every kernel module loaded at start-up: a launch failure then names its own kernel, not one loaded lazily later
# (cudaErrorInvalidResourceHandle in cudaFuncGetAttributes was seen on 2026-11-27 with a partial-rebuild bundle).
export CUDA_MODULE_LOADING=EAGER
# The host runs' OpenBLAS (Debian 12's, carried in the bundle) does not know the GPU machine's Xeon and fell back to
# its SSE3 kernels there (2026-11-27): name the kernels for the ISA the CPU has.
if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; elif grep -q avx2 /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=Haswell; fi
bin=.gpu/bin
log=$out/gpu.log
exec > >(tee "$log") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
nvcc --version 2>/dev/null | tail -2
lscpu | grep -E 'Model name|^CPU\(s\)'
# run NAME BINARY ARGS...: one run, its summary lines and the record's path
run() {
  local name=$1; shift
  skip_run "$name" "$@" && return 0
  echo "=== $name: $*"
  timeout "$run_timeout" "$@" --json "$out/records/$name.json" >"$out/records/$name.txt" 2>&1
  local rc=$?
  grep -E 'ranks x threads|device:|iterations \(|time per iteration|forward|pack \+ unpack|3-D plan|Checksum|per step|FFT stage|per rank:|FOM:|error|Error|FAILED' \
    "$out/records/$name.txt" | head -14
  grep -E '^VERIFICATION' "$out/records/$name.txt"  # always shown, whatever the lines above
  echo "exit $rc"
}
# test NAME COMMAND...: one test binary's run, its exit status and last lines
test_run() {
  local name=$1; shift
  skip_run "$name" "$@" && return 0
  echo "=== $name"; timeout "$run_timeout" "$@" > "$out/records/$name.txt" 2>&1
  echo "exit $?"; tail -n 3 "$out/records/$name.txt"
}
# The unit tests compiled for the GPU (Catch2; each variant against the reference), the MPI ones at 1 and 2 ranks.
part_tests() {
  for t in $bin/test-*; do
    [ -f "$t" ] || continue
    name=$(basename "$t")
    test_run "$name" "$t"
    case $name in test-common-mpi|test-comm-strategies|test-pop-solvers|test-fft3d|test-pstswm-mpi)
      test_run "$name-np2" $bin/mpiexec.hydra -n 2 "$t" ;;
    esac
  done
}
pop=$bin/proxylab-pop
fft3d=$bin/proxylab-fft3d
# fft3d: every deck kind verified at 1 rank (slab and pencil, NAS FT class S and A checksums, an uneven grid), 2 ranks
# sharing the GPU (transposes staged through host memory), then 256^3 and 512^3 against cuFFT's own 3-D plan
# (fft3d.serial_baseline), two rounds, and 256^3 at 2 ranks: pack + unpack, where they remain, against a device copy
# of the same bytes.
part_fft3d() {
  run fft3d-small $fft3d --deck inputs/fft3d/small.yaml
  run fft3d-small-pencil $fft3d --deck inputs/fft3d/small.yaml --set fft3d.decomposition=pencil
  run fft3d-uneven $fft3d --deck inputs/fft3d/small.yaml --set fft3d.nx=96 --set fft3d.ny=80 --set fft3d.nz=72
  run fft3d-nas-S $fft3d --deck inputs/fft3d/nas_S.yaml
  run fft3d-nas-A $fft3d --deck inputs/fft3d/nas_A.yaml
  run fft3d-small-2ranks $bin/mpiexec.hydra -n 2 $fft3d --deck inputs/fft3d/small.yaml --set fft3d.decomposition=pencil
  for r in 1 2; do
    for n in 256 512; do
      for d in slab pencil; do
        run "fft3d-$n-$d-r$r" $fft3d --deck inputs/fft3d/small.yaml --set fft3d.nx=$n --set fft3d.ny=$n \
          --set fft3d.nz=$n --set fft3d.decomposition=$d --set fft3d.iterations=10 --set fft3d.warmup=2 \
          --set fft3d.serial_baseline=true --set verify.serial_max_points=0
      done
    done
  done
  for d in slab pencil; do
    run "fft3d-256-$d-2ranks" $bin/mpiexec.hydra -n 2 $fft3d --deck inputs/fft3d/small.yaml --set fft3d.nx=256 \
      --set fft3d.ny=256 --set fft3d.nz=256 --set fft3d.decomposition=$d --set fft3d.iterations=10 \
      --set fft3d.warmup=2 --set verify.serial_max_points=0
  done
}
part_pop() {
  run pop-small-flat $pop --deck inputs/pop/small.yaml
  for m in flat mdrange team; do
    run "pop-x1-$m" $pop --deck inputs/pop/x1.yaml --set solver.mapping=$m
  done
  # Three interleaved rounds of the tenth-degree benchmark (GPU mappings and, below, the host): take the medians.
  # perf.limits: the same run's triad over the kernels' bytes, the ceiling of the whole iteration's rate.
  for r in 1 2 3; do
    for m in flat mdrange team; do
      run "pop-tenth-$m-r$r" $pop --deck inputs/pop/tenth-bench.yaml --set solver.mapping=$m --set bench.stream=false \
        --set perf.limits=true
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
  run pop-tenth-converged-team $pop --deck inputs/pop/tenth.yaml --set solver.mapping=team --set perf.limits=true
}
# evh1: every problem verified at 1 rank (Sod, oblique Sod, Toro 1-5, Sedov in the three geometries, advection),
# both algorithms at 2 ranks sharing the GPU (against the one-rank reference, bit for bit), then 20 cycles of oblique
# Sod at 4096^2 in every mapping (tiled at two tile widths, with perf.limits) for the zone-cycle rate (the FOM line).
part_evh1() {
  local evh1=$bin/proxylab-evh1
  for d in test-sod sod-oblique toro-1 toro-2 toro-3 toro-4 toro-5 test-sedov test-sedov-cyl test-sedov-sph \
    test-advection; do
    run "evh1-$d" $evh1 --deck inputs/evh1/$d.yaml
  done
  for a in transpose halo; do
    run "evh1-sedov-2ranks-$a" $bin/mpiexec.hydra -n 2 $evh1 --deck inputs/evh1/test-sedov.yaml \
      --set evh1.algorithm=$a --set verify.against_reference=true
  done
  for m in pencil batched tiled; do
    run "evh1-oblique-4096-$m" $evh1 --deck inputs/evh1/sod-oblique.yaml --set grid.nx=4096 --set grid.ny=4096 \
      --set time.max_steps=20 --set evh1.mapping=$m
  done
  run evh1-oblique-4096-tiled-256-limits $evh1 --deck inputs/evh1/sod-oblique.yaml --set grid.nx=4096 \
    --set grid.ny=4096 --set time.max_steps=20 --set evh1.mapping=tiled --set evh1.tile=256 --set perf.limits=true
}
# pstswm: every variant verified at T42 (case 2 at round-off: gemm, loop, loop with the compiled level count; case 6:
# mass, energy, drift speed), every parallel algorithm at 2 ranks sharing the GPU, T340 case 2; then T340L18 and
# T680L18 (gemm) with the FFT stage beside one batched cuFFT plan alone and the LT beside cuBLAS DGEMM in the same run,
# two rounds, and T680L18 on the host build (16 threads) for the GPU / CPU ratio (targets: FFT >= 70%, LT >= 50%,
# GPU >= 10x the host's spectral model rate).
part_pstswm() {
  local pstswm=$bin/proxylab-pstswm t42=inputs/pstswm/T42L18-case2.yaml
  run pstswm-T42-gemm $pstswm --deck $t42
  run pstswm-T42-loop $pstswm --deck $t42 --set transform.lt=loop
  run pstswm-T42-loop-fixed $pstswm --deck $t42 --set transform.lt=loop --set transform.fixed_levels=true
  run pstswm-T42-case6 $pstswm --deck inputs/pstswm/T42L18-case6.yaml
  for a in transpose distributed:allreduce distributed:reduce_scatter distributed:ring; do
    run "pstswm-T42-2ranks-${a/:/-}" $bin/mpiexec.hydra -n 2 $pstswm --deck $t42 --set time.days=0.5 \
      --set parallel.algorithm=${a%%:*} --set parallel.combine=$( [[ $a == *:* ]] && echo ${a#*:} || echo allreduce)
  done
  run pstswm-T340 $pstswm --deck inputs/pstswm/T340L18-case2.yaml --set perf.limits=true
  for r in 1 2; do
    for n in 340 680; do
      run "pstswm-T${n}-r$r" $pstswm --deck inputs/pstswm/T${n}L18-case2.yaml --set perf.measure_fft=true \
        --set perf.measure_dgemm=true
    done
  done
  [ -x $bin/host/proxylab-pstswm ] && OMP_NUM_THREADS=16 run pstswm-T680-host $bin/host/proxylab-pstswm \
    --deck inputs/pstswm/T680L18-case2.yaml
}
# STREAM on the GPU's memory: 2^27 doubles (1 GiB) per array
part_stream() { run stream $bin/proxylab-stream --deck inputs/stream/default.yaml --set stream.n=134217728; }
for part in $parts; do
  declare -F "part_$part" >/dev/null || { echo "device-check.sh: unknown part '$part' (tests, pop, fft3d, evh1, pstswm, stream)"; exit 2; }
  "part_$part"
  tar -C "$out" -cf "$out/records.tar" records
done
rm -rf "$out/records"
