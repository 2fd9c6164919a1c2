#!/usr/bin/env python3
"""Measures the ReFrame suite's references on this machine and writes them into reframe/references.json.

Usage: reframe/measure_references.py [--runs N] [--launch local|slurm] [--max-load L] [--output DIR]
                                     [-- REFRAME_ARGS...]

Runs `reframe/run.sh --size bench` N times (default 3) and keeps, per check, the median FOM as the reference and a
tolerance of twice the runs' spread ((max - min) / median), at least MIN_TOLERANCE: a check whose tolerance reaches
10% cannot catch a 10% regression and is named as such. References are only as good as the machine is quiet: it
refuses to start when the 1-minute load average is above --max-load (default 0.5) and refuses to write when the
machine's other work during the runs (its busy CPU time less the runs' own, over the wall time) exceeded it (the load
of this machine: through Slurm, --launch slurm, the nodes' load is yours to see to). The system's entry in references.json (the ReFrame system the runs ran on, e.g. devvm) is
replaced; other systems' entries are kept. Anything after -- goes to reframe (e.g. -n stream to measure one proxy:
only the checks measured are replaced).
"""
import argparse
import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
REFERENCES = HERE / "references.json"
MIN_TOLERANCE = 0.05   # below the spread of repeated quiet runs of most checks here
CATCHES = 0.10         # the regression the references must catch


def load_average() -> float:
    return os.getloadavg()[0]


def busy_seconds() -> float:
    """CPU seconds this machine has been busy since boot (/proc/stat: every state but idle and iowait)."""
    with open("/proc/stat") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def own_seconds() -> float:
    """CPU seconds of this process's finished descendants (the suite's runs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_suite(output: Path, launch: str, extra: list[str]) -> tuple[str, dict[str, list[float]]]:
    """One run of the bench suite: the ReFrame system it ran on and {check: [FOM]} from its report (checks that
    failed sanity are left out)."""
    subprocess.run([str(HERE / "run.sh"), "--launch", launch, "--size", "bench", "--output", str(output), "--", *extra],
                   check=False)
    report = json.loads((output / "report.json").read_text())
    foms, system = {}, None
    for case in (c for run in report["runs"] for c in run["testcases"]):
        if case["fail_phase"] in (None, "performance") and case["perfvalues"]:
            system = case["system"]
            foms[case["case"]] = [v[0] for k, v in case["perfvalues"].items() if k.endswith(":fom")]
    return system, foms


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs of the suite (default 3)")
    ap.add_argument("--launch", default="local", choices=("local", "slurm"), help="partition kind (default local)")
    ap.add_argument("--max-load", type=float, default=0.5, help="the highest 1-minute load average (default 0.5)")
    ap.add_argument("--output", type=Path, default=ROOT / "results" / f"reframe-references-{datetime.date.today()}",
                    help="where the runs keep their ReFrame output (default results/reframe-references-DATE)")
    args = ap.parse_args(argv)
    before = load_average()
    if before > args.max_load:
        print(f"measure_references: load average {before:.2f} > {args.max_load}: this machine is not quiet; "
              "references measured now would be too slow to catch a regression", file=sys.stderr)
        return 2
    runs, system = {}, None
    start_wall, start_busy, start_own = time.monotonic(), busy_seconds(), own_seconds()
    for i in range(args.runs):
        system, foms = run_suite(args.output.resolve() / f"run-{i + 1}", args.launch, extra)
        for check, values in foms.items():
            runs.setdefault(check, []).extend(values)
    after = load_average()
    foreign = ((busy_seconds() - start_busy) - (own_seconds() - start_own)) / (time.monotonic() - start_wall)
    if foreign > args.max_load:
        print(f"measure_references: other work kept {foreign:.2f} cores busy during the runs: not written",
              file=sys.stderr)
        return 2
    if not runs:
        print("measure_references: no check gave a FOM (see the ReFrame output under "
              f"{args.output})", file=sys.stderr)
        return 1
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    measured = {"command": " ".join(["reframe/measure_references.py", *argv, *(["--", *extra] if extra else [])]),
                "date": datetime.datetime.now().isoformat(timespec="seconds"), "commit": commit,
                "load_average": [round(before, 2), round(after, 2)], "other_work_cores": round(foreign, 2),
                "cores": os.cpu_count()}
    fom = {}
    for check, values in sorted(runs.items()):
        median = statistics.median(values)
        spread = (max(values) - min(values)) / median
        tolerance = round(max(MIN_TOLERANCE, 2 * spread), 3)
        fom[check] = {"value": float(f"{median:.6g}"), "tolerance": tolerance, "runs": values, "measured": measured}
        note = "" if tolerance < CATCHES else f"  (too noisy to catch a {CATCHES:.0%} regression)"
        print(f"{check:28s} {median:12.6g}  spread {spread:6.1%}  tolerance {tolerance:.1%}{note}")
    references = json.loads(REFERENCES.read_text()) if REFERENCES.exists() else {}
    entry = references.get(system, {"fom": {}})
    entry["fom"].update(fom)
    references[system] = entry
    partial = REFERENCES.with_suffix(".json.partial")  # replaced whole or not at all
    partial.write_text(json.dumps(references, indent=2) + "\n")
    os.replace(partial, REFERENCES)
    print(f"measure_references: {len(fom)} references of system {system} written to {REFERENCES}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
