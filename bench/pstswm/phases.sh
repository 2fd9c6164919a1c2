#!/usr/bin/env bash
# pstswm's phases in two binaries (e.g. a commit and its parent), interleaved, 5 rounds, 1 thread per rank: ms per
# step of the spectral and grid-point phases (timer max / steps), of FFT + fold and of the Legendre transform, ms
# per field transform, ms per step in all, and the case 2 l2 error, which must agree. FFTW plans measured
# (transform.fft_planning). With the latitude loop (transform.fuse_grid_point) there is no grid-point timer (0): the
# products run inside the FFT stage and count in FFT + fold.
# Two builds compare the same way (e.g. build/openmp against build/blis: another host BLAS); each line's binary is
# named in the summary, whose record names its BLAS.
#   OPENBLAS_CORETYPE=SkylakeX bash bench/pstswm/phases.sh OLD_BINARY NEW_BINARY
# Columns: case, which, round, spectral, grid-point, FFT+fold, LT, per field transform, total, l2 error. At the end,
# per case: the medians over the rounds old -> new and the medians (min-max) of the per-round speed-ups new / old.
set -euo pipefail
old=$1 new=$2
log=$(mktemp)
cases=("1 T42L18-case2 20" "1 T85L18-case2 10" "1 T85L18-case2 10 model.truncation=106" "1 T170L18-case2 4"
       "1 T85L18-case2 3 model.truncation=213" "1 T340L18-case2 2"
       "2 T85L18-case2 10 parallel.algorithm=transpose"
       "2 T85L18-case2 10 parallel.algorithm=distributed parallel.combine=ring")
for round in 1 2 3 4 5; do
  for c in "${cases[@]}"; do
    read -r ranks deck steps extra <<<"$c"
    sets=(--set "time.steps=$steps" --set transform.fft_planning=measure)
    for s in $extra; do sets+=(--set "$s"); done
    for which in old new; do
      bin=${!which}
      out=$(OMP_NUM_THREADS=1 OMP_PROC_BIND=false mpiexec.mpich -n "$ranks" "$bin" --deck "inputs/pstswm/$deck.yaml" \
        "${sets[@]}" 2>&1)
      sp=$(awk '$1=="timestep/spectral"{print $6}' <<<"$out"); gp=$(awk '$1=="timestep/grid_point"{print $6}' <<<"$out")
      ft=$(sed -n 's/.*per step \[ms\]: FFT+fold \([0-9.]*\)  LT \([0-9.]*\) .*/\1 \2/p' <<<"$out")
      total=$(sed -n 's/.*per step \[ms\]: .*(total \([0-9.]*\)).*/\1/p' <<<"$out")
      each=$(sed -n 's/.* field transforms per step .*: \([0-9.]*\) ms each/\1/p' <<<"$out")
      l2=$(sed -n 's/.*normalized l2 height error .* value \([^ ]*\) .*/\1/p' <<<"$out")
      echo "np$ranks $deck${extra:+ $extra} | $which $round | $(python3 -c "print(f'{1e3*$sp/$steps:.3f} {1e3*${gp:-0}/$steps:.3f}')") $ft $each $total | $l2" | tee -a "$log"
    done
  done
done
python3 - "$log" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(lambda: {"old": [], "new": []})
for line in open(sys.argv[1]):
    case, which, values, _ = (part.strip() for part in line.split("|"))
    runs[case][which.split()[0]].append([float(v) for v in values.split()])
names = ["spectral", "grid-point", "FFT+fold", "LT", "per field transform", "total"]
print("medians old -> new, and per-round speed-ups new / old: median (min-max)")
for case, r in runs.items():
    cols = []
    for i, name in enumerate(names):
        old, new = [x[i] for x in r["old"]], [x[i] for x in r["new"]]
        if max(old + new) == 0:
            continue
        up = [o / n for o, n in zip(old, new)]
        cols.append(f"{name} {statistics.median(old):.4g} -> {statistics.median(new):.4g} "
                    f"{statistics.median(up):.2f}x ({min(up):.2f}-{max(up):.2f})")
    print(f"{case}: " + "; ".join(cols))
PY
