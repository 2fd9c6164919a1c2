#!/usr/bin/env bash
# Idempotent dependency set-up for proxylab.
#   - Debian packages (only when root and apt-get exist, and only what is missing)
#   - Kokkos: an installed Kokkos (Kokkos_ROOT or CMake's search path) is used as is;
#     otherwise Kokkos 3.4.01 is built from the PyPI sdist of pykokkos-base==0.0.7
#     (its external/kokkos), sha256-verified, into .deps/kokkos (Serial + OpenMP, C++17, Release).
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
kokkos_found() {
  [ -f "$KOKKOS_PREFIX/lib/cmake/Kokkos/KokkosConfig.cmake" ] || [ -f "$KOKKOS_PREFIX/lib64/cmake/Kokkos/KokkosConfig.cmake" ] && return 0
  if [ -n "${Kokkos_ROOT:-}" ]; then
    for d in lib lib64; do [ -f "$Kokkos_ROOT/$d/cmake/Kokkos/KokkosConfig.cmake" ] && return 0; done
  fi
  return 1
}
if kokkos_found; then
  log "Kokkos: found (${Kokkos_ROOT:-$KOKKOS_PREFIX})"
else
  log "Kokkos: building 3.4.01 from the $SDIST_NAME sdist into $KOKKOS_PREFIX"
  work="$DEPS/src"; mkdir -p "$work"
  if [ ! -f "$work/$SDIST_NAME" ]; then
    python3 -m venv "$DEPS/pipvenv"
    "$DEPS/pipvenv/bin/pip" install -q scikit-build
    "$DEPS/pipvenv/bin/pip" download -q --no-deps --no-binary :all: --no-build-isolation \
        pykokkos-base==0.0.7 -d "$work"
  fi
  echo "$SDIST_SHA256  $work/$SDIST_NAME" | sha256sum -c --quiet - || {
    echo "setup-deps.sh: sha256 mismatch for $work/$SDIST_NAME (expected $SDIST_SHA256)" >&2; rm -f "$work/$SDIST_NAME"; exit 3; }
  rm -rf "$work/pykokkos-base-0.0.7"
  tar -xzf "$work/$SDIST_NAME" -C "$work"
  src="$work/pykokkos-base-0.0.7/external/kokkos"
  cmake -S "$src" -B "$work/kokkos-build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 \
        -DCMAKE_INSTALL_PREFIX="$KOKKOS_PREFIX" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
        -DKokkos_ENABLE_TESTS=OFF -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON >/dev/null
  cmake --build "$work/kokkos-build" -j "$(nproc)" >/dev/null
  cmake --install "$work/kokkos-build" >/dev/null
  rm -rf "$work/kokkos-build" "$work/pykokkos-base-0.0.7"
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
