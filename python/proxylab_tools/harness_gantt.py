"""./proxylab gantt TRACE.json: the seeds' task Gantt chart and busy / communicate / idle utilization.

    ./proxylab run pop --ranks 4 --trace pop.trace.json && ./proxylab gantt pop.trace.json

The trace is the Chrome trace JSON an app writes with --trace: complete events {"ph": "X", "name",
"cat": compute|communication|io|other, "ts", "dur" (microseconds), "pid": rank}. Timer regions nest
(a halo exchange inside a solver step), so their spans overlap on one rank; every instant is given to the
innermost span open at that instant (the leaf region), which makes the shares of one rank add up to 100 %.
Time inside no timer region at all (between regions, in untimed code, waiting at an untimed barrier) is
"idle / untimed". The window is the same for all ranks: first span start to last span end over all ranks.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from .cli import format_table
from .trace_analysis import CATEGORIES, Span, analyse, leaf_segments, load_trace, utilization, window  # noqa: F401

TOOL = "gantt"
def region_table(leaves: dict[int, list[Span]], top: int = 8) -> list[list[str]]:
    """The leaf regions with the most time: per-rank min and max (which rank), the imbalance the seeds look for."""
    per: dict[tuple[str, str], dict[int, float]] = {}
    for r, segs in leaves.items():
        for s in segs:
            d = per.setdefault((s.name, s.cat), {})
            d[r] = d.get(r, 0.0) + (s.t1 - s.t0)
    rows = []
    for (name, cat), d in sorted(per.items(), key=lambda kv: -sum(kv[1].values()))[:top]:
        full = {r: d.get(r, 0.0) for r in leaves}
        rmin, rmax = min(full, key=full.get), max(full, key=full.get)
        rows.append([name, cat, f"{sum(full.values()) / len(full) * 1e3:.3f}", f"{full[rmin] * 1e3:.3f} (rank {rmin})",
                     f"{full[rmax] * 1e3:.3f} (rank {rmax})"])
    return rows


def pct(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.1f}" if whole > 0 else "-"


def format_report(a: dict, max_rows: int = 32) -> str:
    """Utilization per rank (beyond max_rows ranks: those with the most communication), the extremes, and the
    leaf regions with their fastest and slowest rank."""
    t0, t1 = a["window"]
    util = a["utilization"]
    shown = list(util)
    head = f"window {(t1 - t0) * 1e3:.3f} ms, {len(util)} rank(s), {a['spans']} spans"
    if len(shown) > max_rows:
        shown = sorted(shown, key=lambda r: -util[r]["communication"])[:max_rows]
        head += f"; the {max_rows} ranks with the most communication (--all-ranks for every rank)"
    rows = []
    for r in shown:
        u = util[r]
        w = u["window"]
        rows.append([str(r), pct(u["compute"], w), pct(u["communication"], w), pct(u["io"] + u["other"], w),
                     pct(u["idle"], w), f"{(w - u['idle']) * 1e3:.3f}"])
    lines = [head, format_table(rows, ["rank", "busy % (compute)", "communicate %", "io/other %", "idle/untimed %",
                                       "in regions [ms]"])]
    if len(util) > 1:
        comm = {r: u["communication"] / u["window"] if u["window"] else 0.0 for r, u in util.items()}
        busy = {r: u["compute"] for r, u in util.items()}
        worst = max(comm, key=comm.get)
        slow = max(busy, key=busy.get)
        mean_busy = sum(busy.values()) / len(busy)
        lines.append(f"most communication: rank {worst} ({100 * comm[worst]:.1f} %, mean "
                     f"{100 * sum(comm.values()) / len(comm):.1f} %); most compute: rank {slow} "
                     f"({busy[slow] * 1e3:.3f} ms vs mean {mean_busy * 1e3:.3f} ms: "
                     f"load imbalance {100 * (busy[slow] - mean_busy) / busy[slow] if busy[slow] else 0:.1f} %)")
    lines += ["", "leaf regions (time per rank):",
              format_table(region_table(a["leaves"]), ["region", "category", "mean [ms]", "min [ms]", "max [ms]"])]
    return "\n".join(lines)


# ---- command ----------------------------------------------------------------------------------------
def register(subparsers) -> None:
    sp = subparsers.add_parser("gantt", help="per-rank timeline (compute vs communication) and utilization of a trace",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("trace", help="Chrome trace JSON written by an app's --trace")
    sp.add_argument("--out", help="PNG to write (default: the trace's name with .png)")
    sp.add_argument("--color-by", choices=["category", "region"], default="category",
                    help="colour the timeline by category (compute/communication/...) or by region name (the 10 "
                         "regions with the most time)")
    sp.add_argument("--all-ranks", action="store_true", help="print every rank (default: at most 32)")
    sp.add_argument("--no-plot", action="store_true", help="print the utilization table only")
    sp.set_defaults(func=main)


def main(args) -> int:
    from . import harness_common as hc
    from .output_files import require_writable
    from .run_files import INPUT, OUTPUT, RunFile, require_distinct
    path = Path(args.trace)
    if not args.no_plot:
        png = Path(args.out) if args.out else path.with_suffix(".png")
        require_writable(png, "--out")
        require_distinct([RunFile("trace", path, INPUT), RunFile("--out", png, OUTPUT)])
    try:
        a = analyse(path)
    except ValueError as e:  # load_trace's and json_input's: they say what is wrong
        hc.log(TOOL, f"cannot read trace '{path}': {e} (expected the Chrome trace JSON of an app's --trace)")
        return 2
    if not a["spans"]:
        hc.log(TOOL, f"trace '{path}' has no spans (was the run made with --trace and timers on?)")
        return 2
    print(f"{path}: busy / communicate / idle per rank (innermost timer region at each instant)")
    print(format_report(a, max_rows=len(a["utilization"]) if args.all_ranks else 32))
    print(f"\nInteractive view: open {path} in https://ui.perfetto.dev (Open trace file), one track per rank.")
    if not args.no_plot:
        from . import plots
        # the report above is the result; a chart that cannot be drawn is said so (docs/harness.md)
        hc.log(TOOL, plots.run_plot(TOOL, path, png, command=hc.command_line(), extra=["--by", args.color_by])[1])
    return 0
