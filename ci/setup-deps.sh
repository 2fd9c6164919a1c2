#!/usr/bin/env bash
# Idempotent dependency set-up for proxylab.
#   - Debian packages (only when root and apt-get exist, and only what is missing)
#   - Kokkos: an installed Kokkos (Kokkos_ROOT) is used as is; otherwise Kokkos 4.6.01 (or the source in
#     PROXYLAB_KOKKOS_SOURCE) is built into .deps/kokkos (Serial + OpenMP, C++17, Release), sha256-verified;
#     Kokkos 3.4.01 from the PyPI sdist of pykokkos-base==0.0.7 is the offline last resort.
#     PROXYLAB_KOKKOS_VERSION=3.4.01 builds the floor on purpose; PROXYLAB_KOKKOS_STRICT=1 fails instead of falling
#     back to it (CI: the main stage must test 4.6.01); PROXYLAB_KOKKOS_PREFIX installs elsewhere.
#     PROXYLAB_KOKKOS_CUDA_ARCH=<Kokkos architecture, e.g. HOPPER90, AMPERE80> adds the CUDA back end (nvcc on the
#     PATH) and installs into .deps/kokkos-cuda (the `cuda` preset's); with CUDA >= 13 and Kokkos 4.6.01 it applies
#     ci/patches/kokkos-4.6.01-cuda13.patch (CUDA 13 support came with Kokkos 4.7); it then installs kokkos-fft
#     1.0.0 (the device FFT library) from shared/deps/kokkos-fft-1.0.0.tar.gz into .deps/kokkos-fft-cuda.
#   - Python venv .deps/venv with the pinned tools of ci/requirements.txt (plots, verification).
# Usage: ci/setup-deps.sh [--no-system] [--no-venv] [--which-kokkos]
#   --which-kokkos: print the checksum-verified offline Kokkos tarball the set-up would use (or "none") and stop.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEPS="$ROOT/.deps"
KOKKOS_PREFIX="$DEPS/kokkos"
SDIST_NAME="pykokkos-base-0.0.7.tar.gz"
SDIST_SHA256="6339daced1e81a2748f381847d8717cd77d824407da3c263b9491b5630c642b0"
DEB_PACKAGES=(g++ cmake make pkg-config ca-certificates python3 python3-venv python3-yaml mpich libmpich-dev libfftw3-dev libopenblas-dev libblis-dev liblapack-dev
              catch2 libyaml-cpp-dev nlohmann-json3-dev libcli11-dev)
system=1; venv=1; which_kokkos=0
for arg in "$@"; do
  case "$arg" in
    --no-system) system=0 ;;
    --no-venv) venv=0 ;;
    --which-kokkos) which_kokkos=1 ;;
    *) echo "setup-deps.sh: unknown option '$arg' (allowed: --no-system, --no-venv, --which-kokkos)" >&2; exit 2 ;;
  esac
done
log() { printf '[setup] %s\n' "$*"; }

# ---- Kokkos sources (helpers; --which-kokkos stops here; the build is step 2) ------------------
# Which Kokkos is built when none is installed (first that applies):
#   PROXYLAB_KOKKOS_SOURCE   a release tarball (.tar.gz) or an unpacked source tree the user gives
#   shared/deps/kokkos-4.6.01.tar.gz   the offline copy (checked against SHA256SUMS there), in the first of:
#       $PROXYLAB_SHARED/deps; ../shared/deps beside this checkout; beside the main checkout when this is a git
#       worktree; beside the repository this clone came from when that is a local path; /work/shared/deps (the
#       development machines' shared folder)
#   the official 4.6.01 release from GitHub, checked against its published sha256 (Spack's kokkos recipe)
#   Kokkos 3.4.01 from the PyPI sdist of pykokkos-base==0.0.7 (the floor, and the offline last resort)
# PROXYLAB_KOKKOS_VERSION=3.4.01 skips the first three (CI builds the floor into PROXYLAB_KOKKOS_PREFIX=.deps/kokkos-3.4).
# PROXYLAB_KOKKOS_PREFIX installs elsewhere than .deps/kokkos (relative paths are from the current directory).
KOKKOS_VERSION_DEFAULT="4.6.01"
KOKKOS_VERSION_FLOOR="3.4.01"
KOKKOS_VERSION="${PROXYLAB_KOKKOS_VERSION:-$KOKKOS_VERSION_DEFAULT}"
if [ "$KOKKOS_VERSION" != "$KOKKOS_VERSION_DEFAULT" ] && [ "$KOKKOS_VERSION" != "$KOKKOS_VERSION_FLOOR" ]; then
  echo "setup-deps.sh: PROXYLAB_KOKKOS_VERSION=$KOKKOS_VERSION; allowed: $KOKKOS_VERSION_DEFAULT (default) or" \
       "$KOKKOS_VERSION_FLOOR (the floor); for another version give its source in PROXYLAB_KOKKOS_SOURCE" >&2
  exit 2
