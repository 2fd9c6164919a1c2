#!/usr/bin/env python3
"""The GPU check's metrics, computed from its records alone, as results.json entries.

    python3 bench/gpu/metrics.py OUT/records.tar [--date YYYY-MM-DD] [--append bench/gpu/results.json]

RECORDS is device-check.sh's records.tar or a folder of its records (each run's --json record, NAME.json). Every
metric the open GPU issues (46, 47) and the evh1 entries of results.json ask for is computed from the verified
device runs that measure it; one entry per run, or one per check where the metric compares runs (the team / flat
ratio: medians over the interleaved rounds). Each entry is printed as a line of results.json:
{"metric", "value", "target", "met", "device", "date", "commit"}: device from the record's provenance, commit the
binaries' git hash (`-dirty` when their tree had changes), date from --date or the record's own. A metric with no
run, or whose runs did not verify or lack the figure, is named on stderr as missing: never invented.
--append adds the entries to results.json, which is append only: its text up to the closing bracket is kept byte for
byte, an entry it already holds is not added twice, and the new file replaces the old in one rename.
"""
import argparse
import json
import math
import os
import statistics
import sys
import tarfile
import tempfile
from pathlib import Path

# pstswm T680L18's step on 2026-11-27 (NVIDIA H200, per_step_s.total of the faster of its two verified runs,
# records pstswm-T680-r2 16.327 ms and -r1 17.798 ms in commit 77bf1c7): issue 46 asks for a step 3x faster.
PSTSWM_STEP_SECONDS_T680_2026_11_27 = 0.016327


class Missing(Exception):
    """A metric that cannot be computed from the records, and why."""


def load_records(path):
    """{run name: record} from records.tar or a folder; records that are not JSON (a run cut short) are left out."""
    path = Path(path)
    texts = {}
    if path.is_dir():
        for f in sorted(path.rglob("*.json")):
            texts[f.stem] = f.read_bytes()
    elif tarfile.is_tarfile(path):
        with tarfile.open(path) as tar:
            for m in tar.getmembers():
                if m.isfile() and m.name.endswith(".json"):
                    texts[Path(m.name).stem] = tar.extractfile(m).read()
    else:
        raise SystemExit(f"metrics.py: {path}: neither a folder nor a tar file of records")
    records = {}
    for name, text in texts.items():
        try:
            records[name] = json.loads(text)
        except ValueError:
            print(f"metrics.py: {name}.json is not a complete record: left out", file=sys.stderr)
    return records


def verified(rec):
    return rec.get("status") == "completed" and rec.get("verification", {}).get("passed") is True


def on_device(rec):
    return rec.get("provenance", {}).get("device", {}).get("present") is True


def ranks(rec):
    return rec.get("provenance", {}).get("ranks")


def config(rec, key):
    """A deck key's value in the record ('solver.mapping'), None where the record has none."""
    node = rec.get("config", {})
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def field(rec, path, run):
    """A results figure the metric needs; Missing names the run and the field when the record lacks it."""
    node = rec
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            raise Missing(f"{run}: no {path} in the record")
        node = node[part]
    return node


def commit_of(rec):
    p = rec.get("provenance", {})
    dirty = str(p.get("git_dirty", "")).lower() == "true"
    return p.get("git_hash", "")[:7] + ("-dirty" if dirty else "")


def date_of(rec):
    return rec.get("provenance", {}).get("date", "")[:10]


def device_of(rec):
    return rec.get("provenance", {}).get("device", {}).get("name", "")


def device_runs(records, app, what, match):
    """The verified device runs of `app` that `match` selects; Missing when there is none (`what` names them)."""
    runs = {n: r for n, r in records.items() if r.get("app") == app and on_device(r) and match(r)}
    if not runs:
        raise Missing(f"no device run of {what}")
    good = {n: r for n, r in runs.items() if verified(r)}
    failed = sorted(set(runs) - set(good))
    if failed:
        print(f"metrics.py: {what}: left out, not verified: {', '.join(failed)}", file=sys.stderr)
    if not good:
        raise Missing(f"no verified device run of {what} ({', '.join(failed)} did not verify)")
    return good


def per_run(runs, value):
    """[(run, value(name, record))] over the runs; a run whose record lacks a figure is named on stderr and left out,
    and the metric is missing when every run is."""
    values, why = [], []
    for name, r in sorted(runs.items()):
        try:
            v = value(name, r)
        except Missing as e:
            why.append(str(e))
            continue
        except ZeroDivisionError:
            why.append(f"{name}: a figure the metric divides by is 0")
            continue
        if not isinstance(v, (int, float)) or not math.isfinite(v):
            why.append(f"{name}: not a finite number ({v})")
            continue
        values.append((name, v))
    if not values:
        raise Missing("; ".join(why))
    for w in why:
        print(f"metrics.py: left out: {w}", file=sys.stderr)
    return values


