#!/usr/bin/env bash
# run_and_check.sh RECORD.json CHECK_ARGS... -- COMMAND...: runs COMMAND (which must write RECORD.json via
# --json), then verify/check_record.py on the record. Used by ctest to check full records end to end.
set -u
record=$1
shift
check_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do check_args+=("$1"); shift; done
shift
rm -f "$record"
"$@" || { echo "run_and_check.sh: the run failed (exit $?)" >&2; exit 1; }
exec python3 "$(dirname "$0")/check_record.py" "$record" "${check_args[@]}"
