"""Exact probability building blocks shared by the four systems.

Everything here works in ``fractions.Fraction``; distributions are tuples indexed by outcome (``dist[k]`` is
P(outcome == k)). Results that repeat are cached: pools are small integers, so the caches stay small.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb

Dist = tuple[Fraction, ...]

ZERO = Fraction(0)
ONE = Fraction(1)


@lru_cache(maxsize=4096)
def binomial(n: int, p: Fraction) -> Dist:
    """Distribution of the number of hits among n independent trials of chance p."""
    q = 1 - p
    return tuple(comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))


def convolve(a: Sequence[Fraction], b: Sequence[Fraction]) -> Dist:
    """Distribution of the sum of two independent non-negative integer outcomes."""
    out = [ZERO] * (len(a) + len(b) - 1)
    for i, pa in enumerate(a):
        if pa:
            for j, pb in enumerate(b):
                if pb:
                    out[i + j] += pa * pb
    return tuple(out)


def tail_at_least(dist: Sequence[Fraction], k: int) -> Fraction:
    """P(outcome >= k)."""
    return sum(dist[max(k, 0):], ZERO)


def expectation(dist: Sequence[Fraction]) -> Fraction:
    return sum((k * p for k, p in enumerate(dist)), ZERO)


def as_odds(value: Fraction) -> dict:
    """A probability as JSON: the exact fraction as a string and its float."""
    return {"exact": f"{value.numerator}/{value.denominator}", "float": float(value)}


def dist_as_odds(dist: Sequence[Fraction] | dict[int, Fraction]) -> dict[str, dict]:
    """A distribution as JSON, keyed by outcome, leaving out impossible outcomes."""
    items = dist.items() if isinstance(dist, dict) else enumerate(dist)
    return {str(k): as_odds(p) for k, p in items if p}
