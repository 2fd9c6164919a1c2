"""./proxylab sweep: strong or weak scaling over MPI rank counts, with parallel efficiency and a PNG.

    ./proxylab sweep pop --deck inputs/pop/small.yaml --ranks 1,2,4                       (strong: same problem)
    ./proxylab sweep evh1 --ranks 1,2,4 --mode weak --size-key grid.nx --sizes 64,128,256  (weak: size per count)
    ./proxylab sweep pop --ranks 1,2,4 --size-key grid.nx --sizes 128,256                   (strong, one curve per size)

Time is the run time of the record (the timed part of the run) or, with --region, the time of one timer region
on the slowest rank; the median of --repeat runs counts. Rank counts run interleaved within each repeat.
Strong scaling: E = T(p0) p0 / (T(p) p). Weak scaling: E = T(p0) / T(p), with --sizes giving the problem size
of each rank count in order (without --sizes the deck's size is taken to be per rank already, as in STREAM).
"""
from __future__ import annotations

import argparse
import math

from . import harness_common as hc
from . import stats
from .cli import format_table

TOOL = "sweep"


def curves(mode: str, ranks: list[int], size_key: str | None, sizes: list[str]) -> list:
    """[(label, [(ranks, deck overrides), ...])]: one curve per size in strong mode (all rank counts each), one
    curve pairing sizes with rank counts in weak mode."""
    if sizes and not size_key:
        raise ValueError("--sizes needs --size-key (the deck key the sizes set, e.g. grid.nx)")
    if mode == "weak":
        if sizes and len(sizes) != len(ranks):
            raise ValueError(f"weak scaling: --sizes has {len(sizes)} values for {len(ranks)} rank counts; "
                             "give one size per rank count, in the same order")
        if not sizes:
            return [("deck size per rank", [(p, []) for p in ranks])]
        return [(f"{size_key} grows with ranks", [(p, [f"{size_key}={s}"]) for p, s in zip(ranks, sizes)])]
    if not sizes:
        return [("deck size", [(p, []) for p in ranks])]
    return [(f"{size_key}={s}", [(p, [f"{size_key}={s}"]) for p in ranks]) for s in sizes]


def plan(cs, threads: int, repeat: int) -> list[hc.Planned]:
    return [hc.Planned(label, sets, p, threads, r, tags={"curve": label})
            for label, pts in cs for r in range(repeat) for p, sets in pts]


def run_time(record: dict | None, region: str | None) -> float | None:
    """The time a run is judged by: its region's slowest-rank time, or the record's run time."""
    if not record:
        return None
    if region:
        return next((t.get("max_s") for t in record.get("timers", []) if t.get("region") == region), None)
    return record.get("run_seconds")


def pair_efficiencies(runs: list[dict], label: str, mode: str, region: str | None, p_ref: int, p: int) -> list[float]:
    """The efficiency of each repeat's run at p against the same repeat's run at p_ref (made back to back)."""
    def times(ranks):
        return {r["repeat"]: run_time(r["record"], region) for r in runs
                if r["curve"] == label and r["ranks"] == ranks and r["verified"]}
    ref, mine = times(p_ref), times(p)
    return [stats.parallel_efficiency(mode, p_ref, ref[k], p, mine[k]) for k in sorted(ref.keys() & mine.keys())
            if ref[k] and mine[k]]


def summarize(runs: list[dict], cs, mode: str, region: str | None) -> list[dict]:
    """Per curve and rank count: median/min/max time of the verified runs, speedup and efficiency vs the first count."""
    out = []
    for label, pts in cs:
        points = []
        for p, sets in pts:
            mine = [r for r in runs if r["curve"] == label and r["ranks"] == p and r["verified"]]
            t = stats.summarize(run_time(r["record"], region) for r in mine)
            f = stats.summarize(r["fom"] for r in mine)
            points.append({"ranks": p, "sets": sets, "n": t.n if t else 0, "time": t.median if t else None,
                           "min": t.min if t else None, "max": t.max if t else None, "fom": f.median if f else None})
        ref = next((q for q in points if q["time"] is not None), None)
        for q in points:
            ok = ref is not None and q["time"] is not None
            q["speedup"] = stats.speedup(ref["time"], q["time"]) if ok else math.nan
            q["efficiency"] = stats.parallel_efficiency(mode, ref["ranks"], ref["time"], q["ranks"], q["time"]) if ok \
                else math.nan
            q["fom_ratio"] = stats.ratio(q["fom"], ref["fom"]) if ok else math.nan
            q["verdict"] = "reference" if q is ref else stats.scaling_verdict(
                pair_efficiencies(runs, label, mode, region, ref["ranks"], q["ranks"])) if ok else "-"
        out.append({"label": label, "points": points})
    return out


