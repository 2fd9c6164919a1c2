#!/usr/bin/env python3
"""Bound vs unbound ranks and threads (a benchmark, not a test): STREAM and pop x1 at 2 ranks x 1 thread and
1 rank x 2 threads, each launched by the front end's rule with binding (mpiexec -bind-to core:T, OMP_PROC_BIND=spread,
OMP_PLACES=cores) and without (--oversubscribe: no -bind-to, OMP_PROC_BIND=false). Runs are interleaved (bound,
unbound, bound, ... per configuration and repeat) so that load from other processes hits both alike; medians, min
and max of the FOM; the speed of bound relative to unbound as the median of the pairs run back to back (> 1: bound
is faster, whichever way the FOM points) with its min..max; the load average before and after.

    python3 bench/binding/run.py --repeats 5 > bench/binding/results.md
"""
import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from proxylab_tools import launch, runner, stats  # noqa: E402

CASES = [  # (label, app, deck, overrides)
    ("STREAM triad (400 MiB arrays)", "stream", "inputs/stream/default.yaml",
     ["stream.n=52428800", "stream.iterations=10"]),
    ("pop x1 PCG", "pop", "inputs/pop/x1.yaml", []),
]
SHAPES = [(2, 1), (1, 2)]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    env_bind = {k: os.environ.pop(k) for k in ("OMP_PROC_BIND", "OMP_PLACES") if k in os.environ}
    if env_bind:
        print(f"note: ignoring the caller's {env_bind} (the front end's rule is what is measured)", file=sys.stderr)
    foms: dict[tuple, list[float]] = {}
    units: dict[str, str] = {}
    load_before, t0 = load(), time.time()
    for rep in range(args.repeats):
        for label, app, deck, sets in CASES:
            for ranks, threads in SHAPES:
                for bound in (True, False):
                    opts = launch.LaunchOptions("mpiexec", oversubscribe=not bound)
                    r = runner.run_app(app, ranks, threads, deck, sets, quiet=True, launch=opts)
                    if not r.verified:
                        raise SystemExit(f"{label} {ranks}x{threads} bound={bound}: exit {r.returncode}\n"
                                         f"{r.stdout[-2000:]}{r.stderr[-2000:]}")
                    value, unit, _ = r.fom
                    units[label] = unit
                    foms.setdefault((label, ranks, threads, bound), []).append(value)
                    print(f"rep {rep + 1} {label} {ranks}x{threads} {'bound' if bound else 'unbound'}: {value:.4g} "
                          f"{unit}", file=sys.stderr, flush=True)
    load_after = load()
    print(f"{args.repeats} interleaved repeats, {time.time() - t0:.0f} s; load average (1, 5, 15 min) before "
          f"{load_before}, after {load_after}; {launch.cores_available()} cores\n")
    print("| case | ranks x threads | bound: median (min-max) | unbound: median (min-max) | "
          "bound speed vs unbound: median of pairs (min-max) |")
    print("|---|---|---|---|---|")
    for label, _, _, _ in CASES:
        for ranks, threads in SHAPES:
            b, u = foms[(label, ranks, threads, True)], foms[(label, ranks, threads, False)]
            up = stats.higher_is_better(units[label])
            pairs = [(x / y if up else y / x) for x, y in zip(b, u)]
            fmt = lambda v: f"{stats.median(v):.4g} ({min(v):.4g}-{max(v):.4g})"
            print(f"| {label} [{units[label]}, {'higher' if up else 'lower'} is better] | {ranks} x {threads} | "
                  f"{fmt(b)} | {fmt(u)} | {stats.median(pairs):.3f} ({min(pairs):.3f}-{max(pairs):.3f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
