#!/usr/bin/env bash
# Which MPI the build picks (cmake/ProxylabMPI.cmake), in fabricated environments:
#   - an MPI wrapper first on PATH that is a plain file or a link outside /etc/alternatives (a module, Spack)
#     wins, with the mpiexec beside it;
#   - a Debian alternatives link first on PATH does not: Debian's MPICH (mpicxx.mpich + mpiexec.mpich) does;
#   - MPI_HOME (environment) and MPI_CXX_COMPILER (-D) are left to FindMPI / taken as given, the launcher beside
#     the given wrapper keeps its Debian flavour (mpicxx.openmpi -> mpiexec.openmpi).
# The MPICH cases need /usr/bin/mpicxx.mpich (Debian's mpich package) and are skipped without it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# choice [VAR=VALUE...] [-- CMAKE_ARGS...]: the choice with MPI_HOME unset unless given, cmake found on the real PATH.
choice() {
  local vars=() cm
  while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
  [ "${1:-}" = -- ] && shift
  cm=${CMAKE:-$(command -v cmake)}
  env -u MPI_HOME "${vars[@]}" "$cm" "$@" -P "$here/print_mpi_choice.cmake" 2>&1
}
expect() {  # expect NAME OUTPUT KEY=VALUE...
  local name=$1 out=$2; shift 2
  for kv in "$@"; do
    if ! grep -qxF -- "$kv" <<<"$out"; then
      echo "FAIL $name: expected '$kv' in:"; sed 's/^/    /' <<<"$out"; fail=1; return
    fi
  done
  echo "ok   $name"
}
sys_path=/usr/local/bin:/usr/bin:/bin

# A module's MPI: real files first on PATH.
mkdir -p "$tmp/module/bin"
for f in mpicxx mpicc mpiexec; do printf '#!/bin/sh\nexit 0\n' > "$tmp/module/bin/$f"; chmod +x "$tmp/module/bin/$f"; done
out=$(choice PATH="$tmp/module/bin:$sys_path")
expect "module wrapper first on PATH" "$out" "source=PATH" "cxx=$tmp/module/bin/mpicxx" "c=$tmp/module/bin/mpicc" \
       "mpiexec=$tmp/module/bin/mpiexec"

# A Spack view: symbolic links into the store (not /etc/alternatives) count as the user's choice too.
mkdir -p "$tmp/view/bin"
for f in mpicxx mpiexec; do ln -s "$tmp/module/bin/$f" "$tmp/view/bin/$f"; done
out=$(choice PATH="$tmp/view/bin:$sys_path")
expect "Spack-view link first on PATH" "$out" "source=PATH" "cxx=$tmp/view/bin/mpicxx" "mpiexec=$tmp/view/bin/mpiexec"

# MPI_HOME in the environment: FindMPI searches there; nothing is forced.
out=$(choice PATH="$sys_path" MPI_HOME="$tmp/module")
expect "MPI_HOME given" "$out" "source=MPI_HOME" "cxx=" "mpiexec="

if [ -x /usr/bin/mpicxx.mpich ]; then
  # A Debian alternatives link first on PATH (whichever MPI was installed last): MPICH is chosen explicitly.
  mkdir -p "$tmp/alt/bin"
  ln -s /etc/alternatives/mpicxx "$tmp/alt/bin/mpicxx"
  out=$(choice PATH="$tmp/alt/bin:$sys_path")
  expect "alternatives link on PATH -> Debian MPICH" "$out" "source=Debian MPICH" "cxx=/usr/bin/mpicxx.mpich" \
         "c=/usr/bin/mpicc.mpich" "mpiexec=/usr/bin/mpiexec.mpich"
  # No wrapper on PATH at all: MPICH.
  out=$(choice PATH="$tmp/empty")
  expect "no wrapper on PATH -> Debian MPICH" "$out" "source=Debian MPICH" "cxx=/usr/bin/mpicxx.mpich"
else
  echo "skip Debian MPICH cases: /usr/bin/mpicxx.mpich not installed"
fi
if [ -x /usr/bin/mpicxx.openmpi ]; then
  out=$(choice PATH="$sys_path" -- -DMPI_CXX_COMPILER=/usr/bin/mpicxx.openmpi)
  expect "MPI_CXX_COMPILER given keeps its flavour's launcher" "$out" "source=MPI_CXX_COMPILER" "cxx=" \
         "mpiexec=/usr/bin/mpiexec.openmpi"
fi
exit $fail
