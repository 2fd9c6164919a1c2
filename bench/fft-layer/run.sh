#!/usr/bin/env bash
# The FFT layer's host library against kokkos-fft's host back end (bench/fft-layer/README.md).
# Installs kokkos-fft 1.0.0 (shared/deps tarball, sha256-checked by ci/setup-deps.sh's rules) against the host
# Kokkos in .deps/kokkos into build/fft-layer/kokkos-fft, builds bench.cpp, runs it at 1 and at all host threads.
# Usage: bash bench/fft-layer/run.sh [repeats]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/fft-layer
mkdir -p "$out"
tarball=""
for dir in "${PROXYLAB_SHARED:+$PROXYLAB_SHARED/deps}" ../shared/deps /work/shared/deps; do
  [ -n "$dir" ] && [ -f "$dir/kokkos-fft-1.0.0.tar.gz" ] || continue
  (cd "$dir" && grep " kokkos-fft-1.0.0.tar.gz$" SHA256SUMS | sha256sum -c --quiet -) && tarball=$dir/kokkos-fft-1.0.0.tar.gz && break
done
[ -n "$tarball" ] || { echo "run.sh: kokkos-fft-1.0.0.tar.gz with its SHA256SUMS not found" >&2; exit 2; }
if [ ! -f "$out/kokkos-fft/lib/cmake/KokkosFFT/KokkosFFTConfig.cmake" ]; then
  rm -rf "$out/src" && mkdir -p "$out/src" && tar -xzf "$tarball" -C "$out/src"
  cmake -S "$out/src/kokkos-fft-1.0.0" -B "$out/kokkos-fft-build" -DKokkos_ROOT="$PWD/.deps/kokkos" \
        -DCMAKE_INSTALL_PREFIX="$PWD/$out/kokkos-fft" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --install "$out/kokkos-fft-build" >/dev/null
fi
cmake -S bench/fft-layer -B "$out/bench" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$PWD/.deps/kokkos;$PWD/$out/kokkos-fft" >/dev/null
cmake --build "$out/bench" -j >/dev/null
for threads in 1 "$(nproc)"; do
  echo "### OMP_NUM_THREADS=$threads"
  OMP_NUM_THREADS=$threads OMP_PROC_BIND=spread OMP_PLACES=cores "$out/bench/fft-layer-bench" "${1:-7}"
  echo
done