def format_curves(summary: list[dict], fom_unit: str) -> str:
    rows = []
    for c in summary:
        for q in c["points"]:
            rows.append([c["label"], str(q["ranks"]), " ".join(q["sets"]) or "-", str(q["n"]), stats.fmt(q["time"]),
                         stats.fmt(q["min"]), stats.fmt(q["max"]), stats.fmt_ratio(q["speedup"]),
                         "-" if math.isnan(q["efficiency"]) else f"{100 * q['efficiency']:.1f}", q["verdict"],
                         stats.fmt(q["fom"]), stats.fmt_ratio(q["fom_ratio"])])
    return format_table(rows, ["curve", "ranks", "size", "n", "time [s]", "min", "max", "speedup", "efficiency %",
                               "verdict", f"FOM [{fom_unit}]", "FOM ratio"])


def register(subparsers) -> None:
    sp = subparsers.add_parser("sweep", help="strong or weak scaling over rank counts: efficiency table and PNG",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    hc.add_common_arguments(sp, repeat=3, ranks_default="1,2,4")
    sp.add_argument("--mode", choices=["strong", "weak"], default="strong", help="scaling mode (default strong)")
    sp.add_argument("--size-key", help="deck key that sets the problem size (e.g. grid.nx)")
    sp.add_argument("--sizes", default="",
                    help="values of --size-key: one curve each (strong), one per rank count (weak)")
    sp.add_argument("--region", help="judge by this timer region (slowest rank) instead of the whole run time")
    sp.set_defaults(func=main)


def main(args) -> int:
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    try:
        cs = curves(args.mode, args.ranks, args.size_key, sizes)
    except ValueError as e:
        hc.log(TOOL, str(e))
        return 2
    if len(args.threads) != 1:
        hc.log(TOOL, "sweep scales rank counts at one thread count: give a single --threads value")
        return 2
    problem = hc.check_runnable(args)
    if problem:
        hc.log(TOOL, problem)
        return 2
    threads = args.threads[0]
    m = hc.machine()
    if args.oversubscribe and max(args.ranks) * threads > m["cores"]:
        hc.log(TOOL, f"note: {max(args.ranks)} ranks x {threads} threads oversubscribe the {m['cores']} cores here; "
                     "efficiency beyond that count measures time sharing, not the code")
    todo = plan(cs, threads, args.repeat)
    folder = hc.out_dir(TOOL, args, ("records.json", "runs.csv", "sweep.png"))
    hc.log(TOOL, f"{args.app}: {args.mode} scaling over ranks {args.ranks}, {len(cs)} curve(s) x {args.repeat} "
                 f"repeat(s) = {len(todo)} runs on {hc.machine_line(m)}")
    runs, status = hc.run_plan(TOOL, args, todo)
    summary = summarize(runs, cs, args.mode, args.region)
    fom_unit = next((r["fom_unit"] for r in runs if r["fom_unit"]), "")
    metric = f"region {args.region} (slowest rank)" if args.region else "run time"
    results = folder / "records.json"
    hc.write_results(results, TOOL, args, runs, status, {"mode": args.mode, "metric": metric, "repeat": args.repeat,
                                                         "threads": threads, "fom_unit": fom_unit, "curves": summary})
    if status == "bad input":
        return hc.stop_after_bad_input(TOOL, results, runs)
    print()
    print(f"{args.app} {hc.deck_label(args)}: {args.mode} scaling, {metric}, median of {args.repeat} "
          f"({status}; {hc.machine_line(m)})")
    print(format_curves(summary, fom_unit))
    print("strong: efficiency = T(p0) p0 / (T(p) p); weak: T(p0) / T(p); p0 = the smallest rank count of the curve")
    return hc.finish(TOOL, args, runs, status, results, folder / "sweep.png")
