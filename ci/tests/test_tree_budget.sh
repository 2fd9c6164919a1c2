#!/usr/bin/env bash
# ci/stage-budget.sh on fabricated repositories (no commit needed: it counts what git tracks):
#   - small files pass;
#   - a tracked file over 256 KB fails and is named, and passes once ci/tree-budget-allow.txt lists it;
#   - an untracked large file does not count;
#   - docs/ and bench/ together over 2.5 MB fail (each file small), the same bytes elsewhere do not;
#   - the tracked tree over 4 MB fails (each file small).
set -uo pipefail
script="$(cd "$(dirname "$0")/.." && pwd)/stage-budget.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# expect NAME RC PATTERN DIR: stage-budget.sh on DIR exits RC and prints a line matching PATTERN.
expect() {
  local out rc
  out=$(bash "$script" "$4" 2>&1); rc=$?
  if [ "$rc" = "$2" ] && grep -qE "$3" <<<"$out"; then echo "ok   $1"; else
    echo "FAIL $1: expected exit $2 and /$3/, got exit $rc:"; echo "$out"; fail=1
  fi
}
# repo NAME: an empty git repository.
repo() { git init -q "$tmp/$1" && echo "$tmp/$1"; }
# add DIR PATH BYTES: a tracked file of BYTES bytes.
add() { mkdir -p "$(dirname "$1/$2")" && head -c "$3" /dev/zero > "$1/$2" && git -C "$1" add "$2"; }

r=$(repo small)
add "$r" README.md 1000; add "$r" docs/guide.md 200000
expect "small files pass" 0 "2 tracked files" "$r"

r=$(repo big)
add "$r" README.md 1000; add "$r" bench/app/run.log 300000
expect "a file over 256 KB fails, named" 1 "bench/app/run.log is 0.30 MB, over the 256 KB" "$r"
mkdir -p "$r/ci" && printf '# allowed\nbench/app/run.log   # the reason\n' > "$r/ci/tree-budget-allow.txt"
expect "listed in ci/tree-budget-allow.txt, it passes" 0 "1 allowed" "$r"

r=$(repo untracked)
add "$r" README.md 1000; head -c 5000000 /dev/zero > "$r/results.json"
expect "an untracked file does not count" 0 "1 tracked files" "$r"

r=$(repo docs)
for i in 1 2 3 4 5 6 7 8 9 10 11; do add "$r" "docs/part$i.png" 240000; done
add "$r" bench/pop/README.md 1000
expect "docs/ and bench/ over 2.5 MB fail" 1 "docs/ and bench/ are 2.64 MB together, over their 2.5 MB" "$r"
r=$(repo elsewhere)
for i in 1 2 3 4 5 6 7 8 9 10 11; do add "$r" "python/part$i.py" 240000; done
expect "the same bytes outside docs/ and bench/ pass" 0 "docs/ and bench/ 0.00 MB" "$r"

r=$(repo tree)
for i in $(seq 1 17); do add "$r" "src/part$i.cpp" 240000; done
expect "the tree over 4 MB fails" 1 "the tracked tree is 4.08 MB, over its 4 MB" "$r"

exit "$fail"
