#!/usr/bin/env bash
# CI stage: the tracked tree stays small (README.md, "Layout"): measured results stay in bench/ as compact tables,
# raw logs, records and traces in git history. Fails, naming what is over, when
#   - a tracked file is over 256 KB and not listed in ci/tree-budget-allow.txt (one path a line, # comments),
#   - the tracked tree is over 4 MB, or docs/ and bench/ together are over 2.5 MB
# (1 KB = 1000 bytes; sizes of the work tree's copies, as `git ls-files -z | xargs -0 du -cb` counts them).
# Usage: ci/stage-budget.sh [REPOSITORY]   (default: this one)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
file_max=256000 tree_max=4000000 docs_max=2500000
allowed=()
if [ -f ci/tree-budget-allow.txt ]; then
  mapfile -t allowed < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' ci/tree-budget-allow.txt | grep -v '^$' || true)
fi
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1e6 }'; }
is_allowed() { local a; for a in "${allowed[@]}"; do [ "$a" = "$1" ] && return 0; done; return 1; }

files=0 total=0 docs=0 failed=0 largest=0 largest_path=
while IFS=$'\t' read -r -d '' size path; do
  files=$((files + 1)) total=$((total + size))
  case "$path" in docs/* | bench/*) docs=$((docs + size)) ;; esac
  if [ "$size" -gt "$largest" ]; then largest=$size largest_path=$path; fi
  if [ "$size" -gt "$file_max" ] && ! is_allowed "$path"; then
    echo "stage-budget: $path is $(mb "$size"), over the 256 KB a tracked file may have (a measurement's raw" \
      "output belongs in git history: commit it once, cite the commit, and remove it; or list it in" \
      "ci/tree-budget-allow.txt)"
    failed=1
  fi
done < <(git ls-files -z | xargs -0 -r stat --printf '%s\t%n\0' -- 2>/dev/null)  # a file deleted here is not counted

if [ "$total" -gt "$tree_max" ]; then
  echo "stage-budget: the tracked tree is $(mb "$total"), over its 4 MB"
  failed=1
fi
if [ "$docs" -gt "$docs_max" ]; then
  echo "stage-budget: docs/ and bench/ are $(mb "$docs") together, over their 2.5 MB"
  failed=1
fi
echo "stage-budget: $files tracked files, $(mb "$total") (at most 4 MB), docs/ and bench/ $(mb "$docs")" \
  "(at most 2.5 MB); the largest file $largest_path, $(mb "$largest") (at most 0.256 MB" \
  "unless allowed: ${#allowed[@]} allowed)"
exit "$failed"
