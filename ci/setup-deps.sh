#!/usr/bin/env bash
# Idempotent dependency set-up for proxylab.
#   - Debian packages (only when root and apt-get exist, and only what is missing)
#   - Kokkos: an installed Kokkos (Kokkos_ROOT) is used as is; otherwise Kokkos 4.6.01 (or the source in
#     PROXYLAB_KOKKOS_SOURCE) is built into .deps/kokkos (Serial + OpenMP, C++17, Release), sha256-verified;
#     Kokkos 3.4.01 from the PyPI sdist of pykokkos-base==0.0.7 is the offline last resort.
#   - Python venv .deps/venv with the pinned tools of ci/requirements.txt (plots, verification).
# Usage: ci/setup-deps.sh [--no-system] [--no-venv]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEPS="$ROOT/.deps"
KOKKOS_PREFIX="$DEPS/kokkos"
SDIST_NAME="pykokkos-base-0.0.7.tar.gz"
SDIST_SHA256="6339daced1e81a2748f381847d8717cd77d824407da3c263b9491b5630c642b0"
DEB_PACKAGES=(g++ cmake make pkg-config ca-certificates python3 python3-venv mpich libmpich-dev libfftw3-dev libopenblas-dev liblapack-dev
              catch2 libyaml-cpp-dev nlohmann-json3-dev libcli11-dev)
system=1; venv=1
for arg in "$@"; do
  case "$arg" in
    --no-system) system=0 ;;
    --no-venv) venv=0 ;;
    *) echo "setup-deps.sh: unknown option '$arg' (allowed: --no-system, --no-venv)" >&2; exit 2 ;;
  esac
done
log() { printf '[setup] %s\n' "$*"; }
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

# ---- 2. Kokkos ----------------------------------------------------------------------------------
# Which Kokkos is built when none is installed (first that applies):
#   PROXYLAB_KOKKOS_SOURCE   a release tarball (.tar.gz) or an unpacked source tree the user gives
#   ../shared/deps/kokkos-4.6.01.tar.gz   the offline copy beside this checkout (checked against SHA256SUMS there)
#   the official 4.6.01 release from GitHub, checked against its published sha256 (Spack's kokkos recipe)
#   Kokkos 3.4.01 from the PyPI sdist of pykokkos-base==0.0.7 (the floor, and the offline last resort)
# PROXYLAB_KOKKOS_PREFIX installs elsewhere than .deps/kokkos (CI builds the floor beside the default).
KOKKOS_VERSION_DEFAULT="4.6.01"
KOKKOS_RELEASE_URL="https://github.com/kokkos/kokkos/archive/refs/tags/4.6.01.tar.gz"
KOKKOS_RELEASE_SHA256="b9d70e4653b87a06dbb48d63291bf248058c7c7db4bd91979676ad5609bb1a3a"
KOKKOS_PREFIX="${PROXYLAB_KOKKOS_PREFIX:-$KOKKOS_PREFIX}"
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
  local shared="$ROOT/../shared/deps/kokkos-$KOKKOS_VERSION_DEFAULT.tar.gz"
  if [ -f "$shared" ]; then
    local want; want=$(awk -v f="kokkos-$KOKKOS_VERSION_DEFAULT.tar.gz" '$2 == f {print $1}' "$(dirname "$shared")/SHA256SUMS" 2>/dev/null)
    if [ -n "$want" ] && sha_ok "$shared" "$want"; then
      log "Kokkos: source $shared (sha256 checked)" >&2
      unpack_kokkos "$shared" "$work/kokkos-src"; return 0
    fi
    log "Kokkos: $shared does not match its SHA256SUMS: not used" >&2
  fi
  local tarball="$work/kokkos-$KOKKOS_VERSION_DEFAULT.tar.gz"
  if [ ! -f "$tarball" ] && command -v curl >/dev/null 2>&1; then
    curl -fsSL --connect-timeout 10 --max-time 300 -o "$tarball.part" "$KOKKOS_RELEASE_URL" 2>/dev/null && mv "$tarball.part" "$tarball" || rm -f "$tarball.part"
  fi
  if [ -f "$tarball" ]; then
    if sha_ok "$tarball" "$KOKKOS_RELEASE_SHA256"; then
      log "Kokkos: source $KOKKOS_RELEASE_URL (sha256 checked)" >&2
      unpack_kokkos "$tarball" "$work/kokkos-src"; return 0
    fi
    log "Kokkos: $tarball does not match the published sha256: removed" >&2; rm -f "$tarball"
  fi
  # The floor: Kokkos 3.4.01 inside the pykokkos-base sdist from PyPI.
  if [ ! -f "$work/$SDIST_NAME" ]; then
    python3 -m venv "$DEPS/pipvenv"
    "$DEPS/pipvenv/bin/pip" install -q scikit-build >&2
    "$DEPS/pipvenv/bin/pip" download -q --no-deps --no-binary :all: --no-build-isolation \
        pykokkos-base==0.0.7 -d "$work" >&2
  fi
  sha_ok "$work/$SDIST_NAME" "$SDIST_SHA256" || {
    echo "setup-deps.sh: sha256 mismatch for $work/$SDIST_NAME (expected $SDIST_SHA256)" >&2; rm -f "$work/$SDIST_NAME"; return 3; }
  log "Kokkos: no 4.6.01 source reachable; using 3.4.01 from $SDIST_NAME (the floor)" >&2
  rm -rf "$work/pykokkos-base-0.0.7"
  tar -xzf "$work/$SDIST_NAME" -C "$work"
  echo "$work/pykokkos-base-0.0.7/external/kokkos"
}
if kokkos_found; then
  log "Kokkos: found (${Kokkos_ROOT:-$KOKKOS_PREFIX})"
else
  src=$(kokkos_source)
  log "Kokkos: building $src into $KOKKOS_PREFIX (Serial + OpenMP, C++17, Release)"
  build="$DEPS/src/kokkos-build-$$"
  # No architecture flags in Kokkos itself: proxylab adds -march=native (or not: the portable preset) to its own
  # targets, so one Kokkos install serves both presets.
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
        -DCMAKE_INSTALL_PREFIX="$KOKKOS_PREFIX" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
        -DKokkos_ENABLE_TESTS=OFF -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON >/dev/null
  cmake --build "$build" -j "$(nproc)" >/dev/null
  cmake --install "$build" >/dev/null
  rm -rf "$build" "$DEPS/src/kokkos-src" "$DEPS/src/pykokkos-base-0.0.7"
  log "Kokkos: installed in $KOKKOS_PREFIX"
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
