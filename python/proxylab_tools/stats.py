"""Statistics of repeated runs (standard library only): summaries, ratios, scaling efficiency.

The seeds' rule "always measure performance multiple times" means every number the harness prints is a
summary of several runs: the median (robust to one disturbed run), with min and max to show the spread.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


@dataclass(frozen=True)
class Summary:
    n: int
    median: float
    min: float
    max: float

    @property
    def spread_pct(self) -> float:
        """(max - min) / median in percent: how much the repeats disagree."""
        return 100.0 * (self.max - self.min) / abs(self.median) if self.median else math.nan


def finite(values) -> list[float]:
    """The numeric, finite values (None, NaN and non-numbers dropped)."""
    return [float(v) for v in values
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)]


def median(values) -> float:
    v = sorted(finite(values))
    if not v:
        return math.nan
    mid = len(v) // 2
    return v[mid] if len(v) % 2 else 0.5 * (v[mid - 1] + v[mid])


def median_item(items, key):
    """Of repeated runs, the one whose key(item) is the median (the lower of the two middle ones when the count is
    even): a whole record to report, where median() gives a number. None when there are no items."""
    ranked = sorted(items, key=key)
    return ranked[(len(ranked) - 1) // 2] if ranked else None


def summarize(values) -> Summary | None:
    """Median, min and max of the finite values; None when there are none."""
    v = finite(values)
    if not v:
        return None
    return Summary(len(v), median(v), min(v), max(v))


def ratio(value: float | None, reference: float | None) -> float:
    """value / reference; NaN when either is missing or the reference is zero."""
    if value is None or reference is None or not reference or math.isnan(value) or math.isnan(reference):
        return math.nan
    return value / reference


# Pairs of back-to-back runs a verdict needs: with fewer, every pair on one side of 1 happens by chance too often.
VERDICT_PAIRS = 3


def verdict(pairs: list[float], higher_better: bool) -> str:
    """A variant against the reference from its pairwise ratios (runs made back to back): 'better, resolved' or
    'worse, resolved' when every pair lies on one side of 1 (the min..max of the pairs excludes 1), else 'within the
    noise'; 'too few repeats' below VERDICT_PAIRS pairs. The rule is docs/harness.md's, 'Verdicts'."""
    pairs = finite(pairs)
    if len(pairs) < VERDICT_PAIRS:
        return "too few repeats"
    if min(pairs) > 1.0 or max(pairs) < 1.0:
        return "better, resolved" if (min(pairs) > 1.0) == higher_better else "worse, resolved"
    return "within the noise"


def scaling_verdict(efficiencies: list[float]) -> str:
    """A rank count's parallel efficiency against ideal scaling from its pairs (each repeat's run against the same
    repeat's run at the curve's first rank count, made back to back): 'below ideal, resolved' or 'above ideal,
    resolved' when every pair lies on one side of 1, else 'ideal within the noise'; 'too few repeats' below
    VERDICT_PAIRS pairs. docs/harness.md, 'Verdicts'."""
    pairs = finite(efficiencies)
    if len(pairs) < VERDICT_PAIRS:
        return "too few repeats"
    if max(pairs) < 1.0:
        return "below ideal, resolved"
    if min(pairs) > 1.0:
        return "above ideal, resolved"
    return "ideal within the noise"


def higher_is_better(unit: str) -> bool:
    """A figure of merit in a time unit (s, ms, us, ns) is better when lower; a rate (GB/s, cells/s) when higher."""
    return unit.strip() not in TIME_UNITS


def speedup(t_ref: float, t: float) -> float:
    """How much faster than the reference: t_ref / t (times, lower is better)."""
    return ratio(t_ref, t)


def parallel_efficiency(mode: str, ranks_ref: int, t_ref: float, ranks: int, t: float) -> float:
    """Parallel efficiency from run times relative to the smallest rank count.

    strong (fixed total problem): E = (t_ref * p_ref) / (t * p)   (1 = time falls as 1/p)
    weak (fixed problem per rank): E = t_ref / t                  (1 = time stays constant)
    """
    if mode == "strong":
        return ratio(t_ref * ranks_ref, t * ranks)
    if mode == "weak":
        return ratio(t_ref, t)
    raise ValueError(f"scaling mode '{mode}': allowed strong, weak")


def rate_efficiency(mode: str, ranks_ref: int, rate_ref: float, ranks: int, rate: float) -> float:
    """Parallel efficiency from an aggregate rate (higher is better, e.g. GB/s over all ranks).

    Both modes: E = (rate / rate_ref) / (p / p_ref); in strong scaling this equals the time-based efficiency;
    in weak scaling an aggregate rate also grows with p when the work per rank is fixed.
    """
    if mode not in ("strong", "weak"):
        raise ValueError(f"scaling mode '{mode}': allowed strong, weak")
    return ratio(ratio(rate, rate_ref), ranks / ranks_ref)


def fmt(x: float | None, digits: int = 4) -> str:
    """Compact number for tables: 4 significant digits, '-' for missing."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.{digits}g}"


def fmt_ratio(x: float | None) -> str:
    """Ratios with three decimals ('1.000' for the reference), '-' for missing."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.3f}"
