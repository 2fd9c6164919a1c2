"""./proxylab perturbation: what the measurement itself costs (the seeds' "Measurement Gotchas": run with
timers both enabled and disabled, to determine perturbation).

    ./proxylab perturbation pop --deck inputs/pop/small.yaml --ranks 2 --repeat 5

Three settings run interleaved: timers off (--no-timers: no regions, no fences, the reference), timers on
(the default: every region fences and reads the clock) and timers on with a trace (--trace: every region
also stores a span). The figure of merit and the run time of each are compared with the reference as the
median of back-to-back pairs; perturbation = (setting / reference - 1) in percent.
"""
from __future__ import annotations

import argparse
import math

from . import harness_common as hc
from . import output_files, stats
from .cli import format_table
from .harness_compare import summarize

TOOL = "perturbation"
SETTINGS = [("timers off", "--no-timers"), ("timers on", "default"), ("timers + trace", "--trace")]


def trace_name(ranks: int, threads: int) -> str:
    """The trace kept for gantt in the results folder: that of the last traced run of this count that verified."""
    return f"trace-{ranks}x{threads}.json"


def plan(ranks: list[int], threads: list[int], repeat: int, folder) -> list[hc.Planned]:
    """The traced run writes beside the kept trace (.part) and replaces it only when it verified (hc.settle_outputs):
    a run cut short by Ctrl-C or --timeout, or failed, leaves no partial trace for gantt."""
    todo = []
    for p in ranks:
        for t in threads:
            kept = folder / trace_name(p, t)
            written = kept.with_name(kept.name + ".part")
            for r in range(repeat):
                todo += [hc.Planned(SETTINGS[0][0], [], p, t, r, ["--no-timers"]),
                         hc.Planned(SETTINGS[1][0], [], p, t, r),
                         hc.Planned(SETTINGS[2][0], [], p, t, r, ["--trace", str(written)], outputs=[(written, kept)])]
    return todo


def perturbation_rows(summary: dict) -> list[list[str]]:
    """One row per configuration, setting and metric (FOM and run time): median, spread, perturbation %."""
    rows = []
    for key, c in summary.items():
        for m in c["metrics"]:
            if not (m["metric"].startswith("FOM") or m["metric"].startswith("run time")):
                continue
            for label, flag in SETTINGS:
                v = m["variants"].get(label)
                if v is None:
                    continue
                pert = 100.0 * (v["ratio"] - 1.0) if not math.isnan(v["ratio"]) else math.nan
                rows.append([f"{c['ranks']} x {c['threads']}", m["metric"], f"{label} ({flag})", str(v["n"]),
                             stats.fmt(v["median"]), stats.fmt(v["min"]), stats.fmt(v["max"]), v["verdict"],
                             "reference" if label == SETTINGS[0][0] else f"{pert:+.2f}"])
    return rows


def register(subparsers) -> None:
    sp = subparsers.add_parser("perturbation", help="timers and trace on vs off: what the measurement costs",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    hc.add_common_arguments(sp, repeat=5)
    sp.set_defaults(func=main)


def main(args) -> int:
    problem = hc.check_runnable(args)
    if problem:
        hc.log(TOOL, problem)
        return 2
    traces = [trace_name(p, t) for p in args.ranks for t in args.threads]
    folder = hc.out_dir(TOOL, args, ("records.json", "runs.csv", "perturbation.png", *traces))
    for name in traces:  # a trace an earlier command left in this folder must not pass for one of this command
        output_files.remove_stale(folder / name)
    labels = [label for label, _ in SETTINGS]
    todo = plan(args.ranks, args.threads, args.repeat, folder)
    hc.log(TOOL, f"{args.app}: timers off / on / on + trace x {args.repeat} repeat(s) = {len(todo)} runs on "
                 f"{hc.machine_line(hc.machine())}")
    results = folder / "records.json"
    runs, status, summary, fom_name = hc.run_variants(TOOL, args, todo, labels, lambda done: summarize(done, labels),
                                                      results)
    if status == "bad input":
        return hc.stop_after_bad_input(TOOL, results, runs)
    print()
    print(f"{args.app} {hc.deck_label(args)}: perturbation by the measurement ({status})")
    print(format_table(perturbation_rows(summary), ["ranks x threads", "metric", "setting", "n", "median", "min", "max",
                                                    "verdict", "perturbation %"]))
    overheads = [r["record"].get("timer_overhead_s") for r in runs if r.get("record")]
    overhead = stats.median(overheads)
    if not math.isnan(overhead):
        print(f"one timer start/stop pair costs {overhead * 1e9:.0f} ns (measured by the binary); FOM: {fom_name}")
    print("perturbation = median over repeats of (setting / timers off) - 1, runs made back to back; verdict: resolved\n"
          "when every back-to-back pair lies on one side of 1, else within the noise (docs/harness.md, 'Verdicts').")
    kept = [str(folder / name) for name in traces if (folder / name).exists()]
    hc.log(TOOL, f"the last verified trace of each rank count (for ./proxylab gantt): {', '.join(kept)}" if kept else
           "no trace kept: no traced run verified")
    return hc.finish(TOOL, args, runs, status, results, folder / "perturbation.png")
