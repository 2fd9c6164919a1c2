#!/usr/bin/env python3
"""A stand-in for a proxylab binary with known answers, so the harness's arithmetic and failure paths can be
checked exactly: it takes the binaries' flags and writes a run record whose numbers come from --set values.

    fake.fom=<GB/s>      figure of merit (default 10)
    fake.seconds=<s>     run time and time of region "step" (default 1); "step/halo" gets a quarter of it
    fake.fail=1          verification fails (exit 1)
    fake.bad=1           bad input (exit 2)
    fake.sleep=<s>       sleep this long first (for the Ctrl-C and --timeout tests; default: $FAKE_APP_SLEEP, else 0)
    fake.trace_sleep=<s> sleep this long first when writing a trace (only the traced run of perturbation is slow)
    fake.record=<kind>   write a record that is no record: deep (lists nested 1,200 deep), list, latin1 (not UTF-8)
    fake.ignore_signals=1  ignore SIGINT and SIGTERM (a job the front end must abort after its grace period)
--no-timers drops the timer regions; with it the FOM is multiplied by fake.untimed_factor (default 1).
With --trace it first writes the trace of what has run so far (one span: what a run cut short leaves), so a test
can see that it runs; SIGINT or SIGTERM while it sleeps ends it as a real binary's run ends: a record with status
'interrupted', exit 130.
"""
import argparse
import json
import os
import signal
import sys
import time


class Interrupted(Exception):
    pass


def stop(_sig, _frame):
    raise Interrupted


def write(path, doc) -> None:
    if path:
        with open(path, "w") as f:
            json.dump(doc, f)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--deck")
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--json")
    p.add_argument("--trace")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--no-timers", action="store_true")
    p.add_argument("--deck-name")  # what the front end tells a binary (the user's deck name, where --json goes)
    p.add_argument("--json-target")
    a = p.parse_args()
    cfg = dict(s.split("=", 1) for s in a.set)
    if cfg.get("fake.bad") == "1":
        print("ERROR: bad input: fake.bad = 1: allowed 0", file=sys.stderr)
        return 2
    if cfg.get("fake.ignore_signals") == "1":
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    else:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, stop)
    write(a.trace, {"traceEvents": [{"ph": "X", "name": "step", "cat": "compute", "ts": 0, "dur": 5, "pid": 0}]})
    try:
        time.sleep(float(cfg.get("fake.sleep", os.environ.get("FAKE_APP_SLEEP", 0))) + (float(cfg.get("fake.trace_sleep", 0)) if a.trace else 0.0))
    except Interrupted:
        write(a.json, {"app": "fake", "status": "interrupted", "verification": {"passed": False, "checks": []},
                       "timers": [], "run_seconds": 0.0})
        print("interrupted: partial results", flush=True)
        return 130
    fom = float(cfg.get("fake.fom", 10)) * (float(cfg.get("fake.untimed_factor", 1)) if a.no_timers else 1.0)
    seconds = float(cfg.get("fake.seconds", 1))
    passed = cfg.get("fake.fail") != "1"
    timers = [] if a.no_timers else [
        {"region": "step", "category": "compute", "calls": 1, "min_s": seconds, "avg_s": seconds, "max_s": seconds,
         "imbalance_pct": 0.0},
        {"region": "step/halo", "category": "communication", "calls": 4, "min_s": seconds / 8, "avg_s": seconds / 6,
         "max_s": seconds / 4, "imbalance_pct": 33.3}]
    record = {"app": "fake", "fom": {"name": "fake rate", "value": fom, "unit": "GB/s"},
              "verification": {"passed": passed, "checks": [{"name": "fake check", "passed": passed,
                                                             "value": 0.0 if passed else 1.0, "limit": 0.5}]},
              "status": "completed", "timers": timers, "timers_enabled": not a.no_timers, "timer_overhead_s": 1e-7,
              "run_seconds": seconds}
    hostile = {"deep": "[" * 1200 + "]" * 1200, "list": "[1, 2]", "latin1": '{"app": "\xe9"}'}.get(cfg.get("fake.record"))
    if hostile and a.json:
        with open(a.json, "w", encoding="latin-1") as f:
            f.write(hostile)
    else:
        write(a.json, record)
    write(a.trace, {"traceEvents": []})
    print(f"FOM: {fom} GB/s (fake rate)")
    print(f"VERIFICATION: {'PASSED' if passed else 'FAILED'}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
