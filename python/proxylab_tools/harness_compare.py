"""./proxylab compare: variants of one proxy side by side (the seeds' "compare algorithms and platforms").

    ./proxylab compare stream --deck inputs/stream/small.yaml --vary stream.mapping=flat,team --ranks 1,2 --repeat 5

The variants (every combination of the --vary values) run interleaved, A B A B ..., so a drift of the
machine hits all alike. Per rank x thread count a table gives median, min and max of the figure of merit,
of the run time and of every timer region (slowest rank), and the ratio of each variant to the first as the
median of the pairwise ratios of runs made back to back. Every run must verify: a failure is shown and
the command exits 1. All records go to one JSON file, the picture to a PNG beside it.
"""
from __future__ import annotations

import argparse
import fnmatch
import itertools
import math

from . import harness_common as hc
from . import stats
from .cli import format_table

TOOL = "compare"


# ---- variants ---------------------------------------------------------------------------------------
def parse_vary(items: list[str]) -> list[tuple[str, list[str]]]:
    """['stream.mapping=flat,team'] -> [('stream.mapping', ['flat', 'team'])]; ValueError names a bad item."""
    out = []
    for item in items:
        key, eq, values = item.partition("=")
        vals = [v.strip() for v in values.split(",") if v.strip()]
        if not eq or not key.strip() or not vals:
            raise ValueError(f"--vary '{item}': expected KEY=v1,v2[,...], e.g. stream.mapping=flat,team")
        if key.strip() in [k for k, _ in out]:
            raise ValueError(f"--vary '{item}': key '{key.strip()}' is varied twice; give all its values in one --vary")
        out.append((key.strip(), vals))
    return out


def short_key(key: str, keys: list[str]) -> str:
    """'stream.mapping' -> 'mapping' unless another varied key has the same last part."""
    last = key.rsplit(".", 1)[-1]
    return last if sum(k.rsplit(".", 1)[-1] == last for k in keys) == 1 else key


