#!/usr/bin/env bash
# CI stage: the `simulate` tests (docs/model.md, "Simulated runs"). Installs libsimgrid-dev when missing (as root),
# builds pop against SMPI at -O1 (a correctness test: the simulated times of an -O1 build are not the benchmark's),
# then runs ctest -L simulate: pop at 4 simulated ranks on 2 nodes, verified, and slower on a slower network.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
if ! dpkg -s libsimgrid-dev >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || { echo "stage-simulate: needs libsimgrid-dev (apt-get install as root)" >&2; exit 2; }
  echo "[stage-simulate] installing libsimgrid-dev"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libsimgrid-dev \
    >/dev/null
fi
[ -f build/openmp/CMakeCache.txt ] || ./proxylab build
export PROXYLAB_SMPI_BUILD_DIR=build/smpi-ci
PROXYLAB_SMPI_OPT=-O1 ci/build-smpi.sh proxylab-pop
echo "stage-simulate: SMPI build of pop took $((SECONDS - start)) s"
PROXYLAB_SMPI_BUILD_DIR=$PWD/build/smpi-ci ctest --test-dir build/openmp -L simulate --output-on-failure
echo "stage-simulate: $((SECONDS - start)) s"
