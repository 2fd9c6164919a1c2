#!/usr/bin/env bash
# CI stage: fuzz deck parsing and validation for 60 s (fuzz/README.md). Self-contained and idempotent:
# installs clang-14 and libclang-rt-14-dev when missing (as root), builds proxylab when its binaries are
# missing (their --deck-schema dumps are the fuzzer's schemas), then runs fuzz/run.sh. Fails on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
if ! dpkg -s clang-14 libclang-rt-14-dev >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || { echo "stage-fuzz: needs clang-14 and libclang-rt-14-dev (apt-get install as root)" >&2; exit 2; }
  echo "[stage-fuzz] installing clang-14 libclang-rt-14-dev"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-14 \
    libclang-rt-14-dev >/dev/null
fi
[ -x build/openmp/bin/proxylab-stream ] || ./proxylab build
fuzz/run.sh "${PROXYLAB_FUZZ_SECONDS:-60}"
echo "stage-fuzz: $((SECONDS - start)) s"
