#!/usr/bin/env bash
# Packs a CUDA build's binaries, with the shared libraries a bare CUDA machine lacks (MPICH and its UCX,
# OpenBLAS, yaml-cpp, hwloc, ...), into .gpu/bundle.tar.xz for bench/gpu/device-check.sh. For a GPU machine
# that has no MPI and cannot install one (this project's lent GPU machines); on a cluster build there instead.
# Usage: bash bench/gpu/bundle.sh CUDA_BUILD_DIR [HOST_BUILD_DIR]
#   CUDA_BUILD_DIR  a `cuda` preset build (every bin/proxylab-* it has, and its test-* binaries)
#   HOST_BUILD_DIR  optional: an OpenMP build of pop and pstswm for the GPU machine's CPU (PROXYLAB_ARCH=x86-64-v3)
# libc, libstdc++ and the CUDA libraries (cudart, cuFFT, cuBLAS) are the GPU machine's own (its glibc and
# libstdc++ are newer than Debian 12's; its CUDA toolkit is the one the binaries were built with).
set -euo pipefail
cuda_build=${1:?usage: bundle.sh CUDA_BUILD_DIR [HOST_BUILD_DIR]}
host_build=${2:-}
# One clean build: every binary must carry the git hash its build's build_info.cpp has now. A partial rebuild (some
# binaries relinked at a later commit) gave a bundle whose pstswm and evh1 came from different commits.
want=$(sed -n 's/.*git_hash = "\([0-9a-f]*\)".*/\1/p' "$cuda_build/common/build_info.cpp" 2>/dev/null || true)
[ -n "$want" ] || { echo "bundle.sh: no git hash in $cuda_build/common/build_info.cpp (not a proxylab build?)" >&2; exit 1; }
stale=()
for b in "$cuda_build"/bin/proxylab-* "$cuda_build"/bin/test-*; do
  [ -f "$b" ] || continue
  case $b in *workshop*) continue ;; esac
  grep -qa "$want" "$b" || stale+=("$(basename "$b")")
done
if [ ${#stale[@]} != 0 ]; then
  echo "bundle.sh: built at another commit than $cuda_build's $want (a partial rebuild): ${stale[*]};" \
       "rebuild the whole tree (cmake --build $cuda_build) and bundle again" >&2
  exit 1
fi
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin/host" "$stage/lib"
for b in "$cuda_build"/bin/proxylab-*; do case $b in *workshop*) ;; *) cp "$b" "$stage/bin/" ;; esac; done
# the unit tests built for the GPU, where the build has them (PROXYLAB_ENABLE_TESTS)
for t in "$cuda_build"/bin/test-*; do [ -f "$t" ] && cp "$t" "$stage/bin/"; done
[ -n "$host_build" ] && cp "$host_build/bin/proxylab-pop" "$host_build/bin/proxylab-pstswm" "$stage/bin/host/"
cp "$(readlink -f "$(command -v mpiexec.hydra)")" "$(readlink -f "$(command -v hydra_pmi_proxy)")" "$stage/bin/"
libs=$(for b in "$stage"/bin/* "$stage"/bin/host/*; do if [ -f "$b" ]; then ldd "$b"; fi; done | awk '/=> \//{print $3}' | sort -u)
for lib in $libs; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libcuda.so*|libcudart*|libcufft*|libcublas*|\
    libstdc++*|libgcc_s*) ;;
    *) cp -L "$lib" "$stage/lib/" ;;
  esac
done
mkdir -p .gpu
tar -C "$stage" -cJf .gpu/bundle.tar.xz .
echo "bundle.sh: .gpu/bundle.tar.xz ($(du -h .gpu/bundle.tar.xz | cut -f1)); add /.gpu/ to .git/info/exclude and carry it"