def variants(vary: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """Every combination, in the order given (the first is the reference): [(label, ['key=value', ...])]."""
    keys = [k for k, _ in vary]
    out = []
    for combo in itertools.product(*[vals for _, vals in vary]):
        label = ",".join(f"{short_key(k, keys)}={v}" for k, v in zip(keys, combo))
        out.append((label, [f"{k}={v}" for k, v in zip(keys, combo)]))
    return out


def plan(var: list[tuple[str, list[str]]], ranks: list[int], threads: list[int], repeat: int) -> list[hc.Planned]:
    """Per rank x thread count, repeat r of every variant before repeat r+1 of any (interleaved)."""
    return [hc.Planned(label, sets, p, t, r)
            for p in ranks for t in threads for r in range(repeat) for label, sets in var]


# ---- statistics -------------------------------------------------------------------------------------
def region_wanted(region: str, patterns: list[str] | None) -> bool:
    """--regions: shell patterns on region paths ('solve*', 'forward/*'); 'top' = regions outside any other."""
    if not patterns:
        return True
    return any(("/" not in region) if p == "top" else fnmatch.fnmatchcase(region, p) for p in patterns)


def metrics_of(record: dict | None, regions: list[str] | None = None) -> dict[str, float]:
    """The numbers of one run record compared across variants: FOM, run time, each timer region (max over ranks)."""
    if not record:
        return {}
    out = {}
    fom = record.get("fom", {})
    out[f"FOM [{fom.get('unit', '')}]"] = fom.get("value")
    out["run time [s]"] = record.get("run_seconds")
    for t in record.get("timers", []):
        if region_wanted(t["region"], regions):
            out[f"region {t['region']} [s]"] = t.get("max_s")
    return out


def higher_better(metric: str) -> bool:
    return metric.startswith("FOM") and stats.higher_is_better(metric.rsplit("[", 1)[-1].rstrip("]"))


def summarize(runs: list[dict], labels: list[str], regions: list[str] | None = None) -> dict:
    """Per 'RxT' configuration: verification counts and, per metric and variant, n/median/min/max/ratio.

    Only runs that verified enter the statistics. The ratio of variant V to the first variant A is the
    median over repeats r of V_r / A_r (runs made back to back), so slow drift cancels.
    """
    configs: dict[str, dict] = {}
    for run in runs:
        key = f"{run['ranks']}x{run['threads']}"
        c = configs.setdefault(key, {"ranks": run["ranks"], "threads": run["threads"],
                                     "verification": {lab: [0, 0] for lab in labels}, "values": {}})
        c["verification"][run["variant"]][1] += 1
        if not run["verified"]:
            continue
        c["verification"][run["variant"]][0] += 1
        for metric, value in metrics_of(run["record"], regions).items():
            c["values"].setdefault(metric, {}).setdefault(run["variant"], {})[run["repeat"]] = value
    out = {}
    for key, c in configs.items():
        rows = []
        for metric, per_var in c["values"].items():
            ref = per_var.get(labels[0], {})
            entry = {"metric": metric, "higher_is_better": higher_better(metric), "variants": {}}
            for lab in labels:
                vals = per_var.get(lab, {})
                s = stats.summarize(vals.values())
                if s is None:
                    continue
                pairs = [stats.ratio(vals[r], ref[r]) for r in vals if r in ref]
                entry["variants"][lab] = {"n": s.n, "median": s.median, "min": s.min, "max": s.max,
                                          "ratio": stats.median(pairs) if pairs else math.nan,
                                          "verdict": "reference" if lab == labels[0] else
                                          stats.verdict(pairs, entry["higher_is_better"])}
            rows.append(entry)
        out[key] = {"ranks": c["ranks"], "threads": c["threads"], "verification": c["verification"], "metrics": rows}
    return out


def format_summary(summary: dict, labels: list[str], repeat: int) -> str:
    parts = []
    for key, c in summary.items():
        verified = ", ".join(f"{lab} {ok}/{n}" for lab, (ok, n) in c["verification"].items() if n)
        head = (f"{c['ranks']} rank(s) x {c['threads']} thread(s); {repeat} repeat(s) interleaved; "
                f"verified: {verified}")
        rows = []
        for m in c["metrics"]:
            name = m["metric"]
            if name.startswith("FOM"):
                name += " (higher is better)" if m["higher_is_better"] else " (lower is better)"
            for lab in [lab for lab in labels if lab in m["variants"]]:
                v = m["variants"][lab]
                rows.append([name, lab, str(v["n"]), stats.fmt(v["median"]), stats.fmt(v["min"]), stats.fmt(v["max"]),
                             v["verdict"], stats.fmt_ratio(v["ratio"])])
                name = ""  # the metric is named on its first row only
        table = format_table(rows, ["metric", "variant", "n", "median", "min", "max", "verdict",
                                    f"ratio to {labels[0]}"])
        parts.append(head + "\n" + table)
    return "\n\n".join(parts)


# ---- command ----------------------------------------------------------------------------------------
def register(subparsers) -> None:
    sp = subparsers.add_parser("compare", help="variants side by side: interleaved repeats, median, ratios, PNG",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    hc.add_common_arguments(sp, repeat=5)
    sp.add_argument("--vary", action="append", default=[], required=True, metavar="KEY=v1,v2",
                    help="deck key and its values to compare (repeatable: all combinations run)")
    sp.add_argument("--regions", action="append", metavar="PATTERN",
                    help="timer regions in the table and chart: shell pattern on the region path ('solve*', "
                         "'forward/*'), or 'top' for the outermost regions (repeatable; default all)")
    sp.set_defaults(func=main)


def main(args) -> int:
    try:
        var = variants(parse_vary(args.vary))
    except ValueError as e:
        hc.log(TOOL, str(e))
        return 2
    problem = hc.check_runnable(args)
    if problem:
        hc.log(TOOL, problem)
        return 2
    labels = [lab for lab, _ in var]
    todo = plan(var, args.ranks, args.threads, args.repeat)
    folder = hc.out_dir(TOOL, args, ("records.json", "runs.csv", "compare.png"))
    m = hc.machine()
    hc.log(TOOL, f"{args.app}: {len(labels)} variant(s) x {len(args.ranks) * len(args.threads)} rank/thread count(s) "
                 f"x {args.repeat} repeat(s) = {len(todo)} runs on {hc.machine_line(m)}")
    results = folder / "records.json"
    runs, status, summary, fom_name = hc.run_variants(TOOL, args, todo, labels,
                                                      lambda done: summarize(done, labels, args.regions), results)
    if status == "bad input":
        return hc.stop_after_bad_input(TOOL, results, runs)
    print()
    print(f"{args.app} {hc.deck_label(args)}: {' vs '.join(labels)}   ({status}; {hc.machine_line(m)})")
    print(format_summary(summary, labels, args.repeat))
    print(f"FOM: {fom_name}; region X: time in timer region X of the slowest rank; ratio: median over repeats of\n"
          f"(variant / {labels[0]}) for runs made back to back; verdict: resolved when every such pair lies on one\n"
          f"side of 1, else within the noise (docs/harness.md, 'Verdicts'); the ratio of the medians can disagree.")
    return hc.finish(TOOL, args, runs, status, results, folder / "compare.png")