fi
# The release asset (Spack's kokkos recipe lists this sha256 for it; GitHub's archive/ tarball is another file).
KOKKOS_RELEASE_URL="https://github.com/kokkos/kokkos/releases/download/4.6.01/kokkos-4.6.01.tar.gz"
KOKKOS_RELEASE_SHA256="b9d70e4653b87a06dbb48d63291bf248058c7c7db4bd91979676ad5609bb1a3a"
CUDA_ARCH="${PROXYLAB_KOKKOS_CUDA_ARCH:-}"
if [ -n "$CUDA_ARCH" ]; then
  if ! [[ "$CUDA_ARCH" =~ ^[A-Z]+[0-9]+$ ]] || [ "$KOKKOS_VERSION" != "$KOKKOS_VERSION_DEFAULT" ]; then
    echo "setup-deps.sh: PROXYLAB_KOKKOS_CUDA_ARCH=$CUDA_ARCH with Kokkos $KOKKOS_VERSION; allowed: a Kokkos NVIDIA" \
         "architecture name (VOLTA70, AMPERE80, ADA89, HOPPER90, ...) with Kokkos $KOKKOS_VERSION_DEFAULT" >&2
    exit 2
  fi
  KOKKOS_PREFIX="$DEPS/kokkos-cuda"
fi
KOKKOS_PREFIX="${PROXYLAB_KOKKOS_PREFIX:-$KOKKOS_PREFIX}"
case "$KOKKOS_PREFIX" in /*) ;; *) KOKKOS_PREFIX="$PWD/$KOKKOS_PREFIX" ;; esac
kokkos_found() {
  for d in lib lib64; do [ -f "$KOKKOS_PREFIX/$d/cmake/Kokkos/KokkosConfig.cmake" ] && return 0; done
  if [ -n "${Kokkos_ROOT:-}" ]; then
    for d in lib lib64; do [ -f "$Kokkos_ROOT/$d/cmake/Kokkos/KokkosConfig.cmake" ] && return 0; done
  fi
  return 1
}
# Unpacks tarball $1 into $2 and prints the source directory (the one holding CMakeLists.txt).
unpack_kokkos() {
  rm -rf "$2"; mkdir -p "$2"
  tar -xzf "$1" -C "$2"
  local top
  for top in "$2" "$2"/*; do [ -f "$top/CMakeLists.txt" ] && { echo "$top"; return 0; }; done
  echo "setup-deps.sh: $1 holds no CMakeLists.txt at its top" >&2; return 2
}
sha_ok() { echo "$2  $1" | sha256sum -c --quiet - >/dev/null 2>&1; }
# The folders that may hold the offline shared/deps (see above), one per line, in order.
shared_deps_dirs() {
  [ -n "${PROXYLAB_SHARED:-}" ] && echo "$PROXYLAB_SHARED/deps"
  echo "$ROOT/../shared/deps"
  local common origin
  common=$(git -C "$ROOT" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) && echo "$(dirname "$common")/../shared/deps"
  origin=$(git -C "$ROOT" remote get-url origin 2>/dev/null) || origin=""
  case "$origin" in
    /*|file://*) origin=${origin#file://}; origin=${origin%/}; echo "${origin%/.git}/../shared/deps" ;;
  esac
  echo /work/shared/deps
}
# Prints the first offline tarball $1 (e.g. kokkos-4.6.01.tar.gz) that matches the SHA256SUMS beside it; fails when
# there is none.
shared_tarball() {
  local name="$1" dir want
  while read -r dir; do
    [ -f "$dir/$name" ] || continue
    want=$(awk -v f="$name" '$2 == f {print $1}' "$dir/SHA256SUMS" 2>/dev/null)
    if [ -n "$want" ] && sha_ok "$dir/$name" "$want"; then
      echo "$(cd "$dir" && pwd)/$name"; return 0
    fi
    log "$dir/$name does not match its SHA256SUMS: not used" >&2
  done < <(shared_deps_dirs)
  return 1
}
shared_kokkos_tarball() { shared_tarball "kokkos-$KOKKOS_VERSION_DEFAULT.tar.gz"; }
# The version of the Kokkos installed in prefix $1 (from its CMake package version file), or "unknown".
installed_kokkos_version() {
  local f
  for f in "$1"/lib/cmake/Kokkos/KokkosConfigVersion.cmake "$1"/lib64/cmake/Kokkos/KokkosConfigVersion.cmake; do
    [ -f "$f" ] && { sed -n 's/^set(PACKAGE_VERSION "\(.*\)")/\1/p' "$f"; return 0; }
  done
  echo unknown
}
if [ "$which_kokkos" = 1 ]; then
  shared_kokkos_tarball || echo none
  exit 0
fi
mkdir -p "$DEPS"

# ---- 1. Debian packages -------------------------------------------------------------------------
if [ "$system" = 1 ] && command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${DEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      log "installing Debian packages: ${missing[*]}"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
      log "missing packages (${missing[*]}) and not root: relying on what the system provides"
    fi
  else
    log "Debian packages: present"
  fi
fi

# ---- 2. Kokkos: build ----------------------------------------------------------------------------
kokkos_source() {  # prints the source tree to build, or fails
  local work="$DEPS/src"; mkdir -p "$work"
  if [ -n "${PROXYLAB_KOKKOS_SOURCE:-}" ]; then
    if [ -d "$PROXYLAB_KOKKOS_SOURCE" ] && [ -f "$PROXYLAB_KOKKOS_SOURCE/CMakeLists.txt" ]; then
      echo "$PROXYLAB_KOKKOS_SOURCE"; return 0
    elif [ -f "$PROXYLAB_KOKKOS_SOURCE" ]; then
      unpack_kokkos "$PROXYLAB_KOKKOS_SOURCE" "$work/kokkos-src"; return 0
    fi
    echo "setup-deps.sh: PROXYLAB_KOKKOS_SOURCE=$PROXYLAB_KOKKOS_SOURCE is neither a Kokkos source tree nor a tarball" >&2
    return 2
  fi
  local shared
  if [ "$KOKKOS_VERSION" = "$KOKKOS_VERSION_DEFAULT" ] && shared=$(shared_kokkos_tarball); then
    log "Kokkos: source $shared (sha256 checked)" >&2
    unpack_kokkos "$shared" "$work/kokkos-src"; return 0
  fi
  local tarball="$work/kokkos-$KOKKOS_VERSION_DEFAULT.tar.gz"
  if [ "$KOKKOS_VERSION" = "$KOKKOS_VERSION_DEFAULT" ] && [ ! -f "$tarball" ] && command -v curl >/dev/null 2>&1; then
    curl -fsSL --connect-timeout 10 --max-time 300 -o "$tarball.part" "$KOKKOS_RELEASE_URL" 2>/dev/null && mv "$tarball.part" "$tarball" || rm -f "$tarball.part"
  fi
  if [ "$KOKKOS_VERSION" = "$KOKKOS_VERSION_DEFAULT" ] && [ -f "$tarball" ]; then
    if sha_ok "$tarball" "$KOKKOS_RELEASE_SHA256"; then
      log "Kokkos: source $KOKKOS_RELEASE_URL (sha256 checked)" >&2
      unpack_kokkos "$tarball" "$work/kokkos-src"; return 0
    fi
    log "Kokkos: $tarball does not match the published sha256: removed" >&2; rm -f "$tarball"
  fi
  # The floor: Kokkos 3.4.01 inside the pykokkos-base sdist from PyPI.
  if [ "$KOKKOS_VERSION" = "$KOKKOS_VERSION_DEFAULT" ] && [ "${PROXYLAB_KOKKOS_STRICT:-0}" = 1 ]; then
    echo "setup-deps.sh: no Kokkos $KOKKOS_VERSION_DEFAULT source found (PROXYLAB_KOKKOS_SOURCE, shared/deps in:" \
         "$(shared_deps_dirs | tr '\n' ' ')or $KOKKOS_RELEASE_URL) and PROXYLAB_KOKKOS_STRICT=1 forbids the floor" >&2
    return 3
  fi
  if [ ! -f "$work/$SDIST_NAME" ]; then
    python3 -m venv "$DEPS/pipvenv"
    "$DEPS/pipvenv/bin/pip" install -q scikit-build >&2
    "$DEPS/pipvenv/bin/pip" download -q --no-deps --no-binary :all: --no-build-isolation \
        pykokkos-base==0.0.7 -d "$work" >&2
  fi
  sha_ok "$work/$SDIST_NAME" "$SDIST_SHA256" || {
    echo "setup-deps.sh: sha256 mismatch for $work/$SDIST_NAME (expected $SDIST_SHA256)" >&2; rm -f "$work/$SDIST_NAME"; return 3; }
  if [ "$KOKKOS_VERSION" = "$KOKKOS_VERSION_FLOOR" ]; then
    log "Kokkos: the floor $KOKKOS_VERSION_FLOOR from $SDIST_NAME (PROXYLAB_KOKKOS_VERSION)" >&2
  else
    log "Kokkos: no $KOKKOS_VERSION_DEFAULT source reachable; using $KOKKOS_VERSION_FLOOR from $SDIST_NAME (the floor)" >&2
  fi
  rm -rf "$work/pykokkos-base-0.0.7"
  tar -xzf "$work/$SDIST_NAME" -C "$work"
  echo "$work/pykokkos-base-0.0.7/external/kokkos"
}
numeric_version() { awk -F. '{ printf "%d.%d.%d", $1, $2, $3 }' <<<"$1"; }
# Logs the version installed in prefix $1; with PROXYLAB_KOKKOS_STRICT=1 anything but the wanted version is an error.
check_kokkos_version() {
  local found; found=$(installed_kokkos_version "$1")
  log "Kokkos: $found in $1"
  # Compared as numbers: 4.6.01 installs as "4.6.1", 3.4.01 as "3.4.01".
  if [ "${PROXYLAB_KOKKOS_STRICT:-0}" = 1 ] && [ "$(numeric_version "$found")" != "$(numeric_version "$KOKKOS_VERSION")" ]; then
    echo "setup-deps.sh: PROXYLAB_KOKKOS_STRICT=1 wants Kokkos $KOKKOS_VERSION, $1 holds $found" \
         "(remove it, or set PROXYLAB_KOKKOS_PREFIX)" >&2
    exit 3
  fi
}
if kokkos_found; then
  found_prefix=$KOKKOS_PREFIX
  [ -d "$found_prefix/lib/cmake/Kokkos" ] || [ -d "$found_prefix/lib64/cmake/Kokkos" ] || found_prefix=$Kokkos_ROOT
  check_kokkos_version "$found_prefix"
else
  src=$(kokkos_source)
  build="$DEPS/src/kokkos-build-$$"
  # No architecture flags in Kokkos itself: proxylab adds -march=native (or not: the portable preset) to its own
  # targets, so one Kokkos install serves both presets.
  backend=(); backends="Serial + OpenMP"
  if [ -n "$CUDA_ARCH" ]; then
    backends="Serial + OpenMP + CUDA ($CUDA_ARCH)"
    cuda_major=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
    [ -n "$cuda_major" ] || { echo "setup-deps.sh: PROXYLAB_KOKKOS_CUDA_ARCH=$CUDA_ARCH but no nvcc on the PATH" >&2; exit 3; }
    # Only the copy unpacked here is patched, never a source tree the user gave (PROXYLAB_KOKKOS_SOURCE).
    if [ "$cuda_major" -ge 13 ] && [[ "$src" == "$DEPS/src/kokkos-src/"* ]] && \
       [ "$(numeric_version "$(sed -n 's/^set(Kokkos_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))/\2/p' "$src/CMakeLists.txt" | paste -sd.)")" = "4.6.1" ]; then
      log "Kokkos: CUDA $cuda_major: applying ci/patches/kokkos-4.6.01-cuda13.patch"
      patch -s -p1 -d "$src" < "$ROOT/ci/patches/kokkos-4.6.01-cuda13.patch"
    fi
    # nvcc_wrapper's default GPU architecture (sm_70, which CUDA 13 dropped) is edited in the file, as Kokkos says
    # to; CMake's compiler check runs before Kokkos adds its own -arch flag.
    sm="sm_${CUDA_ARCH//[!0-9]/}"
    sed "s/^default_arch=.*/default_arch=\"$sm\"/" "$src/bin/nvcc_wrapper" > "$DEPS/src/nvcc_wrapper-$$"
    chmod +x "$DEPS/src/nvcc_wrapper-$$"
    backend=(-DKokkos_ENABLE_CUDA=ON "-DKokkos_ARCH_$CUDA_ARCH=ON" "-DCMAKE_CXX_COMPILER=$DEPS/src/nvcc_wrapper-$$")
  fi
  log "Kokkos: building $src into $KOKKOS_PREFIX ($backends, C++17, Release)"
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
        -DCMAKE_INSTALL_PREFIX="$KOKKOS_PREFIX" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON "${backend[@]}" \
        -DKokkos_ENABLE_TESTS=OFF -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON >/dev/null
  cmake --build "$build" -j "$(nproc)" >/dev/null
  cmake --install "$build" >/dev/null
  if [ -n "$CUDA_ARCH" ]; then
    cp "$DEPS/src/nvcc_wrapper-$$" "$KOKKOS_PREFIX/bin/nvcc_wrapper"; rm -f "$DEPS/src/nvcc_wrapper-$$"
  fi
  rm -rf "$build" "$DEPS/src/kokkos-src" "$DEPS/src/pykokkos-base-0.0.7"
  check_kokkos_version "$KOKKOS_PREFIX"
