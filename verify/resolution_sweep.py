#!/usr/bin/env python3
"""Every proxy verifies at resolutions and parameters no deck in inputs/ has: odd, prime and non-square grids, 1-4
ranks; solver tolerances, time steps, physical parameters and step caps.

A correct run must pass its own checks at any size the deck schema allows (limits scale with the problem),
or be refused with exit 2 where a check cannot be meaningful; this runs each proxy's binary directly over such sizes
and fails when a run does not do what its case expects (verify, or be refused: the cases marked so). The quick set (default) is CI's regression test (regression.verify.resolution-
sweep, about a minute on 2 cores); --full is the documented benchmark (bench/reliability/README.md).

    python3 verify/resolution_sweep.py --bin build/openmp/bin [--full] [--mpiexec mpiexec.mpich]

Standard library only. Ranks beyond the cores run oversubscribed, unbound, 1 thread each: correctness, not speed.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (app, deck, --set overrides, rank counts[, "refused"]); each a size no deck has. A case marked "refused" must be
# refused with exit 2 (a configuration its checks cannot judge); every other case must verify.
QUICK = [
    ("pop", "small", ["grid.nx=37", "grid.ny=29"], [1, 3]),
    ("pop", "small", ["grid.nx=61", "grid.ny=30"], [2]),
    ("pstswm", "small", ["model.truncation=7"], [1, 3]),
    ("pstswm", "small", ["model.truncation=13", "model.case=case6"], [2]),
    ("pstswm", "small", ["model.truncation=17", "parallel.algorithm=distributed"], [4]),
    ("evh1", "sod", ["grid.nx=97"], [1, 3]),
    ("evh1", "sod", ["sod.direction=y", "grid.nx=8", "grid.ny=131"], [2]),
    ("evh1", "toro-3", ["grid.nx=61"], [1]),
    ("evh1", "sod-oblique", ["grid.nx=67", "grid.ny=67"], [4]),
    ("evh1", "sedov-128", ["grid.nx=53", "grid.ny=41"], [1, 3]),
    ("evh1", "sedov-cyl-128", ["grid.nx=41", "grid.ny=67"], [2]),
    ("evh1", "sedov-sph-128", ["grid.nx=37", "grid.ny=29", "evh1.algorithm=halo"], [4]),
    ("evh1", "advection", ["grid.nx=37", "grid.ny=53", "time.t_end=0.3"], [1, 3]),
    ("fft3d", "small", ["fft3d.nx=13", "fft3d.ny=11", "fft3d.nz=7"], [1, 3]),
    ("fft3d", "small", ["fft3d.nx=17", "fft3d.ny=19", "fft3d.nz=23", "fft3d.decomposition=pencil"], [4]),
    ("fft3d", "nas_S", ["fft3d.nx=31", "fft3d.ny=29", "fft3d.nz=37", "fft3d.iterations=2"], [2]),
    ("stream", "small", ["stream.n=10007"], [3]),
    ("pop", "small", ["grid.nx=97", "grid.ny=71"], [4]),
    ("fft3d", "small", ["fft3d.nx=67", "fft3d.ny=53", "fft3d.nz=41"], [2]),
    ("evh1", "sedov-cyl-128", ["grid.nx=97", "grid.ny=61"], [1], "refused"),  # the blast reaches the z walls
    ("pstswm", "small", ["model.truncation=1"], [1], "refused"),  # T1 cannot hold case 2's height field
]

# Parameter sweeps: solver tolerances, time steps, physical parameters and step caps at values no deck uses; the
# limits follow them (pop's from solver.crit and grid.dt, evh1's Sedov from gamma and the source), or the run is
# refused where its checks cannot judge it. Part of the quick set.
PARAMETERS = [
    ("pop", "small", ["solver.crit=1e-9"], [2]),  # a looser criterion: a larger guaranteed error
    ("pop", "small", ["solver.name=pcsi", "grid.dt=1e6"], [1]),  # a long time step: a worse-conditioned operator
    ("pop", "small", ["solver.name=chrongear", "solver.crit=0", "solver.max_iters=3000", "solver.check_freq=3000"],
     [1]),  # benchmark mode run far past convergence between two checks
    ("pop", "small", ["grid.dt=1e6", "solver.crit=1e-11"], [1], "refused"),  # a criterion that guarantees nothing
    ("pop", "small", ["grid.lat_south=-89", "grid.lat_north=-72"], [1], "refused"),  # all land
    ("pstswm", "small", ["time.dt=1800", "time.days=0.5"], [2]),  # a fixed step near the stability limit
    ("pstswm", "small-case6", ["model.asselin=0.5"], [1]),  # the strongest filter: a lower limit, a shorter step
    ("pstswm", "small-case6", ["time.dt=4000"], [1], "refused"),  # beyond it
    ("pstswm", "small", ["time.dt=1800", "time.days=0.01"], [1], "refused"),  # a step longer than the run
    ("evh1", "sedov-128", ["grid.nx=64", "grid.ny=64", "hydro.gamma=1.1"], [1]),
    ("evh1", "sedov-128", ["grid.nx=64", "grid.ny=64", "hydro.gamma=5", "time.t_end=0.04"], [2]),
    ("evh1", "sedov-cyl-128", ["grid.nx=41", "grid.ny=81", "hydro.gamma=1.6666667"], [1]),
    ("evh1", "sedov-128", ["grid.nx=64", "grid.ny=64", "sedov.radius_zones=0.5"], [1]),  # even grid, a sub-zone source
    ("evh1", "sedov-128", ["grid.nx=65", "grid.ny=65", "sedov.radius_zones=3"], [2]),  # odd grid
    ("evh1", "sedov-128", ["time.max_steps=3"], [1]),  # stopped before the blast forms
    ("evh1", "sedov-128", ["grid.nx=64", "grid.ny=64", "sedov.p0=10"], [1], "refused"),  # no strong shock
    ("evh1", "advection", ["bc.x=reflect"], [1], "refused"),  # the exact solution assumes periodic boundaries
]

# The benchmark: larger and more sizes, every rank count 1-4 (among them the sizes at which runs used to fail).
FULL = QUICK + [
    ("pop", "small", ["grid.nx=97", "grid.ny=71"], [1, 2, 3]),
    ("pop", "x1", ["grid.nx=331", "grid.ny=397"], [1, 4]),
    ("pstswm", "small", ["model.truncation=31", "time.days=1"], [1, 2, 3, 4]),
    ("pstswm", "T42L18-case6", ["model.truncation=63", "time.days=0.5"], [1, 4]),
    ("evh1", "sod-oblique", ["grid.nx=384", "grid.ny=384"], [1, 2, 4]),
    ("evh1", "sod-oblique", ["grid.nx=640", "grid.ny=640"], [2]),
    ("evh1", "demo", ["grid.nx=384", "grid.ny=384"], [2]),
    ("evh1", "advection", ["grid.nx=100", "grid.ny=30"], [1, 2, 3, 4]),
    ("evh1", "advection", ["grid.nx=60", "grid.ny=90"], [1, 3]),
    ("evh1", "sod", ["grid.nx=97"], [2, 4]),
    ("evh1", "sedov-128", ["grid.nx=50", "grid.ny=50"], [1, 2, 3, 4]),
    ("evh1", "sedov-128", ["grid.nx=131", "grid.ny=97"], [2, 4]),
    ("evh1", "sedov-cyl-128", ["grid.nx=97", "grid.ny=131"], [2]),
    ("evh1", "sedov-sph-128", ["grid.nx=97", "grid.ny=61"], [2]),
    ("evh1", "toro-1", ["grid.nx=193"], [1, 3]),
    ("evh1", "toro-4", ["grid.nx=97"], [2]),
    ("fft3d", "small", ["fft3d.nx=67", "fft3d.ny=53", "fft3d.nz=41"], [1, 3, 4]),
    ("fft3d", "small", ["fft3d.nx=96", "fft3d.ny=96", "fft3d.nz=96", "fft3d.decomposition=pencil"], [4]),
    ("fft3d", "small", ["fft3d.nx=125", "fft3d.ny=125", "fft3d.nz=125"], [2]),
]


def run(binary: Path, mpiexec: str, ranks: int, deck: Path, sets: list[str], timeout: float) -> tuple[int, str, float]:
    cmd = [mpiexec, "-n", str(ranks), str(binary), "--deck", str(deck), "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr, time.perf_counter() - t0
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout} s", time.perf_counter() - t0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=str(ROOT / "build" / "openmp" / "bin"), help="folder of the proxylab-* binaries")
    ap.add_argument("--mpiexec", default=os.environ.get("PROXYLAB_MPIEXEC", "mpiexec.mpich"))
    ap.add_argument("--full", action="store_true", help="the benchmark's larger set (minutes)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run")
    args = ap.parse_args(argv)
    cases = (FULL if args.full else QUICK) + PARAMETERS
    failed, total = [], 0
    t_all = time.perf_counter()
    print(f"{'proxy':7} {'deck':14} {'ranks':5} {'time':>7}  result  overrides")
    for app, deck_name, sets, rank_counts, *expect in cases:
        want_refusal = expect == ["refused"]
        binary = Path(args.bin) / f"proxylab-{app}"
        if not binary.exists():
            print(f"{app:7} (not built: {binary}; skipped)")
            continue
        deck = ROOT / "inputs" / app / f"{deck_name}.yaml"
        for ranks in rank_counts:
            total += 1
            rc, out, seconds = run(binary, args.mpiexec, ranks, deck, sets, args.timeout)
            verified = rc == 0 and "VERIFICATION: PASSED" in out
            refused = rc == 2 and "bad input" in out  # a check that cannot be meaningful, said so
            result = "PASSED" if verified else "refused" if refused else f"FAILED (exit {rc})"
            print(f"{app:7} {deck_name:14} {ranks:5} {seconds:6.1f}s  {result:7} {' '.join(sets)}", flush=True)
            if refused:
                print("        " + next(ln for ln in out.splitlines() if "bad input" in ln))
            if (refused if want_refusal else verified) is False:
                failed.append((app, deck_name, ranks, sets))
                print("\n".join("        " + ln for ln in out.strip().splitlines()[-12:]))
    print(f"\n{total - len(failed)} of {total} runs did as expected (verified, or refused with a reason), "
          f"{time.perf_counter() - t_all:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
