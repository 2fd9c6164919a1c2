# Sourced by the install tests (test_install.sh BUILD_DIR, test_install_readonly.sh BUILD_DIR): `cmake --install`
# of BUILD_DIR into $prefix inside a temporary folder $tmp (removed at exit, read-only parts too); fail MESSAGE ends
# the test.
set -uo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
cmake=${CMAKE:-cmake}
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
fail() { echo "FAIL: $*"; exit 1; }
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install"; }
