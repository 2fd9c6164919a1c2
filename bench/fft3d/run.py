#!/usr/bin/env python3
"""fft3d benchmark: slab vs pencil and every transpose strategy at 1, 2, 4 ranks, the local FFT stage against
one serial FFTW 3-D plan over the same data, and the slab's local plans (fft3d.local) side by side. Median of
--repeats runs per configuration (the run with the median forward+inverse time is reported whole); the local plans
are run interleaved (one run of each per round).

  python3 bench/fft3d/run.py [--bin build/fft3d/bin/proxylab-fft3d] [--repeats 3] [--sizes 64,128]
                                 [--sections serial,strategies,local] > table.md

Each run writes a JSON record (--json). Times are per transform, max over ranks; GFLOP/s = 5 N log2 N / t.
The transpose bandwidth is the bytes all ranks sent (padding excluded) over the transpose time.
Performance is never asserted (tests do not).
"""
import argparse, os, sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from proxylab_tools import runner, stats  # noqa: E402  (the project's launcher: mpiexec line, environment, JSON record)

STRATEGIES = ["alltoallv", "alltoall", "pairwise", "nonblocking", "node_aware"]


def run(binary, ranks, sets, threads):
    os.environ["PROXYLAB_BUILD_DIR"] = str(Path(binary).resolve().parents[1])
    r = runner.run_app("fft3d", ranks=ranks, threads=threads, sets=sets, quiet=True)
    if not r.verified or not r.record:
        raise SystemExit("verification failed: " + " ".join(r.command))
    return r.record["results"]


def transform_seconds(results):
    return results["forward_seconds_median"] + results["inverse_seconds_median"]


def median_record(binary, ranks, sets, repeats, threads=1):
    """The whole record of the run whose forward+inverse time is the median of `repeats` runs."""
    return stats.median_item([run(binary, ranks, sets, threads) for _ in range(repeats)], key=transform_seconds)


def ms(seconds):
    """Milliseconds, two decimals (table cells)."""
    return "%.2f" % (seconds * 1000.0)


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, default in [("--bin", "build/fft3d/bin/proxylab-fft3d"), ("--sizes", "64,128"), ("--ranks", "1,2,4"),
                          ("--planning", "estimate"), ("--sections", "serial,strategies,local")]:
        options.add_argument(flag, default=default)
    for flag, default in [("--repeats", 3), ("--iterations", 10)]:
        options.add_argument(flag, type=int, default=default)
    args = options.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    ranks = [int(x) for x in args.ranks.split(",")]
    sections = args.sections.split(",")
    base = lambda n: [f"fft3d.nx={n}", f"fft3d.ny={n}", f"fft3d.nz={n}", "fft3d.mode=fft",
                      f"fft3d.iterations={args.iterations}", "fft3d.warmup=2", f"fft3d.planning={args.planning}"]

    if "serial" in sections:
        serial_section(args, sizes, base)
    if "strategies" in sections:
        strategies_section(args, sizes, ranks, base)
    if "local" in sections:
        local_plans_section(args, sizes, ranks, base)


def serial_section(args, sizes, base):
    print(f"### Local FFT stage vs one serial FFTW 3-D plan (1 rank, 1 thread, FFTW_{args.planning.upper()})\n")
    print("| grid | decomposition | local FFT ms | serial FFTW 3-D ms | local / serial speed | "
          "local FFT GFLOP/s | whole transform GFLOP/s |")
    print("|---|---|---|---|---|---|---|")
    for n in sizes:
        for d in ["slab", "pencil"]:
            r = median_record(args.bin, 1, base(n) + [f"fft3d.decomposition={d}", "fft3d.serial_baseline=true"],
                              args.repeats)
            print(f"| {n}^3 | {d} | {ms(r['per_transform_seconds']['local_fft'])} | {ms(r['library_3d_fft_seconds'])} "
                  f"| {r['local_fft_vs_library_pct']:.0f}% | {r['local_fft_gflops']:.2f} "
                  f"| {0.5 * (r['gflops_forward'] + r['gflops_inverse']):.2f} |", flush=True)



def strategies_section(args, sizes, ranks, base):
    print("\n### Decompositions x transpose strategies (1 thread per rank; per transform, max over ranks)\n")
    print("| grid | ranks | decomposition | strategy | fwd ms | inv ms | GFLOP/s | local FFT ms | pack ms | "
          "transpose ms | unpack ms | transpose GB/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        for p in ranks:
            for d in ["slab", "pencil"]:
                variants = [("alltoallv", [])] if p == 1 else [(s, [f"fft3d.transpose={s}"]) for s in STRATEGIES]
                if p == 4:
                    variants.append(("node_aware, 2-rank nodes",
                                     ["fft3d.transpose=node_aware", "fft3d.ranks_per_node=2"]))
                for name, extra in variants:
                    r = median_record(args.bin, p, base(n) + [f"fft3d.decomposition={d}"] + extra, args.repeats)
                    t = r["per_transform_seconds"]
                    shape = f"{d} {r['p_row']}x{r['p_col']}"
                    gf = 0.5 * (r["gflops_forward"] + r["gflops_inverse"])
                    print(f"| {n}^3 | {p} | {shape} | {name} | {ms(r['forward_seconds_median'])} "
                          f"| {ms(r['inverse_seconds_median'])} | {gf:.2f} | {ms(t['local_fft'])} | {ms(t['pack'])} "
                          f"| {ms(t['transpose'])} | {ms(t['unpack'])} | {r['transpose_gbs']:.2f} |", flush=True)


def local_plans_section(args, sizes, ranks, base):
    """The slab's local plans at each size and rank count, interleaved: one run of each per round."""
    print(f"\n### Slab local plans (fft3d.local; 1 thread per rank, FFTW_{args.planning.upper()}; per transform, "
          f"max over ranks; median of {args.repeats} interleaved rounds)\n")
    print("| grid | ranks | local plan | fwd+inv ms | GFLOP/s | local FFT ms | vs staged |")
    print("|---|---|---|---|---|---|---|")
    for n in sizes:
        for p in ranks:
            plans = ["staged", "planes"] + (["whole"] if p == 1 else [])
            runs = {plan: [] for plan in plans}
            for _ in range(args.repeats):
                for plan in plans:
                    runs[plan].append(run(args.bin, p, base(n) + ["fft3d.decomposition=slab", f"fft3d.local={plan}"],
                                          1))
            medians = {plan: stats.median_item(runs[plan], key=transform_seconds) for plan in plans}
            staged = transform_seconds(medians["staged"])
            for plan, r in medians.items():
                gf = 0.5 * (r["gflops_forward"] + r["gflops_inverse"])
                print(f"| {n}^3 | {p} | {plan} | {ms(transform_seconds(r))} | {gf:.2f} "
                      f"| {ms(r['per_transform_seconds']['local_fft'])} | {staged / transform_seconds(r):.2f}x |",
                      flush=True)


if __name__ == "__main__":
    main()
