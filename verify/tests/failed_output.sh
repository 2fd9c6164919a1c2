#!/usr/bin/env bash
# failed_output.sh RECORD.json COMMAND...: runs COMMAND (a proxy writing RECORD.json via --json and a --trace that
# cannot be written, such as /dev/full); passes when the run exits 3, says "OUTPUT FAILED", its record has status
# 'output_failed' naming the trace, and check_record.py rejects the record (such a run used to exit 3 while its
# record said completed and verified, and check_record.py accepted it).
set -u
record=$1
shift
rm -f "$record"
out=$("$@" 2>&1); rc=$?
fail() { echo "failed_output.sh: $*"; echo "$out" | tail -20; exit 1; }
[ "$rc" = 3 ] || fail "exit $rc, expected 3"
grep -q "OUTPUT FAILED: --trace '/dev/full': writing failed" <<<"$out" || fail "no OUTPUT FAILED line"
python3 - "$record" <<'PY' || fail "record"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "output_failed", r["status"]
assert any("--trace '/dev/full'" in f for f in r["failed_outputs"]), r["failed_outputs"]
assert r["verification"]["passed"] is True  # the results and their verification are kept
PY
check=$(python3 "$(dirname "$0")/../check_record.py" "$record" 2>&1) && fail "check_record.py accepted it: $check"
grep -q "status is 'output_failed'" <<<"$check" || fail "check_record.py said: $check"
echo "failed_output.sh: exit 3, record 'output_failed', rejected by check_record.py"
