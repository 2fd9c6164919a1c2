#!/usr/bin/env bash
# Two fft3d binaries side by side on one case, interleaved (A, B, A, B, ...), 1 thread per rank, ranks bound to
# cores; prints each binary's FOM (forward + inverse GFLOP/s) per round and the median ratio B / A.
# Usage: binary_vs_binary.sh BIN_A BIN_B N DECOMPOSITION RANKS PLANNING [ROUNDS]
# BIN_A and BIN_B may each carry options of their own, one quoted word split at spaces, for example
#   "build/openmp/bin/proxylab-fft3d --set fft3d.fuse_transpose=false" (two settings of one binary side by side).
# (made to compare the binary before the device FFT layer with the one after it, on the peers' cases)
set -euo pipefail
a=$1; b=$2; n=$3; d=$4; p=$5; plan=$6; rounds=${7:-7}
deck=$(cd "$(dirname "$0")/../.." && pwd)/inputs/fft3d/small.yaml
iterations=$(( 10 * 128 * 128 * 128 / (n * n * n) > 10 ? 10 * 128 * 128 * 128 / (n * n * n) : 10 ))
args=(--deck "$deck" --set fft3d.nx=$n --set fft3d.ny=$n --set fft3d.nz=$n --set fft3d.decomposition=$d
      --set fft3d.planning=$plan --set fft3d.iterations=$iterations --set fft3d.warmup=2
      --set verify.serial_max_points=0 --quiet)
fom() {  # "BINARY [OPTIONS]": split at spaces on purpose
  local cmd
  read -r -a cmd <<<"$1"
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false mpiexec.mpich -n "$p" -bind-to core "${cmd[0]}" "${args[@]}" "${cmd[@]:1}" |
    awk '/^FOM:/{print $2}'
}
for _ in $(seq "$rounds"); do echo "$(fom "$a") $(fom "$b")"; done | python3 -c '
import statistics, sys
rows = [tuple(map(float, line.split())) for line in sys.stdin]
a, b = [r[0] for r in rows], [r[1] for r in rows]
print(f"A {statistics.median(a):.3f}  B {statistics.median(b):.3f} GFLOP/s (medians of {len(rows)}); "
      f"B/A per round, median {statistics.median(y / x for x, y in rows):.3f} "
      f"(min {min(y / x for x, y in rows):.3f}, max {max(y / x for x, y in rows):.3f})")'
