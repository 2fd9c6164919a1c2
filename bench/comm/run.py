#!/usr/bin/env python3
"""Communication probe benchmark: runs proxylab-comm several times per rank count and prints the
median over runs of the headline figures as Markdown tables (ping-pong latency and bandwidth, swap
and ring bandwidth, the fastest halo strategy per tile and width, all-to-all and allreduce times).

    python3 bench/comm/run.py --bin build/comm/bin/proxylab-comm --deck inputs/comm/default.yaml \
        --ranks 2 4 --runs 3

Standard library only. Each run writes its JSON record to a temporary file (--json).
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
from proxylab_tools import runner, stats  # noqa: E402  (the project's launcher: MPICH mpiexec, environment, JSON record)
from collections import defaultdict


def run_once(binary, deck, ranks, sets):
    return runner.verified_record("comm", ranks, 1, deck, sets, exe=binary)["results"]


def median_of(runs, test, keys, value):
    """{row key tuple: median over runs of row[value]}"""
    acc = defaultdict(list)
    for res in runs:
        for row in res.get(test, []):
            acc[tuple(row[k] for k in keys)].append(row[value])
    return {k: stats.median(v) for k, v in acc.items()}


def table(title, header, rows):
    print(f"\n**{title}**\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")


def strategy_table(title: str, case_names: list[str], times: dict) -> None:
    """One row per case (the key's first two fields), one column per strategy (its third), and the fastest."""
    cases = sorted({k[:2] for k in times})
    strategies = sorted({k[2] for k in times})
    rows = []
    for c in cases:
        row = {s: times[(*c, s)] for s in strategies if (*c, s) in times}
        rows.append((*c, *[f"{row[s]:.3g}" if s in row else "-" for s in strategies], min(row, key=row.get)))
    table(title, [*case_names, *strategies, "fastest"], rows)


def report(ranks, runs):
    print(f"\n### {ranks} ranks ({len(runs)} runs; median over runs of each point's {STAT})")
    lat = median_of(runs, "pingpong", ["bytes"], STAT)
    swap_t = median_of(runs, "swap", ["bytes"], STAT)
    bw = {b: (b[0] / (t * 1e3) if t > 0 else 0.0) for b, t in lat.items()}
    swap = {b: (2 * b[0] / (t * 1e3) if t > 0 else 0.0) for b, t in swap_t.items()}
    if lat:
        table("pingpong (half round trip) and swap (both directions, per pair)", ["bytes", "latency us", "GB/s", "swap GB/s"],
              [(b[0], f"{lat[b]:.3g}", f"{bw[b]:.3g}", f"{swap.get(b, float('nan')):.3g}") for b in sorted(lat)])
    ring = median_of(runs, "ring", ["order", "bytes"], STAT)
    ring_bw = {k: (2 * k[1] / (t * 1e3) if t > 0 else 0.0) for k, t in ring.items()}
    if ring:
        table("ring (HPCC)", ["order", "bytes", "us", "GB/s per rank"],
              [(k[0], k[1], f"{ring[k]:.3g}", f"{ring_bw[k]:.3g}") for k in sorted(ring)])
    halo = median_of(runs, "halo", ["tile", "width", "strategy"], STAT)
    if halo:
        strategy_table("halo, us per exchange (2-D, edges + corners)", ["tile", "width"], halo)
    h3 = median_of(runs, "halo3d", ["n", "method"], STAT)
    if h3:
        table("halo3d, us per six-face swap", ["n", "method", "us"], [(k[0], k[1], f"{h3[k]:.3g}") for k in sorted(h3)])
    a2a = median_of(runs, "alltoall", ["group", "bytes", "strategy"], STAT)
    if a2a:
        strategy_table("alltoall, us per call", ["group", "bytes/pair"], a2a)
    red = median_of(runs, "allreduce", ["operation", "group", "words"], STAT)
    if red:
        table("allreduce / barrier, us per call", ["operation", "group", "words", "us"],
              [(k[0], k[1], k[2], f"{red[k]:.3g}") for k in sorted(red, key=lambda k: (k[1], k[0], k[2]))])


STAT = "t_med_us"


def main():
    global STAT
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/openmp/bin/proxylab-comm")
    ap.add_argument("--deck", default="inputs/comm/default.yaml")
    ap.add_argument("--ranks", type=int, nargs="+", default=[2])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--stat", default="t_med_us", choices=["t_min_us", "t_med_us", "t_max_us"],
                    help="per-point statistic tabulated (t_min_us is robust on a loaded machine)")
    ap.add_argument("--set", action="append", default=[], dest="sets", help="deck override key=value")
    a = ap.parse_args()
    STAT = a.stat
    for ranks in a.ranks:
        report(ranks, [run_once(a.bin, a.deck, ranks, a.sets) for _ in range(a.runs)])


if __name__ == "__main__":
    main()
