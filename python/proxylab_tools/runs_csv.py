"""runs.csv: one line per run, to paste into a spreadsheet (the JSON records keep everything). Written by compare,
sweep and perturbation beside records.json, and appended to by `run --csv`."""
from __future__ import annotations

import csv
import io

COLUMNS = ("app", "variant", "ranks", "threads", "repeat", "verified", "returncode", "seconds", "fom", "fom_unit")


def runs_csv(app: str, runs: list[dict], header: bool = True) -> str:
    """The CSV text of `runs` (dicts with the COLUMNS' keys; the app given once), the header line first unless not."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    if header:
        w.writerow(COLUMNS)
    for r in runs:
        w.writerow([app if c == "app" else "" if r.get(c) is None else r[c] for c in COLUMNS])
    return out.getvalue()
