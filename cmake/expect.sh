#!/usr/bin/env bash
# expect.sh EXIT_CODE REGEX COMMAND...: runs COMMAND, shows its output, and passes only when it exits
# with EXIT_CODE and its output matches the extended regular expression REGEX ("" matches anything).
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
got=$?
printf '%s\n' "$out"
if [ "$got" != "$want" ]; then
  echo "expect.sh: exit code $got, expected $want" >&2
  exit 1
fi
if [ -n "$regex" ] && ! grep -qE -- "$regex" <<<"$out"; then
  echo "expect.sh: output does not match /$regex/" >&2
  exit 1
fi
exit 0
