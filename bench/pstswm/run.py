#!/usr/bin/env python3
"""PSTSWM benchmark: LT gemm vs loop vs the DGEMM rate measured in the same run, and the transpose vs
distributed parallel algorithms at 1, 2, 4 ranks. Median of --repeats runs per configuration.

  python3 bench/pstswm/run.py [--bin build/pstswm/bin/proxylab-pstswm] [--repeats 3] [--steps 20] > table.md

Each run writes a JSON record (--json); the table shows the per-step time split (FFT, Legendre
transform (with the fold/unfold), grid-point + spectral work, communication), the LT GFLOP/s per rank and its
fraction of DGEMM, and the communication volume per step. Performance is never asserted (tests do not).
"""
import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from proxylab_tools import runner, stats  # noqa: E402  (the project's launcher: MPICH mpiexec, environment, JSON record)

def run(binary, ranks, sets, threads):
    return runner.verified_record("pstswm", ranks, threads, None, sets, exe=binary)["results"]


def median_record(binary, ranks, sets, repeats, threads):
    recs = [run(binary, ranks, sets, threads) for _ in range(repeats)]
    return stats.median_item(recs, key=lambda r: r["per_step_s"]["total"])  # the run with the median total time

def ms(x):
    return f"{1e3 * x:.2f}"

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/pstswm/bin/proxylab-pstswm")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--lt-resolutions", default="42,85,170")
    ap.add_argument("--par-resolutions", default="42,85,170")
    args = ap.parse_args()
    base = lambda n: [f"model.truncation={n}", "model.levels=18", "model.case=case2", "model.alpha=0.05",
                      f"time.steps={args.steps}"]
    print("### Legendre transform variants (1 rank, 1 thread; DGEMM 1024^3 measured in the same run)\n")
    print("| case | LT | LT ms/step | LT GFLOP/s | DGEMM GFLOP/s | LT/DGEMM | FFT ms/step | FFT GFLOP/s | total ms/step |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in filter(None, args.lt_resolutions.split(",")):  # "" skips the table
        for lt, extra in [("gemm", []), ("loop", []), ("loop, fixed L", ["transform.fixed_levels=true"])]:
            sets = base(n) + [f"transform.lt={lt.split(',')[0]}", "perf.measure_dgemm=true"] + extra
            r = median_record(args.bin, 1, sets, args.repeats, 1)
            g, p = r["gflops_per_rank"], r["per_step_s"]
            print(f"| T{n}L18 | {lt} | {ms(p['legendre'])} | {g['legendre']:.2f} | {g['dgemm']:.2f} | "
                  f"{100 * r['lt_fraction_of_dgemm']:.0f}% | {ms(p['fft_fold'])} | {g['fft']:.2f} | {ms(p['total'])} |")
    print("\n### Parallel algorithms (LT gemm, 1 thread per rank)\n")
    print("| case | ranks | algorithm | total ms/step | FFT+fold | LT | grid+spectral | comm | comm MB/step |")
    print("|---|---|---|---|---|---|---|---|---|")
    algs = [("transpose", ["parallel.algorithm=transpose"]),
            ("distributed/allreduce", ["parallel.algorithm=distributed", "parallel.combine=allreduce"]),
            ("distributed/reduce_scatter", ["parallel.algorithm=distributed", "parallel.combine=reduce_scatter"]),
            ("distributed/ring", ["parallel.algorithm=distributed", "parallel.combine=ring"])]
    for n in filter(None, args.par_resolutions.split(",")):  # "" skips the table
        for ranks in (1, 2, 4):
            for name, extra in algs:
                r = median_record(args.bin, ranks, base(n) + extra, args.repeats, 1)
                p = r["per_step_s"]
                print(f"| T{n}L18 | {ranks} | {name} | {ms(p['total'])} | {ms(p['fft_fold'])} | {ms(p['legendre'])} | "
                      f"{ms(p['grid_point'])} | {ms(p['communication'])} | "
                      f"{r['communication_bytes_per_step'] / 1e6:.3f} |", flush=True)

if __name__ == "__main__":
    main()