def fft3d_cube(n, one_rank):
    def match(r):
        return all(config(r, "fft3d." + k) == n for k in ("nx", "ny", "nz")) and (ranks(r) == 1) == one_rank
    return match


def fft3d_pct_of_library(records, n):
    """The transform (mean of the forward and inverse medians) against the library's 3-D plan of the same grid
    (fft3d.serial_baseline), 1 rank."""
    def pct(name, r):
        transform = 0.5 * (field(r, "results.forward_seconds_median", name) +
                           field(r, "results.inverse_seconds_median", name))
        return 100.0 * field(r, "results.library_3d_fft_seconds", name) / transform
    runs = device_runs(records, "fft3d", f"fft3d {n}^3 at 1 rank with fft3d.serial_baseline=true",
                       lambda r: fft3d_cube(n, True)(r) and config(r, "fft3d.serial_baseline") is True)
    return per_run(runs, pct)


def fft3d_pack_unpack_pct_of_copy(records, n):
    """Pack + unpack (each byte read and written) against a device copy of the same bytes, at P > 1."""
    def pct(name, r):
        if field(r, "results.pack_unpack_bytes_per_transform", name) <= 0:
            raise Missing(f"{name}: no pack or unpack in the run (nothing to compare with a copy)")
        return 100.0 * field(r, "results.pack_unpack_gbs", name) / field(r, "results.copy_gbs_same_bytes", name)
    return per_run(device_runs(records, "fft3d", f"fft3d {n}^3 at P > 1", fft3d_cube(n, False)), pct)


def pstswm_one_rank(truncation):
    def match(r):
        return config(r, "model.truncation") == truncation and ranks(r) == 1
    return match


def pstswm_fft_stage_pct_of_plan(records, truncation):
    """The FFT stage (FFT + fold) against one batched plan of the same lines alone (perf.measure_fft), 1 rank."""
    def pct(name, r):
        return 100.0 * field(r, "results.gflops_per_rank.fft", name) / field(r, "results.fft_alone_gflops", name)
    runs = device_runs(records, "pstswm", f"pstswm T{truncation} at 1 rank with perf.measure_fft=true",
                       lambda r: pstswm_one_rank(truncation)(r) and config(r, "perf.measure_fft") is True)
    return per_run(runs, pct)


def pstswm_step_seconds(records, truncation):
    return per_run(device_runs(records, "pstswm", f"pstswm T{truncation} at 1 rank", pstswm_one_rank(truncation)),
                   lambda name, r: field(r, "results.per_step_s.total", name))


def pop_grid(nx, ny, mapping, benchmark):
    """pop on an nx x ny grid, one rank, the given mapping; benchmark: a fixed iteration count (solver.crit 0)."""
    def match(r):
        return (config(r, "grid.nx") == nx and config(r, "grid.ny") == ny and config(r, "solver.mapping") == mapping
                and ranks(r) == 1 and (config(r, "solver.crit") == 0) == benchmark)
    return match


TENTH, X1 = (3600, 2400), (320, 384)


def pop_pct_of_triad_tenth(records):
    """The whole iteration (kernels, halo, sums: the solver's bytes over its time per iteration) against the triad the
    same run measured over the iteration's bytes (perf.limits: the triad ceiling of the memory phase counting the most
    bytes, the kernels, whatever the phases are named), flat mapping, tenth-degree benchmark."""
    def pct(name, r):
        triads = [p for p in field(r, "results.limits.phases", name)
                  if p.get("unit") == "bytes" and p.get("ceiling", "").startswith("STREAM triad")]
        if not triads:
            raise Missing(f"{name}: no phase against a STREAM triad in results.limits")
        triad = max(triads, key=lambda p: p.get("counted", 0))["ceiling_rate"]
        rate = field(r, "results.bytes_per_iteration_all_ranks", name) / field(r, "results.seconds_per_iteration", name)
        return 100.0 * rate / triad
    return per_run(device_runs(records, "pop", "pop tenth-degree benchmark, flat", pop_grid(*TENTH, "flat", True)), pct)


def pop_team_over_flat_tenth(records):
    """Time per iteration, team over flat mapping: the medians over the interleaved rounds, one value per check."""
    names, medians = [], {}
    for mapping in ("team", "flat"):
        runs = device_runs(records, "pop", f"pop tenth-degree benchmark, {mapping}", pop_grid(*TENTH, mapping, True))
        seconds = per_run(runs, lambda name, r: field(r, "results.seconds_per_iteration", name))
        names += [name for name, _ in seconds]
        medians[mapping] = statistics.median(s for _, s in seconds)
    return [(names, medians["team"] / medians["flat"])]


def pop_seconds_per_iteration_x1(records):
    """The x1 grid's time per iteration, flat mapping (the mapping of the 0.20 ms of 2026-11-26)."""
    return per_run(device_runs(records, "pop", "pop x1, flat", pop_grid(*X1, "flat", False)),
                   lambda name, r: field(r, "results.seconds_per_iteration", name))


