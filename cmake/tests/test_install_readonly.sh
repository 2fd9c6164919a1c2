#!/usr/bin/env bash
# A read-only install used from the user's own folder, as on a cluster: `cmake --install` to a temporary prefix,
# `chmod -R a-w` on it, then from another temporary folder
#   run (--json, --trace), compare, model (machines/ from the install), gantt
# each leaves its outputs in that folder, and nothing in the prefix changes (its listing with sizes and times is the
# same before and after). build, test and setup say they belong to a source checkout (exit 2), and no message sends
# the user to ./proxylab setup. Small decks and few steps: a few seconds of runs.
# Usage: test_install_readonly.sh BUILD_DIR
. "$(dirname "$0")/install_to_temporary_prefix.sh" "$@"
[ -f "$prefix/share/proxylab/machines/xt4.yaml" ] || fail "machines/ is not installed"
chmod -R a-w "$prefix"
# Root writes through a-w: the listing below is what proves nothing was written. Python's bytecode cache is the one
# write a user's read-only prefix silently skips; as root it would land there, so it is turned off.
export PYTHONDONTWRITEBYTECODE=1
listing() { find "$prefix" -printf '%p %s %T@\n' | sort; }
listing >"$tmp/before"

mkdir -p "$tmp/work"; cd "$tmp/work"
unset PROXYLAB_BUILD_DIR PYTHONPATH
pl="$prefix/bin/proxylab"
step() {  # step NAME COMMAND...: runs it, its output in $tmp/NAME.log; fails on a non-zero exit
  local name=$1; shift
  "$@" >"$tmp/$name.log" 2>&1; local rc=$?
  [ "$rc" = 0 ] || { tail -20 "$tmp/$name.log"; fail "$name: '$*' exited $rc"; }
  echo "ok   $name"
}
step run "$pl" run fft3d --deck small --ranks 2 --oversubscribe --json run.json --trace trace.json --quiet
[ -s run.json ] && [ -s trace.json ] || fail "run: run.json and trace.json are not in $PWD"
step compare "$pl" compare stream --deck small --vary stream.mapping=flat,team --repeat 1 --set stream.n=65536
ls results/compare-stream-*/records.json >/dev/null 2>&1 || fail "compare: no results/compare-stream-*/records.json in $PWD"
step model "$pl" model fft3d --deck small --machine xt4 --ranks 1,2,4 --count-ranks 1,2
ls results/model-fft3d-*/model.json >/dev/null 2>&1 || fail "model: no results/model-fft3d-*/model.json in $PWD"
# A chart needs matplotlib in the python3 the front end runs on: drawn next to the trace, or the report without it
# and the hint how to get it; exit 0 either way (the report is gantt's result: docs/harness.md).
"$pl" gantt trace.json >"$tmp/gantt.log" 2>&1; rc=$?
grep -q "busy / communicate / idle per rank" "$tmp/gantt.log" || { tail -20 "$tmp/gantt.log"; fail "gantt: no report"; }
[ "$rc" = 0 ] || { tail -20 "$tmp/gantt.log"; fail "gantt exited $rc"; }
[ -s trace.png ] || grep -q "matplotlib not found (pip install matplotlib)" "$tmp/gantt.log" ||
  fail "gantt: neither trace.png in $PWD nor the hint how to get matplotlib"
echo "ok   gantt ($([ -s trace.png ] && echo 'trace.png' || echo 'no matplotlib: the pip hint'))"
grep -l "proxylab setup" "$tmp"/*.log && fail "a message sends the user to ./proxylab setup, which an install lacks"

for command in build test setup; do
  out=$("$pl" $command 2>&1); rc=$?
  [ "$rc" = 2 ] && grep -q "belongs to a source checkout" <<<"$out" || fail "$command in an install exited $rc: $out"
done
echo "ok   build, test, setup: exit 2, 'belongs to a source checkout'"

listing >"$tmp/after"
diff "$tmp/before" "$tmp/after" >"$tmp/changed" || { head -20 "$tmp/changed"; fail "the prefix changed"; }
echo "ok   nothing written to the prefix; in $PWD: $(find . -type f | sort | tr '\n' ' ')"
