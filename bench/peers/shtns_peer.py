#!/usr/bin/env python3
"""The pstswm peer: SHTns scalar transforms on pstswm's own Gauss grid for truncation T, 1 thread.

  python shtns_peer.py T NLAT NLON [FIELDS]

Orthonormal harmonics, FFTW planned by SHTns (its default), the grid stored longitude-fastest like pstswm's.
Prints the median seconds of one synthesis (spectral -> grid) and one analysis (grid -> spectral) per field over
max(5, 2000 / T) rounds, and the round-trip error, which must be at rounding level (else exit 1). FIELDS (default 1)
distinct fields, each with its own arrays, are transformed in turn every round: 1 keeps the field in cache; pstswm's
levels x fields (90 at L18 with 5 fields) gives SHTns the data volume pstswm transforms per call.
"""
import statistics
import sys
import time

import numpy as np
import shtns


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    t, nlat, nlon = (int(a) for a in sys.argv[1:4])
    fields = int(sys.argv[4]) if len(sys.argv) == 5 else 1
    sh = shtns.sht(t, t, 1, shtns.sht_orthonormal + shtns.SHT_NO_CS_PHASE)
    sh.set_grid(nlat, nlon, shtns.sht_gauss | shtns.SHT_PHI_CONTIGUOUS, 1e-10)
    coeffs = sh.spec_array()
    rng = np.random.default_rng(1)
    coeffs[:] = rng.standard_normal(sh.nlm) + 1j * rng.standard_normal(sh.nlm)
    coeffs[: t + 1] = coeffs[: t + 1].real  # m = 0: real
    grid = sh.synth(coeffs)
    err = float(np.abs(sh.analys(grid) - coeffs).max())
    specs = [coeffs.copy() for _ in range(fields)]
    grids = [grid.copy() for _ in range(fields)]
    synth, analys = [], []
    for _ in range(max(5, 2000 // t)):
        t0 = time.perf_counter()
        for f in range(fields):
            sh.SH_to_spat(specs[f], grids[f])
        synth.append((time.perf_counter() - t0) / fields)
        t0 = time.perf_counter()
        for f in range(fields):
            sh.spat_to_SH(grids[f], specs[f])
        analys.append((time.perf_counter() - t0) / fields)
    print(f"T{t} {nlat}x{nlon}: synth {statistics.median(synth) * 1e3:.4f} ms, "
          f"analys {statistics.median(analys) * 1e3:.4f} ms, round trip error {err:.1e}")
    return 0 if err < 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
