#!/usr/bin/env bash
# Builds the proxies against SimGrid's SMPI into build/smpi (or PROXYLAB_SMPI_BUILD_DIR) for ./proxylab simulate
# and the ctest label `simulate` (docs/model.md, "Simulated runs"). Needs libsimgrid-dev (smpirun, SimGrid's mpi.h)
# and the Kokkos of ./proxylab setup (.deps/kokkos) or Kokkos_ROOT. The compiler is cmake/smpi/smpi-cxx (smpicxx
# without its forced smpi_helpers.h). Kokkos' OpenMP back end runs at OMP_NUM_THREADS=1 under SMPI (each simulated
# rank is a thread of one process; ./proxylab simulate sets it).
#   ci/build-smpi.sh                       every proxy
#   ci/build-smpi.sh proxylab-pop          only these targets
# PROXYLAB_SMPI_OPT (the Release optimisation, default -O3; CI's correctness test builds -O1, faster to compile),
# PROXYLAB_SMPI_JOBS (default nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v smpirun >/dev/null || { echo "build-smpi: smpirun not found (apt-get install libsimgrid-dev)" >&2; exit 2; }
dir=${PROXYLAB_SMPI_BUILD_DIR:-build/smpi}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(proxylab-pop proxylab-pstswm proxylab-evh1 proxylab-fft3d)
prefix=${Kokkos_ROOT:-$PWD/.deps/kokkos}
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="${PROXYLAB_SMPI_OPT:--O3} -DNDEBUG" \
    -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CXX_COMPILER="$PWD/cmake/smpi/smpi-cxx" -DMPI_CXX_COMPILER="$PWD/cmake/smpi/smpi-cxx" \
    -DMPIEXEC_EXECUTABLE="$(command -v smpirun)" -DPROXYLAB_ENABLE_TESTS=OFF | grep "^-- proxylab"
fi
cmake --build "$dir" -j "${PROXYLAB_SMPI_JOBS:-$(nproc)}" --target "${targets[@]}"
