#!/usr/bin/env bash
# CI stage: every C++ source in the repository is formatted as .clang-format says, by Debian 12's clang-format 14
# (pinned: another version formats some constructs differently). Self-contained: installs clang-format-14 when
# missing (as root). Fails naming the files that differ; `ci/stage-format.sh --fix` formats them in place.
set -euo pipefail
cd "$(dirname "$0")/.."
formatter=clang-format-14
if ! command -v "$formatter" >/dev/null; then
  [ "$(id -u)" = 0 ] || { echo "stage-format: needs $formatter (apt-get install as root)" >&2; exit 2; }
  echo "[stage-format] installing $formatter"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "$formatter" >/dev/null
fi
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.h')
if [ "${1:-}" = --fix ]; then
  "$formatter" -i "${sources[@]}"
  exit 0
fi
unformatted=()
for f in "${sources[@]}"; do
  "$formatter" --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [ "${#unformatted[@]}" != 0 ]; then
  echo "stage-format: ${#unformatted[@]} of ${#sources[@]} files differ from $formatter's formatting" \
    "(ci/stage-format.sh --fix formats them):"
  printf '  %s\n' "${unformatted[@]}"
  exit 1
fi
echo "stage-format: ${#sources[@]} C++ files formatted as .clang-format says ($("$formatter" --version | grep -o '[0-9.]*' | head -1))"
