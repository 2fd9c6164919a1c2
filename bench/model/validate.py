#!/usr/bin/env python3
"""The model against measurements on this machine (a benchmark, not a test): every proxy and main variant at 1 and
2 ranks x 1 thread, the best of --repeats runs (interleaved: 1 rank, 2 ranks, 1 rank, ...; best, not median: this
host flips between a fast and a slow state, in-cache triad 38 or 18 GB/s in back-to-back runs, and the machine
description and the calibrating run must come from the same state), predicted the way
./proxylab model predicts (counts at 1 and 9 ranks, or 4, costed on --machine; calibrated kernels calibrated on
the same machine from the counting run at 1 rank). Prints a Markdown table: measured and predicted seconds per
step, error % = (predicted - measured) / measured, for the kernels at their bound (./proxylab model's default) and
at the fraction of it measured in the fastest 1-rank run (--kernels calibrated: at 1 rank only the launches and the
other runs' spread can differ), and the bound prediction's split; then, at 1 rank, each kernel's measured seconds
(the record's model_counts) against its bound.

    python3 bench/model/validate.py --machine vm --repeats 5 > bench/model/validation.md
"""
import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from proxylab_tools import machine_file, runner, stats  # noqa: E402
from proxylab_tools import model as mdl  # noqa: E402
from proxylab_tools.cli import format_table  # noqa: E402

CASES = [  # (label, app, deck, overrides)
    ("pop PCG", "pop", "inputs/pop/x1.yaml", ["solver.max_iters=200", "solver.crit=0"]),
    ("pop P-CSI", "pop", "inputs/pop/x1.yaml", ["solver.name=pcsi", "solver.max_iters=200", "solver.crit=0"]),
    ("pstswm T42 transpose", "pstswm", "inputs/pstswm/T42L18-case2.yaml", ["time.steps=20"]),
    ("pstswm T42 distributed", "pstswm", "inputs/pstswm/T42L18-case2.yaml",
     ["time.steps=20", "parallel.algorithm=distributed"]),
    ("evh1 sedov-128 transpose", "evh1", "inputs/evh1/sedov-128.yaml", []),
    ("evh1 sedov-128 halo", "evh1", "inputs/evh1/sedov-128.yaml", ["evh1.algorithm=halo"]),
    ("fft3d 64^3 slab", "fft3d", "inputs/fft3d/64cube.yaml", []),
    ("fft3d 64^3 pencil", "fft3d", "inputs/fft3d/64cube.yaml", ["fft3d.decomposition=pencil"]),
]


def record(app, deck, sets, ranks):
    return runner.verified_record(app, ranks, 1, runner.ROOT / deck, sets)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--machine", default="vm")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    m = machine_file.load(args.machine)
    rows, kernel_rows, load0 = [], [], os.getloadavg()
    for label, app, deck, sets in CASES:
        measured = {1: [], 2: []}
        cal = None
        for _ in range(args.repeats):
            for p in (1, 2):
                rec = record(app, deck, sets, p)
                measured[p].append(mdl.seconds_per_step(app, rec))
                if p == 1 and (cal is None or measured[1][-1] < mdl.seconds_per_step(app, cal)):
                    cal = rec  # the fastest 1-rank run calibrates
        try:
            hi = mdl.counts_of(record(app, deck, sets, 9))
        except SystemExit:  # the deck does not decompose over 9 ranks
            hi = mdl.counts_of(record(app, deck, sets, 4))
        lo = mdl.counts_of(cal)
        costs = mdl.unit_costs(cal, m, m) if any(k["rate"] == "calibrated" for k in lo["kernels"]) else {}
        slow = mdl.kernel_slowdowns(cal, m)
        for p in (1, 2):
            pred = mdl.predict(mdl.counts_at(lo, hi, p), m, costs, mdl.launch_cost(m, m))
            calib = mdl.predict(mdl.counts_at(lo, hi, p), m, costs, mdl.launch_cost(m, m), slow)
            t = min(measured[p])  # best of the runs: the host flips between a fast and a slow state
            err = lambda q: f"{100 * (q['total'] - t) / t:+.0f}"
            rows.append([label, str(p), stats.fmt(t), stats.fmt(stats.median(measured[p])), stats.fmt(max(measured[p])),
                         stats.fmt(pred["total"]), err(pred), stats.fmt(calib["total"]), err(calib),
                         *(stats.fmt(pred[k]) for k in mdl.PARTS)])
            if p == 1:  # kernel by kernel: the record's measured seconds per step against the prediction
                for k in lo["kernels"]:
                    got, want = k["seconds"], pred["detail"].get(k["kernel"], 0.0)
                    kernel_rows.append([label, k["kernel"], k["rate"], stats.fmt(got), stats.fmt(want),
                                        f"{100 * (want - got) / got:+.0f}" if got > 0 else "-"])
                if pred["detail"].get("launches"):
                    kernel_rows.append([label, f"launches ({lo['launches']:.3g})", "launch", "-",
                                        stats.fmt(pred["detail"]["launches"]), "-"])
            print(f"{label} {p}: measured {t:.4g}, predicted {pred['total']:.4g}", file=sys.stderr, flush=True)
    print(f"Machine description: {m['name']} ({m['description']}); {args.repeats} runs per point, the best of them "
          f"compared (error % against it); load "
          f"average {' '.join(f'{x:.2f}' for x in load0)} before, {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          "after.\n")
    print("```")
    print(format_table(rows, ["case", "ranks", "best [s/step]", "median", "max", "bound", "error %", "calibrated",
                              "error %", "compute", "transpose", "halo", "reduction"]))
    print("```")
    print("\nKernel by kernel at 1 rank (the fastest run's record: model_counts.kernels[].seconds, the slowest rank's "
          "seconds per step):\n")
    print("```")
    print(format_table(kernel_rows, ["case", "kernel", "rate", "measured [s/step]", "predicted", "error %"]))
    print("```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
