#!/usr/bin/env bash
# pop_roundtrip.sh PYTHON MPIEXEC POP RANKS OUTDIR [POP ARGS...]: runs POP on RANKS ranks with output.operator_file,
# then solves the written system directly (pop_direct_solve.py with PYTHON). With RANKS > 1 it also writes the
# system on 1 rank: the matrix, right-hand side and index map must be byte-identical (the global numbering does
# not depend on the decomposition). Used by ctest (regression.pop.direct-solve.npN).
set -eu
python=$1 mpiexec=$2 pop=$3 np=$4 out=$5
shift 5
mkdir -p "$out"
"$mpiexec" -n "$np" "$pop" "$@" --set output.operator_file="$out/np$np.mtx"
if [ "$np" -gt 1 ]; then
  "$mpiexec" -n 1 "$pop" "$@" --quiet --set output.operator_file="$out/np1.mtx"
  for suffix in .mtx .rhs.mtx .index.mtx; do
    cmp "$out/np1$suffix" "$out/np$np$suffix"
  done
  echo "pop_roundtrip.sh: matrix, right-hand side and index map of $np ranks equal the 1-rank files byte for byte"
fi
exec "$python" "$(dirname "$0")/pop_direct_solve.py" "$out/np$np.mtx"
