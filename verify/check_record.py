#!/usr/bin/env python3
"""Checks a proxylab JSON run record: the fields every record must carry (provenance, configuration,
timers, FOM, verification), that the run verified, and optional expectations on results.

    verify/check_record.py RUN.json [--expect results.iterations_done=10] [--expect-fom-min 0.1]

Exit 0 when the record is complete and verified; 1 when it is a record but not an acceptable one (a field
missing or of the wrong type, verification failed, the run interrupted: each problem is printed); 2 when
the file is no record at all (missing, a folder, empty, not JSON or truncated, not a JSON object).
Standard library only, so CI and users can run it anywhere.
"""
from __future__ import annotations

import argparse
import json
import math
import pathlib
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
            out.append(f"field '{key}' should be a {kind.__name__}, not {type(record[key]).__name__}")
    if out:
        return out
    if record["status"] == "output_failed":
        out.append(f"status is 'output_failed': the run could not write {'; '.join(record.get('failed_outputs', []))}")
    elif record["status"] != "completed":
        out.append(f"status is '{record['status']}', not 'completed': the run was stopped before it finished "
                   "(its numbers cover part of a run)")
    out += [f"provenance lacks '{k}'" for k in PROVENANCE if k not in record["provenance"]]
    for i, t in enumerate(record["timers"]):
        if not isinstance(t, dict):
            out.append(f"timer {i} should be an object, not {type(t).__name__}")
            continue
        out += [f"timer {t.get('region', '?')} lacks '{k}'" for k in TIMER if k not in t]
        times = [t.get(k) for k in ("min_s", "avg_s", "max_s")]
        if all(k in t for k in ("min_s", "avg_s", "max_s")):
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in times):
                out.append(f"timer {t.get('region', '?')}: min_s, avg_s, max_s should be numbers")
            elif not t["min_s"] <= t["avg_s"] * (1 + 1e-12) <= t["max_s"] * (1 + 1e-12):
                out.append(f"timer {t.get('region', '?')}: min <= avg <= max does not hold")
    fom = record["fom"].get("value")
    if isinstance(fom, bool) or not isinstance(fom, (int, float)) or not math.isfinite(fom):
        out.append(f"FOM value {fom!r} is not a finite number")
    elif fom_min is not None and fom < fom_min:
        out.append(f"FOM {fom} below the expected minimum {fom_min}")
    ver = record["verification"]
    checks = ver.get("checks")
    if not isinstance(checks, list) or not all(isinstance(c, dict) for c in checks):
        out.append("verification.checks should be a list of objects")
        checks = []
    if ver.get("passed") is not True:
        failed = [c.get("name") for c in checks if not c.get("passed")]
        out.append(f"verification did not pass (failed checks: {failed or 'none recorded'})")
    if not checks:
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


def load(path: str) -> tuple[dict | None, str]:
    """(record, '') or (None, why the file is no record)."""
    p = pathlib.Path(path)
    if p.is_dir():
        return None, "is a folder, not a record"
    try:
        text = p.read_bytes().decode("utf-8")
    except OSError as e:
        return None, f"cannot be read: {e.strerror} (errno {e.errno})"
    except UnicodeDecodeError as e:
        return None, f"is not UTF-8 text ({e.reason} at byte {e.start})"
    if not text.strip():
        return None, "is empty (a run that failed before writing it?)"
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        return None, f"is not valid JSON (truncated or damaged): {e.msg} at line {e.lineno} column {e.colno}"
    except RecursionError:
        return None, "is not a record (JSON nested too deeply)"
    if not isinstance(record, dict):
        return None, f"is not a record: the JSON is a {type(record).__name__}, not an object"
    return record, ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("record")
    ap.add_argument("--expect", action="append", default=[], metavar="KEY=VALUE",
                    help="dotted key in the record and the value it must have (repeatable)")
    ap.add_argument("--expect-fom-min", type=float, default=None)
    args = ap.parse_args(argv)
    record, why = load(args.record)
    if record is None:
        print(f"check_record: {args.record} {why}")
        return 2
    found = problems(record, args.expect, args.expect_fom_min)
    for p in found:
        print(f"check_record: {args.record}: {p}")
    if not found:
        print(f"check_record: {args.record}: complete and verified ({record['app']}, FOM {record['fom']['value']:.6g} "
              f"{record['fom'].get('unit', '')})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
