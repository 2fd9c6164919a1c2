"""Trace analysis of the Chrome trace JSON an app writes with --trace (standard library only): spans per rank,
the leaf segments (every instant given to the innermost timer region open then), the common window and the
busy / communicate / idle utilization per rank. Used by the gantt command (harness_gantt) and its chart (plots).
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from pathlib import Path

from .json_input import describe
from .json_input import load as load_json

CATEGORIES = ["compute", "communication", "io", "other"]


@dataclass(frozen=True)
class Span:
    name: str
    cat: str
    t0: float  # seconds since the trace epoch
    t1: float


# Timestamps and durations (microseconds) beyond this are no run's: a trace that holds them is refused.
MAX_MICROSECONDS = 1e15  # about 31 years


def _time(event: dict, key: str, index: int, default=None) -> float:
    """event[key] as microseconds: a finite number in [0, MAX_MICROSECONDS] (ts may be negative: any epoch)."""
    value = event.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"event {index}: '{key}' is {describe(value)}, not a number")
    if not math.isfinite(value) or abs(value) > MAX_MICROSECONDS or (key == "dur" and value < 0):
        raise ValueError(f"event {index}: '{key}' is {describe(value)}; allowed: a finite number of microseconds"
                         f"{' >= 0' if key == 'dur' else ''} up to {MAX_MICROSECONDS:g}")
    return float(value)


def load_trace(path: str | Path) -> dict[int, list[Span]]:
    """Spans per rank (pid) from a Chrome trace (object with traceEvents, or a bare event list). ValueError naming
    the event and the field for anything that is not such a trace (negative or absurd durations included), or
    json_input.InputError (a ValueError) for a file that is not JSON."""
    doc = load_json(path)
    if not isinstance(doc, (dict, list)):
        raise ValueError(f"the file holds {type(doc).__name__}, not an object with traceEvents or a list of events")
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        raise ValueError(f"'traceEvents' is {type(events).__name__}, not a list of events")
    ranks: dict[int, list[Span]] = {}
    for index, e in enumerate(events):
        if not isinstance(e, dict):
            raise ValueError(f"event {index} is {type(e).__name__}, not an object")
        if e.get("ph") != "X":
            continue
        cat = e.get("cat", "other")
        t0 = _time(e, "ts", index) * 1e-6
        pid = e.get("pid", 0)
        if isinstance(pid, bool) or not isinstance(pid, int):
            raise ValueError(f"event {index}: 'pid' is {describe(pid)}, not an integer")
        name = e.get("name", "")
        if not isinstance(name, str):
            raise ValueError(f"event {index}: 'name' is {describe(name)}, not a string")
        ranks.setdefault(pid, []).append(
            Span(name, cat if cat in CATEGORIES else "other", t0,
                 t0 + _time(e, "dur", index, 0) * 1e-6))
    return dict(sorted(ranks.items()))


def leaf_segments(spans: list[Span]) -> list[Span]:
    """Disjoint segments, each given to the innermost span open there (latest start; on a tie the shorter)."""
    order = sorted(spans, key=lambda s: (s.t0, -s.t1))
    bounds = sorted({t for s in spans for t in (s.t0, s.t1)})
    active: list[tuple[float, float, int]] = []  # heap of (-t0, t1, index): top = innermost open span
    out: list[Span] = []
    nxt = 0
    for b0, b1 in zip(bounds, bounds[1:]):
        while nxt < len(order) and order[nxt].t0 <= b0:
            heapq.heappush(active, (-order[nxt].t0, order[nxt].t1, nxt))
            nxt += 1
        while active and active[0][1] <= b0:
            heapq.heappop(active)
        if not active:
            continue
        s = order[active[0][2]]
        if out and out[-1].t1 == b0 and out[-1].name == s.name and out[-1].cat == s.cat:
            out[-1] = Span(s.name, s.cat, out[-1].t0, b1)
        else:
            out.append(Span(s.name, s.cat, b0, b1))
    return out


def window(ranks: dict[int, list[Span]]) -> tuple[float, float]:
    starts = [s.t0 for spans in ranks.values() for s in spans]
    ends = [s.t1 for spans in ranks.values() for s in spans]
    return (min(starts), max(ends)) if starts else (0.0, 0.0)


def utilization(leaves: list[Span], t_begin: float, t_end: float) -> dict[str, float]:
    """Seconds per category plus 'idle' (the part of the window in no region) and 'window'."""
    sec = {c: 0.0 for c in CATEGORIES}
    for s in leaves:
        sec[s.cat] += max(0.0, min(s.t1, t_end) - max(s.t0, t_begin))
    sec["idle"] = max(0.0, (t_end - t_begin) - sum(sec[c] for c in CATEGORIES))
    sec["window"] = t_end - t_begin
    return sec


def analyse(path: str | Path) -> dict:
    """Everything the table and the chart need: window, leaf segments and utilization per rank."""
    ranks = load_trace(path)
    t0, t1 = window(ranks)
    leaves = {r: leaf_segments(spans) for r, spans in ranks.items()}
    return {"window": (t0, t1), "leaves": leaves,
            "utilization": {r: utilization(seg, t0, t1) for r, seg in leaves.items()},
            "spans": sum(len(s) for s in ranks.values())}
