#!/usr/bin/env bash
# CI stage (default): the CUDA build compiles without a warning. Kokkos 4.6.01 with CUDA (ci/setup-deps.sh,
# PROXYLAB_KOKKOS_CUDA_ARCH, default HOPPER90) and kokkos-fft 1.0.0, then the `cuda` preset's proxies with a device
# path (every app miniapps/apps.txt does not mark host-only) and the unit tests written over the enabled spaces
# (testing.hpp: test-fft's strided plans, test-common's mappings and MPI buffers, compiled for host and device),
# built with nvcc_wrapper. Compile only: running needs a GPU (bench/gpu/device-check.sh). PROXYLAB_CUDA_STAGE_ALL=1 builds
# every target of the preset instead (all unit tests and the workshop binaries: about 10 min more on 2 cores).
#
# Kokkos with CUDA takes 10-17 min to build on 2 cores, so it is built once per machine into a cache outside the
# clone, $PROXYLAB_CACHE_DIR (default ${XDG_CACHE_HOME:-~/.cache}/proxylab), in a folder named by everything the
# build depends on (the Kokkos tarball's and the CUDA 13 patch's sha256, nvcc's and the host compiler's versions,
# the architecture), used only once a build there has completed (a stamp written last; an interrupted one is
# rebuilt), under a lock so that two CI runs on one machine do not build it twice. .deps/kokkos-cuda links to it
# (a real .deps/kokkos-cuda, a developer's own build, is used as it is).
#
# Without nvcc on the PATH it says so and passes (exit 0): a CI machine without the CUDA toolkit cannot check this.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
if ! command -v nvcc >/dev/null 2>&1; then
  echo "stage-cuda: no nvcc on the PATH (the CUDA toolkit): nothing checked"
  exit 0
fi
arch=${PROXYLAB_KOKKOS_CUDA_ARCH:-HOPPER90}
if [ ! -e .deps/kokkos-cuda ] || [ -L .deps/kokkos-cuda ]; then
  tarball=$(bash ci/setup-deps.sh --which-kokkos)
  [ "$tarball" != none ] || { echo "stage-cuda: no offline Kokkos 4.6.01 tarball (shared/deps) to build from"; exit 1; }
  key=$( { sha256sum "$tarball" ci/patches/kokkos-4.6.01-cuda13.patch | cut -d' ' -f1; nvcc --version | tail -2;
           c++ --version | head -1; echo "$arch"; } | sha256sum | cut -c1-16)
  cache=${PROXYLAB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/proxylab}
  prefix=$cache/kokkos-4.6.01-cuda-$arch-$key
  mkdir -p "$cache" .deps
  (
    flock 9
    if [ ! -f "$prefix/.complete" ]; then
      echo "stage-cuda: building Kokkos with CUDA into the cache $prefix"
      rm -rf "$prefix"
      PROXYLAB_KOKKOS_CUDA_ARCH=$arch PROXYLAB_KOKKOS_PREFIX=$prefix bash ci/setup-deps.sh --no-venv
      touch "$prefix/.complete"
    else
      echo "stage-cuda: Kokkos with CUDA from the cache $prefix"
    fi
  ) 9>"$cache/.lock"
  ln -sfn "$prefix" .deps/kokkos-cuda
fi
# (the cached Kokkos is found through the link; this installs kokkos-fft beside it when missing)
PROXYLAB_KOKKOS_CUDA_ARCH=$arch bash ci/setup-deps.sh --no-venv
cmake --preset cuda >/dev/null
mkdir -p build/ci
log=build/ci/cuda-build.log
if [ "${PROXYLAB_CUDA_STAGE_ALL:-0}" = 1 ]; then
  targets=(all)
else
  targets=($(awk '/^[a-z]/ && !/host-only/ {print "proxylab-" $1}' miniapps/apps.txt) test-fft test-common)
fi
cmake --build build/cuda -j"${PROXYLAB_JOBS:-$(nproc)}" --target "${targets[@]}" >"$log" 2>&1 ||
  { grep -m 20 -E "error" "$log"; tail -20 "$log"; exit 1; }
warnings=$(grep -c "warning" "$log" || true)
if [ "$warnings" != 0 ]; then
  echo "stage-cuda: $warnings warnings in the CUDA build; first ones:"
  grep -m 10 "warning" "$log"
  exit 1
fi
built=$(cd build/cuda/bin && ls | tr '\n' ' ')
echo "stage-cuda: built with CUDA $(nvcc --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p') ($arch), no warning: $built"

# Per-kernel registers, stack, spills and shared memory of the proxies' kernels (ci/cuda_resources.py), read from
# the built binaries; a spill in a kernel ci/cuda-no-spill.txt names fails the stage. The toolkit here lacks
# cuobjdump, so the pinned PyPI wheel is installed once into the cache.
cuobjdump_version=13.4.92
tools=${PROXYLAB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/proxylab}/cuobjdump-$cuobjdump_version
cuobjdump=$(command -v cuobjdump || echo "$tools/nvidia/cu13/bin/cuobjdump")
if [ ! -x "$cuobjdump" ]; then
  pip=(python3 -m pip); [ -x .deps/venv/bin/python ] && pip=(.deps/venv/bin/python -m pip)
  "${pip[@]}" install -q --disable-pip-version-check --root-user-action=ignore --target "$tools" "nvidia-cuda-cuobjdump==$cuobjdump_version" ||
    { echo "stage-cuda: could not install nvidia-cuda-cuobjdump==$cuobjdump_version (pip) for the resource report"; exit 1; }
fi
bins=(); for t in "${targets[@]}"; do [[ $t == proxylab-* ]] && bins+=("build/cuda/bin/$t"); done
[ "${targets[0]}" = all ] && bins=(build/cuda/bin/proxylab-*)
python3 ci/cuda_resources.py --cuobjdump "$cuobjdump" --no-spill ci/cuda-no-spill.txt \
  --out build/ci/cuda-resources.txt "${bins[@]}" || { echo "stage-cuda: the resource report failed (above; table: build/ci/cuda-resources.txt)"; exit 1; }
echo "stage-cuda: per-kernel resources in build/ci/cuda-resources.txt"
echo "stage-cuda: $((SECONDS - start)) s"
