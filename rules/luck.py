"""Honest luck: how unusual a set of results is, from the exact odds of each throw (RULES.md section 6).

A *luck event* is one throw whose success was in doubt, with p its exact probability of success. Over events
p1..pn the number of successes S is Poisson-binomial (independent Bernoulli(pi)); with s successes seen:

- expected successes = sum of pi;
- luck percentile = P(S < s) + P(S = s) / 2 (near 1/2 is a typical evening);
- "at least this good" = P(S >= s).

Everything is a Fraction: no rounding until a figure is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.errors import InvalidInput

ZERO = Fraction(0)
ONE = Fraction(1)


@dataclass(frozen=True, slots=True)
class LuckEvent:
    """One throw in doubt: its chance of success before it was made, and whether it succeeded."""

    p: Fraction
    success: bool

    def __post_init__(self) -> None:
        if not isinstance(self.p, Fraction) or not ZERO <= self.p <= ONE:
            raise InvalidInput("A luck event's chance must be a fraction from 0 to 1, not {p!r}", p=self.p)

    def as_text(self) -> str:
        """'p/q:1' or 'p/q:0': the exact chance and the outcome, as the roll log keeps them."""
        return f"{self.p.numerator}/{self.p.denominator}:{int(self.success)}"

    @classmethod
    def from_text(cls, text: str) -> LuckEvent:
        chance, _, outcome = text.partition(":")
        if outcome not in ("0", "1"):
            raise InvalidInput("Not a luck event: {text!r}", text=text)
        return cls(Fraction(chance), outcome == "1")


Events = tuple[LuckEvent, ...]
"""A roll's luck events (each system's ``luck_events`` module says which throws are events)."""


def distribution(chances: Iterable[Fraction]) -> tuple[Fraction, ...]:
    """P(S = k) for k = 0..n, where S is the number of successes of independent events with these chances."""
    probabilities = [ONE]
    for p in chances:
        miss = ONE - p
        shifted = [ZERO, *probabilities]
        kept = [*probabilities, ZERO]
        probabilities = [stay * miss + move * p for stay, move in zip(kept, shifted, strict=True)]
    return tuple(probabilities)


@dataclass(frozen=True, slots=True)
class Luck:
    """The luck of a set of events: successes seen, expected, the percentile and 'at least this good'."""

    events: int
    successes: int
    expected: Fraction
    percentile: Fraction
    at_least_this_good: Fraction


def luck_of(events: Sequence[LuckEvent]) -> Luck | None:
    """The exact luck of these events, or None when there are none (no luck figure without events)."""
    if not events:
        return None
    spread = distribution(event.p for event in events)
    seen = sum(event.success for event in events)
    below = sum(spread[:seen], ZERO)
    return Luck(
        events=len(events),
        successes=seen,
        expected=sum((event.p for event in events), ZERO),
        percentile=below + spread[seen] / 2,
        at_least_this_good=ONE - below,
    )
