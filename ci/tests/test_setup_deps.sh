#!/usr/bin/env bash
# Where ci/setup-deps.sh finds the offline Kokkos tarball (--which-kokkos: no build, no network), in fabricated
# layouts with a fake tarball and its SHA256SUMS:
#   - a clone whose origin is a local path finds shared/ beside the origin (CI clones main somewhere else);
#   - ../shared beside the checkout wins over that, PROXYLAB_SHARED over both;
#   - a git worktree finds shared/ beside its main checkout;
#   - a tarball that does not match its SHA256SUMS is skipped;
#   - an unknown PROXYLAB_KOKKOS_VERSION is bad input (exit 2, the allowed values named);
#   - PROXYLAB_KOKKOS_STRICT=1 refuses an installed Kokkos of another version (exit 3), accepts the wanted one
#     however its version file spells it (4.6.01 installs as "4.6.1", 3.4.01 as "3.4.01");
#   - PROXYLAB_KOKKOS_CUDA_ARCH: a name that is no Kokkos architecture, or with the floor, is bad input (exit 2);
#     an installed CUDA Kokkos is looked for in .deps/kokkos-cuda, its kokkos-fft in .deps/kokkos-fft-cuda;
#   - ci/patches/kokkos-4.6.01-cuda13.patch applies to the real 4.6.01 tarball (when this machine has it).
# /work/shared/deps, the last fallback, may exist on the machine: the expected answers all come before it.
set -uo pipefail
script="$(cd "$(dirname "$0")/.." && pwd)/setup-deps.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected '$2', got '$3'"; fail=1; fi
}
# make_shared DIR [bad]: DIR/deps/kokkos-4.6.01.tar.gz and a SHA256SUMS that matches it (or not, with "bad").
make_shared() {
  mkdir -p "$1/deps"
  echo "fake kokkos from $1" > "$1/deps/kokkos-4.6.01.tar.gz"
  if [ "${2:-}" = bad ]; then
    echo "0000000000000000000000000000000000000000000000000000000000000000  kokkos-4.6.01.tar.gz" > "$1/deps/SHA256SUMS"
  else
    (cd "$1/deps" && sha256sum kokkos-4.6.01.tar.gz > SHA256SUMS)
  fi
}
# make_checkout DIR [ORIGIN]: a git repository holding ci/setup-deps.sh, its origin a local path.
make_checkout() {
  mkdir -p "$1/ci"; cp "$script" "$1/ci/"
  git -C "$1" init -q
  [ -n "${2:-}" ] && git -C "$1" remote add origin "$2"
  git -C "$1" add ci && git -C "$1" -c user.name=t -c user.email=t@t commit -qm init
}
which_kokkos() { env -u PROXYLAB_SHARED "$@" bash -c 'bash "$0/ci/setup-deps.sh" --which-kokkos 2>/dev/null' "$dir"; }

make_shared "$tmp/a/shared"
make_checkout "$tmp/a/main"
make_checkout "$tmp/ci/proxylab" "$tmp/a/main"
dir="$tmp/ci/proxylab"
check "clone finds shared/ beside its local origin" "$tmp/a/shared/deps/kokkos-4.6.01.tar.gz" "$(which_kokkos)"
git -C "$dir" remote set-url origin "file://$tmp/a/main/.git"
check "origin given as file://.../.git" "$tmp/a/shared/deps/kokkos-4.6.01.tar.gz" "$(which_kokkos)"

make_shared "$tmp/ci/shared"
check "../shared beside the checkout wins" "$tmp/ci/shared/deps/kokkos-4.6.01.tar.gz" "$(which_kokkos)"

make_shared "$tmp/env"
check "PROXYLAB_SHARED wins" "$tmp/env/deps/kokkos-4.6.01.tar.gz" "$(which_kokkos PROXYLAB_SHARED="$tmp/env")"

make_shared "$tmp/ci/shared" bad
check "a tarball that fails its checksum is skipped" "$tmp/a/shared/deps/kokkos-4.6.01.tar.gz" "$(which_kokkos)"

