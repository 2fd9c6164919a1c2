#!/usr/bin/env python3
"""Checks a proxylab JSON run record: the fields every record must carry (provenance, configuration,
timers, FOM, verification), that the run verified, and optional expectations on results.

    verify/check_record.py RUN.json [--expect results.iterations_done=10] [--expect-fom-min 0.1]

Exit 0 when the record is complete and verified, 1 otherwise (each problem is printed).
Standard library only, so CI and users can run it anywhere.
"""
from __future__ import annotations

import argparse
import json
import math
import sys

REQUIRED = {
    "app": str,
    "status": str,
    "deck": str,
    "config": dict,
    "fom": dict,
    "verification": dict,
    "timers": list,
    "provenance": dict,
    "results": dict,
}
PROVENANCE = ["git_hash", "git_dirty", "compiler", "flags", "kokkos_version", "kokkos_backends", "mpi_library", "ranks",
              "threads_per_rank", "host", "date", "environment"]
TIMER = ["region", "category", "calls", "min_s", "avg_s", "max_s", "imbalance_pct"]


def lookup(record: dict, dotted: str):
    node = record
    for part in dotted.split("."):
        if isinstance(node, list):
            node = node[int(part)]
        else:
            node = node[part]
    return node


def problems(record: dict, expects: list[str], fom_min: float | None) -> list[str]:
    out = []
    for key, kind in REQUIRED.items():
        if key not in record:
            out.append(f"missing field '{key}'")
        elif not isinstance(record[key], kind):
            out.append(f"field '{key}' should be a {kind.__name__}")
    if out:
        return out
    out += [f"provenance lacks '{k}'" for k in PROVENANCE if k not in record["provenance"]]
    for t in record["timers"]:
        out += [f"timer {t.get('region', '?')} lacks '{k}'" for k in TIMER if k not in t]
        if all(k in t for k in ("min_s", "avg_s", "max_s")) and not t["min_s"] <= t["avg_s"] * (1 + 1e-12) <= t["max_s"] * (1 + 1e-12):
            out.append(f"timer {t['region']}: min <= avg <= max does not hold")
    fom = record["fom"].get("value")
    if not isinstance(fom, (int, float)) or not math.isfinite(fom):
        out.append(f"FOM value {fom!r} is not a finite number")
    elif fom_min is not None and fom < fom_min:
        out.append(f"FOM {fom} below the expected minimum {fom_min}")
    ver = record["verification"]
    if not ver.get("passed"):
        failed = [c.get("name") for c in ver.get("checks", []) if not c.get("passed")]
        out.append(f"verification did not pass (failed checks: {failed or 'none recorded'})")
    if not ver.get("checks"):
        out.append("no verification checks recorded")
    for e in expects:
        key, _, want = e.partition("=")
        try:
            got = lookup(record, key)
        except (KeyError, IndexError, ValueError, TypeError):
            out.append(f"expected '{key}' in the record")
            continue
        if str(got) != want:
            out.append(f"{key} = {got!r}, expected {want}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("record")
    ap.add_argument("--expect", action="append", default=[], metavar="KEY=VALUE",
                    help="dotted key in the record and the value it must have (repeatable)")
    ap.add_argument("--expect-fom-min", type=float, default=None)
    args = ap.parse_args(argv)
    try:
        with open(args.record) as f:
            record = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"check_record: cannot read {args.record}: {e}")
        return 1
    found = problems(record, args.expect, args.expect_fom_min)
    for p in found:
        print(f"check_record: {args.record}: {p}")
    if not found:
        print(f"check_record: {args.record}: complete and verified ({record['app']}, FOM {record['fom']['value']:.6g} "
              f"{record['fom'].get('unit', '')})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