fi

# ---- 2b. kokkos-fft (device builds): the FFT layer's device library (cuFFT, hipFFT or oneMKL beneath it) ---------
# Header-only; configured against the Kokkos just found or built, with its compiler (nvcc_wrapper), installed into
# .deps/kokkos-fft-cuda. Host builds call FFTW directly and need no kokkos-fft (docs/architecture.md).
KOKKOS_FFT_VERSION="1.0.0"
if [ -n "$CUDA_ARCH" ]; then
  kokkos_prefix=$KOKKOS_PREFIX
  [ -d "$kokkos_prefix/lib/cmake/Kokkos" ] || [ -d "$kokkos_prefix/lib64/cmake/Kokkos" ] || kokkos_prefix=$Kokkos_ROOT
  KOKKOS_FFT_PREFIX="$DEPS/kokkos-fft-cuda"
  if [ -f "$KOKKOS_FFT_PREFIX/.proxylab-kokkos-fft" ] && \
     [ "$(cat "$KOKKOS_FFT_PREFIX/.proxylab-kokkos-fft")" = "$KOKKOS_FFT_VERSION $kokkos_prefix" ]; then
    log "kokkos-fft: $KOKKOS_FFT_VERSION in $KOKKOS_FFT_PREFIX"
  else
    tarball=$(shared_tarball "kokkos-fft-$KOKKOS_FFT_VERSION.tar.gz") || {
      echo "setup-deps.sh: a CUDA build needs kokkos-fft $KOKKOS_FFT_VERSION: kokkos-fft-$KOKKOS_FFT_VERSION.tar.gz with" \
           "its SHA256SUMS in one of: $(shared_deps_dirs | paste -sd' ')" >&2
      exit 3
    }
    src=$(unpack_kokkos "$tarball" "$DEPS/src/kokkos-fft-src")
    build="$DEPS/src/kokkos-fft-build-$$"
    log "kokkos-fft: installing $KOKKOS_FFT_VERSION ($tarball, sha256 checked) into $KOKKOS_FFT_PREFIX"
    rm -rf "$KOKKOS_FFT_PREFIX"
    cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DKokkos_ROOT="$kokkos_prefix" \
          -DCMAKE_CXX_COMPILER="$kokkos_prefix/bin/nvcc_wrapper" -DCMAKE_INSTALL_PREFIX="$KOKKOS_FFT_PREFIX" >/dev/null
    cmake --install "$build" >/dev/null
    echo "$KOKKOS_FFT_VERSION $kokkos_prefix" > "$KOKKOS_FFT_PREFIX/.proxylab-kokkos-fft"
    rm -rf "$build" "$DEPS/src/kokkos-fft-src"
  fi
fi

# ---- 3. Python venv for plots and verification tools ---------------------------------------------
if [ "$venv" = 1 ]; then
  stamp="$DEPS/venv/.requirements.sha256"
  want=$(sha256sum "$ROOT/ci/requirements.txt" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    log "Python venv: present"
  else
    log "Python venv: installing ci/requirements.txt into .deps/venv"
    python3 -m venv "$DEPS/venv"
    "$DEPS/venv/bin/pip" install -q --disable-pip-version-check -r "$ROOT/ci/requirements.txt"
    echo "$want" > "$stamp"
  fi
fi
log "done"
