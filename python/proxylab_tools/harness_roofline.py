"""./proxylab roofline: each proxy's main kernel placed under this machine's memory and compute ceilings.

    ./proxylab roofline [--out DIR] [--repeat 3] [--quick]

Runs at 1 rank x 1 thread: the STREAM probe (the memory ceiling: triad GB/s), pstswm with its DGEMM
measurement (the compute ceiling: a 1024^3 DGEMM's GFLOP/s) and its Legendre transform as `gemm` and as `loop`,
pop's tenth-degree benchmark (PCG, fused kernels, team mapping) and fft3d on 128^3. Every run must verify.
Each point is an arithmetic intensity I (flop per byte of compulsory memory traffic) and the GFLOP/s achieved:

- STREAM triad a = b + s c: 2 flops per 24 bytes (STREAM's counting); GFLOP/s = I x triad GB/s.
- pop: the record's flops and bytes per iteration of the operator and vector kernels (counted by the solver as
  it runs them: per point, each kernel's operations and the arrays it streams; the fused PCG does 29 flops on 16
  arrays per plain iteration): I = flops / bytes; GFLOP/s = I x the record's kernel GB/s (bench.stream).
- pstswm Legendre transform: the record's flops per step over its compulsory bytes per step (the table, the
  Fourier and the spectral arrays each touched once); GFLOP/s from the record.
- fft3d: 5 N log2 N flops per transform on three local FFT passes, each reading and writing N complex
  doubles: I = 5 log2 N / 96 (transposes not counted); GFLOP/s from the record.
EVH1 is not placed: its record has no flop count.

The memory roof is what triad moves, not what STREAM counts: its store first reads the line it writes
(write-allocate; the binaries have no streaming stores), so 24 counted bytes are 32 moved, and a kernel that reads
more than it writes (pop's operator and dot products) reaches up to 4/3 of triad's counted GB/s from memory. The
roof at intensity I is min(DGEMM, I x triad x 32/24); the plot also draws triad as counted. A point's fraction of
its roof says how much of the machine the kernel uses, whichever ceiling binds. A point above its roof has its
data (the bytes of one iteration, step or transform: at most its working set) in the last-level cache (the size
the STREAM record reports): the DRAM roof does not bound it, and the table and plot say so (--quick runs small
cases that fit); above the DGEMM roof, the flop count is nominal (fft3d's) or DGEMM ran slow. Each run is
repeated (--repeat, interleaved) and the repeat with the median GFLOP/s is used (for the ceilings too).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import launch, output_files, runner
from .roofline_analysis import analyse, format_table, median_record

TOOL = "roofline"


def runs(quick: bool) -> list[tuple[str, str | None, list[str]]]:
    """(app, deck, --set overrides) of the runs, in order: the ceilings first."""
    pst_steps = "time.steps=2" if quick else "time.steps=10"
    return [
        ("stream", "inputs/stream/default.yaml", ["stream.n=4194304"] if quick else []),
        ("pstswm", "inputs/pstswm/T85L18-case2.yaml", [pst_steps, "perf.measure_dgemm=true", "transform.lt=gemm"]),
        ("pstswm", "inputs/pstswm/T85L18-case2.yaml", [pst_steps, "transform.lt=loop"]),
        # the tenth grid: 1.3 GB streamed per iteration, far beyond the caches (x1's 20 MB would fit the L3)
        ("pop", "inputs/pop/x1-bench.yaml" if quick else "inputs/pop/tenth-bench.yaml",
         ["solver.max_iters=20"] if quick else ["solver.name=pcg"]),
        ("fft3d", "inputs/fft3d/128cube.yaml", ["fft3d.nx=32", "fft3d.ny=32", "fft3d.nz=32"] if quick else []),
    ]


def register(subparsers) -> None:
    sp = subparsers.add_parser("roofline", help="each proxy's kernel under this machine's memory and DGEMM ceilings",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("--out", default="roofline", help="folder for roofline.json and roofline.png (default: roofline)")
    sp.add_argument("--quick", action="store_true", help="small sizes (seconds; for tests, not for numbers)")
    sp.add_argument("--repeat", type=int, default=3, help="runs of each; the one with the median GFLOP/s is used")
    sp.add_argument("--preset", default=runner.DEFAULT_PRESET, help="build to use (default openmp)")
    sp.add_argument("--no-plot", action="store_true", help="print the table only")
    sp.add_argument("--launcher", default="", metavar="NAME|TEMPLATE",
                    help="how the 1-rank runs start (default: PROXYLAB_LAUNCHER, else mpiexec)")
    sp.set_defaults(func=main)


def main(args) -> int:
    from . import harness_common as hc
    from . import plots
    for app in ("stream", "pstswm", "pop", "fft3d"):
        missing = hc.check_runnable(argparse.Namespace(app=app, preset=args.preset, repeat=1, deck=None))
        if missing:
            hc.log(TOOL, missing)
            return 2
    if args.repeat < 1:
        hc.log(TOOL, f"--repeat {args.repeat}: must be at least 1")
        return 2
    out = Path(args.out)
    try:  # before minutes of runs, not after
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        hc.log(TOOL, f"--out '{out}': cannot create the folder ({e})")
        return 2
    for name in ("roofline.json", "roofline.png"):
        output_files.require_writable(out / name, "--out:")
    plan = runs(args.quick)
    repeats: list[list[dict]] = [[] for _ in plan]
    for rep in range(args.repeat):  # interleaved, as compare runs variants, so drift hits every kernel alike
        for i, (app, deck, sets) in enumerate(plan):
            hc.log(TOOL, f"repeat {rep + 1}/{args.repeat}, run {i + 1}/{len(plan)}: {app} {deck} {' '.join(sets)}")
            try:
                res = runner.run_app(app, 1, 1, deck, sets, quiet=True, preset=args.preset,
                                     launch=launch.LaunchOptions(args.launcher))
            except KeyboardInterrupt:
                res = None
            if res is None or res.returncode == runner.EXIT_INTERRUPTED:  # not a failed verification: no table
                hc.log(TOOL, f"interrupted during {app} (repeat {rep + 1}/{args.repeat}): nothing written")
                return runner.EXIT_INTERRUPTED
            if not res.verified or not res.record:
                hc.log(TOOL, f"{app} did not verify (exit {res.returncode}): {' '.join(res.command)}")
                return 1
            repeats[i].append(res.record)
    a = analyse([median_record(app, recs) for (app, _, _), recs in zip(plan, repeats)])
    a["repeat"] = args.repeat
    print(format_table(a))
    doc = {"tool": TOOL, "machine": hc.machine(), "command": hc.command_line(), **a}
    output_files.atomic_write(out / "roofline.json", json.dumps(hc.strict_json(doc), indent=1) + "\n")
    hc.log(TOOL, f"record: {out / 'roofline.json'}")
    if not args.no_plot:
        ok, msg = plots.run_plot(TOOL, out / "roofline.json", out / "roofline.png")
        hc.log(TOOL, msg)
    return 0
