"""The curves `./proxylab plot comm` draws from a comm probe record (proxylab-comm --json), every value they use
checked first (standard library only): `plot comm` refuses a record it cannot draw (exit 2) instead of drawing an
empty chart or failing inside matplotlib; plots.plot_comm draws what curves() returns.

A record holds the tests its deck ran (results.pingpong, swap, echo, ring, alltoall, halo; any may be absent): each a
list of rows, medians over repetitions. A row's numbers must be finite and >= 0 (NaN is written as null); at least
one point must be drawable (a size and a time above 0: the axes are logarithmic).
"""
from __future__ import annotations

import math

from .json_input import InputError, describe

POINT_TESTS = ("pingpong", "swap", "echo")  # latency and per-pair bandwidth against message size
RING_ORDERS = ("natural", "random")


def _field(row, section: str, index: int, key: str, kind: type):
    """row[key] checked: a finite number >= 0 (kind float), an integer >= 0 (int) or a string (str)."""
    where = f"results.{section}[{index}]"
    if not isinstance(row, dict):
        raise InputError(f"{where} is {describe(row)}, not an object")
    value = row.get(key)
    if kind is str:
        if not isinstance(value, str):
            raise InputError(f"{where}.{key} is {describe(value)}; allowed: a string")
        return value
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or value < 0 or (kind is int and value != int(value)):
        allowed = "an integer >= 0" if kind is int else "a finite number >= 0"
        raise InputError(f"{where}.{key} is {describe(value)}; allowed: {allowed}")
    return kind(value)


def _rows(results: dict, section: str) -> list:
    rows = results.get(section, [])
    if not isinstance(rows, list):
        raise InputError(f"results.{section} is {describe(rows)}, not a list of rows")
    return rows


def _points(pairs) -> list[tuple[float, float]]:
    """The (x, y) pairs a logarithmic plot can show (both above 0), sorted by x."""
    return sorted((x, y) for x, y in pairs if x > 0 and y > 0)


def curves(doc) -> dict:
    """{latency, bandwidth: [(label, points, ring)], alltoall: {strategy: points}, alltoall_group, halo_cases,
    halo: {strategy: {case: us}}, ranks, threads, mpi, host} of a comm record; InputError naming the first value
    that is missing or not allowed, or saying there is nothing to draw."""
    if not isinstance(doc, dict) or doc.get("app") != "comm":
        app = doc.get("app") if isinstance(doc, dict) else None
        raise InputError(f"app is {describe(app)}, not 'comm'")
    results = doc.get("results")
    if not isinstance(results, dict):
        raise InputError(f"results is {describe(results)}, not an object")
    out: dict = {"latency": [], "bandwidth": []}
    for test in POINT_TESTS:
        rows = [(_field(r, test, i, "bytes", int), _field(r, test, i, "t_med_us", float),
                 _field(r, test, i, "gbs_pair_med", float)) for i, r in enumerate(_rows(results, test))]
        out["latency"].append((test, _points((b, t) for b, t, _ in rows), False))
        out["bandwidth"].append((f"{test} (per pair)", _points((b, g) for b, _, g in rows), False))
    ring = [(_field(r, "ring", i, "order", str), _field(r, "ring", i, "bytes", int),
             _field(r, "ring", i, "t_med_us", float), _field(r, "ring", i, "gbs_rank_med", float))
            for i, r in enumerate(_rows(results, "ring"))]
    for order in RING_ORDERS:
        mine = [(b, t, g) for o, b, t, g in ring if o == order]
        out["latency"].append((f"ring, {order}", _points((b, t) for b, t, _ in mine), True))
        out["bandwidth"].append((f"ring, {order} (per rank)", _points((b, g) for b, _, g in mine), True))
    a2a = [(_field(r, "alltoall", i, "group", int), _field(r, "alltoall", i, "strategy", str),
            _field(r, "alltoall", i, "bytes", int), _field(r, "alltoall", i, "t_med_us", float))
           for i, r in enumerate(_rows(results, "alltoall"))]
    group = max((g for g, *_ in a2a), default=0)  # the largest group: the whole job
    out["alltoall_group"] = group
    out["alltoall"] = {s: _points((b, t) for g, s2, b, t in a2a if g == group and s2 == s)
                       for s in dict.fromkeys(s for _, s, _, _ in a2a)}
    halo = [(_field(r, "halo", i, "strategy", str), (_field(r, "halo", i, "tile", int),
                                                     _field(r, "halo", i, "width", int)),
             _field(r, "halo", i, "t_med_us", float)) for i, r in enumerate(_rows(results, "halo"))]
    out["halo_cases"] = list(dict.fromkeys(c for _, c, _ in halo))
    out["halo"] = {s: {c: t for s2, c, t in halo if s2 == s} for s in dict.fromkeys(s for s, _, _ in halo)}
    drawable = [p for _, pts, _ in out["latency"] + out["bandwidth"] for p in pts]
    drawable += [p for pts in out["alltoall"].values() for p in pts]
    drawable += [t for per in out["halo"].values() for t in per.values() if t > 0]
    if not drawable:
        raise InputError("no result to draw: results.pingpong, swap, echo, ring, alltoall and halo hold no point with "
                         "a size and a time above 0")
    prov = doc.get("provenance", {})
    if not isinstance(prov, dict):
        raise InputError(f"provenance is {describe(prov)}, not an object")
    out["host"] = prov.get("host") if isinstance(prov.get("host"), str) else "?"
    out["ranks"] = prov.get("ranks") if isinstance(prov.get("ranks"), int) else "?"
    out["threads"] = prov.get("threads_per_rank") if isinstance(prov.get("threads_per_rank"), int) else "?"
    mpi = prov.get("mpi_library") if isinstance(prov.get("mpi_library"), str) else "MPI"
    out["mpi"] = " ".join(mpi.split()[:3])
    return out
