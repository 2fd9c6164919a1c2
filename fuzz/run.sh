#!/usr/bin/env bash
# fuzz/run.sh [SECONDS] [JOBS]: fuzzes deck parsing and validation for SECONDS (default 60) with JOBS
# processes (default 1; more: run it from build/fuzz, where each job writes fuzz-N.log). Builds the fuzzer (clang-14, libFuzzer + ASan + UBSan) into build/fuzz, dumps the
# schema of every proxy from the built binaries (PROXYLAB_BIN, default build/openmp/bin), and seeds the
# corpus with every deck in inputs/ and common/tests/decks/. Exit 0: no finding; non-zero: a crash, leak,
# sanitizer report or slow input, saved under build/fuzz/artifacts/ (see fuzz/README.md).
set -euo pipefail
seconds=${1:-60}
jobs=${2:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PROXYLAB_BIN:-$root/build/openmp/bin}
work=$root/build/fuzz
start=$SECONDS

CXX=${FUZZ_CXX:-clang++-14} CC=${FUZZ_CC:-clang-14} cmake -S "$root/fuzz" -B "$work" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$work" -j2 >/dev/null
echo "fuzz: fuzzer built ($((SECONDS - start)) s)"

# One schema per proxy; byte k of an input picks the k-th in sorted order (comm evh1 fft3d pop pstswm stream).
rm -rf "$work/schemas" "$work/seeds"
mkdir -p "$work/schemas" "$work/seeds" "$work/corpus" "$work/artifacts"
apps=(comm evh1 fft3d pop pstswm stream)
for k in "${!apps[@]}"; do
  app=${apps[$k]}
  OMP_NUM_THREADS=1 "$bin/proxylab-$app" --deck-schema >"$work/schemas/$app.json"
  for deck in "$root"/inputs/"$app"/*.yaml; do
    { printf "\\x$(printf %02x "$k")"; cat "$deck"; } >"$work/seeds/$app-$(basename "$deck")"
  done
done
for deck in "$root"/common/tests/decks/*.yaml "$root"/fuzz/regressions/*.yaml; do
  [ -e "$deck" ] && { printf '\x05'; cat "$deck"; } >"$work/seeds/stream-$(basename "$deck")"
done

export PROXYLAB_FUZZ_SCHEMAS=$work/schemas
# -timeout: an input that takes 2 s is a finding (the alias and depth limits keep every deck under 0.1 s).
set +e
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")  # (each job logs to fuzz-N.log in the current folder)
"$work/proxylab-deck-fuzzer" -max_total_time="$seconds" "${parallel[@]}" -timeout=2 -rss_limit_mb=2048 -max_len=8192 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" "$work/seeds" >"$work/fuzz.log" 2>&1
status=$?
set -e
grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)|ERROR|SUMMARY|artifact" "$work/fuzz.log" | tail -8 || true
echo "fuzz: $((SECONDS - start)) s in all, corpus $(ls "$work/corpus" | wc -l) inputs, exit $status"
exit $status
