#!/usr/bin/env bash
# bench/gpu/bundle.sh refuses a build whose binaries carry different git hashes (a partial rebuild), on a fabricated
# build folder: binaries that hold the hash of build_info.cpp pass the check, one from another commit is named.
set -euo pipefail
bundle=$(cd "$(dirname "$0")/../.." && pwd)/bench/gpu/bundle.sh
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build/common" "$work/build/bin"
now=1111111111111111111111111111111111111111 old=2222222222222222222222222222222222222222
printf 'const char* const git_hash = "%s";\n' $now >"$work/build/common/build_info.cpp"
printf 'binary\0%s\0' $now >"$work/build/bin/proxylab-pop"
printf 'binary\0%s\0' $old >"$work/build/bin/proxylab-pstswm"
printf 'binary\0%s\0' $now >"$work/build/bin/test-fft"
cd "$work"
if out=$(bash "$bundle" build 2>&1); then echo "FAIL: a partial rebuild was bundled"; exit 1; fi
grep -q "built at another commit than build's $now (a partial rebuild): proxylab-pstswm;" <<<"$out" ||
  { echo "FAIL: the message does not name the stale binary: $out"; exit 1; }
grep -q "proxylab-pop" <<<"$out" && { echo "FAIL: a current binary was named: $out"; exit 1; }
: >"$work/build/common/build_info.cpp"
out=$(bash "$bundle" build 2>&1) && { echo "FAIL: a build without build_info.cpp was bundled"; exit 1; }
grep -q "no git hash in build/common/build_info.cpp" <<<"$out" || { echo "FAIL: $out"; exit 1; }
[ ! -e .gpu ] || { echo "FAIL: a refused bundle left .gpu"; exit 1; }
echo "test_gpu_bundle: passed"