git -C "$tmp/a/main" worktree add -q "$tmp/wt/feature" 2>/dev/null
dir="$tmp/wt/feature"
check "a worktree finds shared/ beside its main checkout" "$tmp/a/shared/deps/kokkos-4.6.01.tar.gz" "$(which_kokkos)"

out=$(PROXYLAB_KOKKOS_VERSION=2.0 bash "$script" --no-system --no-venv 2>&1); rc=$?
check "PROXYLAB_KOKKOS_VERSION=2.0 exits 2" 2 "$rc"
grep -q "PROXYLAB_KOKKOS_VERSION=2.0; allowed: 4.6.01 (default) or 3.4.01" <<<"$out" || { echo "FAIL message: $out"; fail=1; }
# fake_kokkos PREFIX VERSION: an "installed" Kokkos (its CMake package files only).
fake_kokkos() {
  mkdir -p "$1/lib/cmake/Kokkos"; touch "$1/lib/cmake/Kokkos/KokkosConfig.cmake"
  echo "set(PACKAGE_VERSION \"$2\")" > "$1/lib/cmake/Kokkos/KokkosConfigVersion.cmake"
}
strict() { (cd "$tmp/ci/proxylab" && env PROXYLAB_KOKKOS_STRICT=1 "$@" bash ci/setup-deps.sh --no-system --no-venv >/dev/null 2>&1); echo $?; }
fake_kokkos "$tmp/k46" 4.6.1
fake_kokkos "$tmp/k34" 3.4.01
check "strict: 4.6.1 installed, 4.6.01 wanted" 0 "$(strict PROXYLAB_KOKKOS_PREFIX="$tmp/k46")"
check "strict: 3.4.01 installed, 4.6.01 wanted" 3 "$(strict PROXYLAB_KOKKOS_PREFIX="$tmp/k34")"
check "strict: 3.4.01 installed, 3.4.01 wanted" 0 "$(strict PROXYLAB_KOKKOS_PREFIX="$tmp/k34" PROXYLAB_KOKKOS_VERSION=3.4.01)"
for bad in "sm_90" "HOPPER90 PROXYLAB_KOKKOS_VERSION=3.4.01"; do
  out=$(env PROXYLAB_KOKKOS_CUDA_ARCH=$bad bash "$script" --which-kokkos 2>&1); rc=$?
  check "PROXYLAB_KOKKOS_CUDA_ARCH=$bad exits 2" 2 "$rc"
  grep -q "PROXYLAB_KOKKOS_CUDA_ARCH=${bad%% *} with Kokkos .*; allowed: a Kokkos NVIDIA architecture name" <<<"$out" ||
    { echo "FAIL message: $out"; fail=1; }
done
mkdir -p "$tmp/ci/proxylab/.deps"; fake_kokkos "$tmp/ci/proxylab/.deps/kokkos-cuda" 4.6.1
# the kokkos-fft it installed beside that Kokkos (its stamp: version and the Kokkos it was configured against)
mkdir -p "$tmp/ci/proxylab/.deps/kokkos-fft-cuda"
echo "1.0.0 $tmp/ci/proxylab/.deps/kokkos-cuda" > "$tmp/ci/proxylab/.deps/kokkos-fft-cuda/.proxylab-kokkos-fft"
check "strict, CUDA: finds .deps/kokkos-cuda and .deps/kokkos-fft-cuda" 0 "$(strict PROXYLAB_KOKKOS_CUDA_ARCH=HOPPER90)"
real=$(env -u PROXYLAB_SHARED bash "$script" --which-kokkos 2>/dev/null)
if [ "$real" != none ] && [ -f "$real" ]; then
  mkdir -p "$tmp/src" && tar -xzf "$real" -C "$tmp/src"
  patch --dry-run -s -p1 -d "$tmp/src/kokkos-4.6.01" < "$(dirname "$script")/patches/kokkos-4.6.01-cuda13.patch"
  check "the CUDA 13 patch applies to $real" 0 "$?"
else
  echo "skip the CUDA 13 patch check: no offline Kokkos 4.6.01 tarball here"
fi
exit $fail
