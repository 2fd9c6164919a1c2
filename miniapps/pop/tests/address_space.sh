#!/usr/bin/env bash
# address_space.sh LIMIT_KIB MPIEXEC BINARY DECK: pop's memory check against what the run maps, under ulimit -v.
# A grid far too large is refused (exit 2) with the estimate and the address space the limit leaves; grids whose
# estimates take 80%, 90% and 97% of that must then run and verify (exit 0). An estimate that misses memory the run
# maps fails them in an allocation (exit 3): glibc's heap kept freed fields, 75 MiB at 1400 x 1400.
limit=$1 mpiexec=$2 binary=$3 deck=$4
ulimit -v "$limit" || exit 1
run() {  # run N: pop on an N x N grid, benchmark mode, 2 iterations (the reference solve allocates again)
  "$mpiexec" -n 1 "$binary" --deck "$deck" --set grid.nx="$1" --set grid.ny="$1" --set solver.crit=0 \
    --set solver.max_iters=2 2>&1
}
bytes() {  # "294.90 MiB" -> bytes
  awk -v v="$1" -v u="$2" 'BEGIN { split("B KiB MiB GiB TiB", n, " "); for (k = 1; k <= 5; ++k) if (n[k] == u) { printf "%.0f", v * 1024 ^ (k - 1); exit } exit 1 }'
}
big=4000
out=$(run $big)
rc=$?
printf '%s\n' "$out" | tail -n 1
[ "$rc" = 2 ] || { echo "address_space.sh: $big x $big exited $rc, expected 2 (refused)" >&2; exit 1; }
read -r ev eu < <(grep -oE 'needs an estimated [0-9.]+ [KMGT]?i?B' <<<"$out" | head -n 1 | awk '{print $4, $5}')
read -r hv hu < <(grep -oE 'ulimit -v\) leaves [0-9.]+ [KMGT]?i?B' <<<"$out" | awk '{print $4, $5}')
estimate=$(bytes "$ev" "$eu") headroom=$(bytes "$hv" "$hu") || { echo "address_space.sh: no estimate or headroom" >&2; exit 1; }
for fraction in 0.80 0.90 0.97; do
  # fields of (n + 4)^2 doubles (halo width 2) make the estimate; its other items are tiny at these sizes
  n=$(awk -v e="$estimate" -v h="$headroom" -v f="$fraction" -v b="$big" 'BEGIN { printf "%d", (b + 4) * sqrt(f * h / e) - 4 }')
  out=$(run "$n")
  rc=$?
  echo "$n x $n ($fraction of the $hv $hu left): exit $rc"
  if [ "$rc" != 0 ]; then
    printf '%s\n' "$out" | tail -n 3
    echo "address_space.sh: $n x $n exited $rc under ulimit -v $limit, expected 0 (VERIFICATION: PASSED)" >&2
    exit 1
  fi
done
