#!/usr/bin/env bash
# CI stage, on request (PROXYLAB_CI_STAGES=cuda): the CUDA build compiles. Kokkos 4.6.01 with CUDA into
# .deps/kokkos-cuda (ci/setup-deps.sh, PROXYLAB_KOKKOS_CUDA_ARCH, default HOPPER90), then the `cuda` preset: pop,
# stream, comm and their unit tests built with nvcc_wrapper, no warning allowed. Compile only: running needs a GPU
# (docs/perf/gpu/device-check.sh). Without nvcc on the PATH it says so and passes (exit 0): a CI machine without
# the CUDA toolkit cannot check this. Not a default stage: nvcc compiles slowly (about 20 min on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
if ! command -v nvcc >/dev/null 2>&1; then
  echo "stage-cuda: no nvcc on the PATH (the CUDA toolkit): nothing checked"
  exit 0
fi
PROXYLAB_KOKKOS_CUDA_ARCH=${PROXYLAB_KOKKOS_CUDA_ARCH:-HOPPER90} bash ci/setup-deps.sh --no-venv
cmake --preset cuda >/dev/null
mkdir -p build/ci
log=build/ci/cuda-build.log
cmake --build build/cuda -j"${PROXYLAB_JOBS:-$(nproc)}" >"$log" 2>&1 || { grep -m 20 -E "error" "$log"; tail -20 "$log"; exit 1; }
warnings=$(grep -c "warning" "$log" || true)
if [ "$warnings" != 0 ]; then
  echo "stage-cuda: $warnings warnings in the CUDA build; first ones:"
  grep -m 10 "warning" "$log"
  exit 1
fi
built=$(ls build/cuda/bin | tr '\n' ' ')
echo "stage-cuda: built with CUDA $(nvcc --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p'), no warning: $built"
echo "stage-cuda: $((SECONDS - start)) s"