def evh1_zone_cycles_tiled(records):
    """Oblique Sod at 4096^2, tiled mapping, 1 rank: zone-cycles over the elapsed time (the run's FOM)."""
    def match(r):
        return (config(r, "evh1.mapping") == "tiled" and config(r, "grid.nx") == 4096 and config(r, "grid.ny") == 4096
                and ranks(r) == 1)
    return per_run(device_runs(records, "evh1", "evh1 oblique Sod 4096^2, tiled", match),
                   lambda name, r: field(r, "results.zone_cycles", name) / field(r, "results.elapsed_s", name))


# (metric, target, "min" where the value must reach the target or "max" where it must not exceed it, computation)
METRICS = [
    ("fft3d.pct_of_library_3d_256", 90, "min", lambda rs: fft3d_pct_of_library(rs, 256)),
    ("fft3d.pct_of_library_3d_512", 90, "min", lambda rs: fft3d_pct_of_library(rs, 512)),
    ("fft3d.pack_unpack_pct_of_copy_256", 80, "min", lambda rs: fft3d_pack_unpack_pct_of_copy(rs, 256)),
    ("pstswm.fft_stage_pct_of_plan_T340", 60, "min", lambda rs: pstswm_fft_stage_pct_of_plan(rs, 340)),
    ("pstswm.fft_stage_pct_of_plan_T680", 60, "min", lambda rs: pstswm_fft_stage_pct_of_plan(rs, 680)),
    ("pstswm.step_seconds_T680", PSTSWM_STEP_SECONDS_T680_2026_11_27 / 3, "max",
     lambda rs: pstswm_step_seconds(rs, 680)),
    ("pop.pct_of_triad_tenth", 80, "min", pop_pct_of_triad_tenth),
    ("pop.team_over_flat_tenth", 1.3, "max", pop_team_over_flat_tenth),
    ("pop.seconds_per_iteration_x1", 0.20e-3, "max", pop_seconds_per_iteration_x1),
    ("evh1.zone_cycles_per_second", 1e9, "min", evh1_zone_cycles_tiled),
]


def significant(x):
    return float(f"{x:.6g}")


def entry(metric, value, target, sense, runs, date):
    """One results.json entry; the runs it comes from must be one device's and one build's."""
    devices = {device_of(r) for r in runs}
    commits = {commit_of(r) for r in runs}
    if len(devices) > 1 or len(commits) > 1:
        raise Missing(f"its runs come from different devices or builds: {sorted(devices)} {sorted(commits)}")
    met = value >= target if sense == "min" else value <= target
    target = significant(target) if isinstance(target, float) else target
    return {"metric": metric, "value": significant(value), "target": target, "met": met, "device": devices.pop(),
            "date": date or date_of(runs[0]), "commit": commits.pop()}


def compute(records, date=None):
    """(entries, {metric: why it is missing}) for every metric of METRICS."""
    entries, missing = [], {}
    for metric, target, sense, how in METRICS:
        try:
            for names, value in how(records):
                names = names if isinstance(names, list) else [names]
                entries.append(entry(metric, value, target, sense, [records[n] for n in names], date))
        except Missing as why:
            missing[metric] = str(why)
    return entries, missing


def entry_line(e):
    return " " + json.dumps(e)


def append(path, entries):
    """Adds the entries results.json does not hold yet; the text before its closing bracket is kept as it is."""
    path = Path(path)
    text = path.read_text()
    held = json.loads(text)
    if not isinstance(held, list):
        raise SystemExit(f"metrics.py: {path}: not a JSON list")
    new = [e for e in entries if e not in held]
    if not new:
        return 0
    head = text.rstrip()
    if not head.endswith("]"):
        raise SystemExit(f"metrics.py: {path}: does not end in ']'")
    head = head[:-1].rstrip()
    sep = ",\n" if held else "\n"
    result = head + sep + ",\n".join(entry_line(e) for e in new) + "\n]\n"
    if json.loads(result) != held + new:
        raise SystemExit(f"metrics.py: {path}: appending would change its earlier entries")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(result)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return len(new)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", help="device-check.sh's records.tar, or a folder of its records")
    ap.add_argument("--date", help="the entries' date (default: each record's own)")
    ap.add_argument("--append", metavar="RESULTS_JSON", help="append the entries to this results.json")
    args = ap.parse_args(argv)
    entries, missing = compute(load_records(args.records), args.date)
    for e in entries:
        print(entry_line(e))
    for metric, why in missing.items():
        print(f"missing: {metric}: {why}", file=sys.stderr)
    if args.append:
        added = append(args.append, entries)
        print(f"metrics.py: {added} entries appended to {args.append} ({len(entries) - added} already there)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
