#!/usr/bin/env bash
# `cmake --install` to a temporary prefix, then the installed front end used from a directory outside the
# source tree, as a user on a cluster would:
#   PREFIX/bin/proxylab run pop --deck x1 --ranks 2   the deck found by name under share/proxylab/inputs
#   PREFIX/bin/proxylab demo                          every installed proxy verified, the summary table
#   a relative --json path lands in the user's directory (not in the prefix)
# and the prefix holds the layout docs/cluster.md describes (no test binaries, no build tree referenced).
# Usage: test_install.sh BUILD_DIR
. "$(dirname "$0")/install_to_temporary_prefix.sh" "$@"
for f in bin/proxylab bin/proxylab-pop share/proxylab/python/proxylab_tools/runner.py share/proxylab/inputs/pop/x1.yaml \
         share/proxylab/VERSION share/proxylab/install-layout.json share/doc/proxylab/LICENSE; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
ls "$prefix/bin" | grep -q '^test-' && fail "unit-test binaries were installed: $(ls "$prefix/bin" | tr '\n' ' ')"
ls "$prefix/bin" | grep -q 'workshop' && fail "workshop exercises were installed"
echo "ok   installed layout ($(ls "$prefix/bin" | tr '\n' ' '))"

mkdir -p "$tmp/elsewhere"; cd "$tmp/elsewhere"
# Nothing may lead the installed front end back to the build tree.
unset PROXYLAB_BUILD_DIR PYTHONPATH
out=$("$prefix/bin/proxylab" run pop --deck x1 --ranks 2 --json record.json 2>&1); rc=$?
[ "$rc" = 0 ] && grep -q "VERIFICATION: PASSED" <<<"$out" || { printf '%s\n' "$out" | tail -20; fail "run pop --deck x1 exited $rc"; }
grep -q "deck $prefix/share/proxylab/inputs/pop/x1.yaml" <<<"$out" || fail "the run did not use the installed x1 deck"
[ -s record.json ] || fail "--json record.json was not written into the user's directory"
echo "ok   PREFIX/bin/proxylab run pop --deck x1 --ranks 2 (from $PWD)"
out=$("$prefix/bin/proxylab" demo 2>&1); rc=$?
printf '%s\n' "$out" | sed -n '/^proxy /,/^$/p'
[ "$rc" = 0 ] || { printf '%s\n' "$out" | tail -30; fail "demo exited $rc"; }
n=$(grep -cE "^[a-z0-9]+ +inputs/.* PASSED " <<<"$out")
[ "$n" -ge 1 ] || fail "demo verified no proxy"
grep -q "FAILED" <<<"$out" && fail "demo has failures"
echo "ok   PREFIX/bin/proxylab demo ($n proxies verified)"
