"""Small helpers to summarise repeated measurements: median and spread, percentiles, ratios."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (fraction 0.5 = median, 0.99 = p99) of a non-empty sequence."""
    ordered = sorted(values)
    return ordered[max(math.ceil(fraction * len(ordered)) - 1, 0)]


def spread(values: Sequence[float], unit: str = "ms", scale: float = 1e3, digits: int = 3) -> str:
    """'median X unit (min A, max B)' for values in seconds shown in `unit` (times `scale`)."""
    low, middle, high = (scale * v for v in (min(values), statistics.median(values), max(values)))
    return f"median {middle:.{digits}f} {unit} (min {low:.{digits}f}, max {high:.{digits}f})"


def ratio_spread(ratios: Sequence[float]) -> str:
    return f"per-run {min(ratios):.2f} to {max(ratios):.2f}"


def median_ratio(ours: Sequence[float], floor: Sequence[float]) -> float:
    """median(ours) / median(floor): the figure each target is stated in."""
    return statistics.median(ours) / statistics.median(floor)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"
