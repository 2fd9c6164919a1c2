#!/usr/bin/env python3
"""EVH1 benchmark: the mappings (pencil vs batched with 4, 8, 16 lanes) at 1 rank x 1 thread, and the
parallel algorithms (transpose vs halo) at 1, 2, 4 ranks. Median of --repeats runs per configuration.

  python3 bench/evh1/run.py [--bin build/evh1/bin/proxylab-evh1] [--repeats 3] > table.md

Sedov blast decks with a fixed number of steps (time.max_steps); the radius/jump checks against R(t)
need the full run to t = 0.1, so they are relaxed here (conservation and symmetry still verify).
FOM = zone-cycles per second (zones x steps / wall time; a step is one x and one y sweep).
Kernel phase times are per-thread sums inside the sweep kernel; communication = halo exchanges or
transposes (slowest rank). Performance is never asserted (tests do not).
"""
import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from proxylab_tools import runner, stats  # noqa: E402  (the project's launcher: MPICH mpiexec, environment, JSON record)

RELAX = ["verify.sedov_radius=100", "verify.sedov_jump=0.01", "verify.diagonal=1", "verify.mirror=1e-6"]


def run(binary, ranks, sets, threads=1):
    return runner.verified_record("evh1", ranks, threads, None, list(sets) + RELAX, exe=binary)


def median(binary, ranks, sets, repeats):
    recs = [run(binary, ranks, sets) for _ in range(repeats)]
    return stats.median_item(recs, key=lambda r: r["fom"]["value"]), sorted(r["fom"]["value"] for r in recs)


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/evh1/bin/proxylab-evh1")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--map-n", type=int, default=512)
    ap.add_argument("--map-steps", type=int, default=10)
    ap.add_argument("--par-n", type=int, default=256)
    ap.add_argument("--par-steps", type=int, default=20)
    ap.add_argument("--mappings-only", action="store_true", help="skip the parallel-algorithm table")
    ap.add_argument("--map-algorithm", default="transpose", choices=["transpose", "halo"],
                    help="parallel algorithm of the mapping table (halo: y sweeps gather columns)")
    args = ap.parse_args()
    n = args.map_n
    print(f"### Mappings: Sedov {n}x{n}, {args.map_steps} steps, 1 rank x 1 thread, algorithm {args.map_algorithm}\n")
    print(f"Runs interleaved (pencil, batched 4, 8, 16, then again: load hits all alike); load average before: "
          f"{load()}\n")
    print("| mapping | lanes | Mzone-cycles/s (median) | runs | parabola s | riemann s | evolve s | remap s | "
          "communication s | vs pencil (median of per-round ratios) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    configs = [("pencil", 8), ("batched", 4), ("batched", 8), ("batched", 16)]
    recs = {c: [] for c in configs}
    for _ in range(args.repeats):
        for mapping, lanes in configs:
            sets = [f"grid.nx={n}", f"grid.ny={n}", f"time.max_steps={args.map_steps}", f"evh1.mapping={mapping}",
                    f"evh1.lanes={lanes}", f"evh1.algorithm={args.map_algorithm}"]
            recs[(mapping, lanes)].append(run(args.bin, 1, sets))
    for mapping, lanes in configs:
        rs = recs[(mapping, lanes)]
        foms = [r["fom"]["value"] for r in rs]
        rec = sorted(rs, key=lambda r: r["fom"]["value"])[len(rs) // 2]
        fom, ph = rec["fom"]["value"], rec["results"]["phases_s"]
        ratio = stats.median(f / p for f, p in zip(foms, (r["fom"]["value"] for r in recs[configs[0]])))
        print(f"| {mapping} | {lanes if mapping == 'batched' else 1} | {fom / 1e6:.3f} | "
              f"{' '.join(f'{x / 1e6:.3f}' for x in foms)} | {ph['parabola']:.3f} | {ph['riemann']:.3f} | "
              f"{ph['evolve']:.3f} | {ph['remap']:.3f} | {rec['results']['communication_s']:.3f} | {ratio:.2f}x |",
              flush=True)
    print(f"\nLoad average after: {load()}")
    if args.mappings_only:
        return
    n = args.par_n
    print(f"\n### Parallel algorithms: Sedov {n}x{n}, {args.par_steps} steps, 1 thread per rank, mapping batched (8)\n")
    print("| ranks | algorithm | decomposition | Mzone-cycles/s (median) | wall s | communication s | exchanges |")
    print("|---|---|---|---|---|---|---|")
    for ranks in (1, 2, 4):
        for alg in ("transpose", "halo"):
            sets = [f"grid.nx={n}", f"grid.ny={n}", f"time.max_steps={args.par_steps}", f"evh1.algorithm={alg}"]
            rec, _ = median(args.bin, ranks, sets, args.repeats)
            r = rec["results"]
            print(f"| {ranks} | {alg} | {r['algorithm']} | {rec['fom']['value'] / 1e6:.3f} | {r['elapsed_s']:.2f} | "
                  f"{r['communication_s']:.3f} | {r['exchanges']} |", flush=True)


if __name__ == "__main__":
    main()
