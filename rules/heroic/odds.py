"""Exact odds of a Heroic Roll, before it is rolled.

Only the natural roll matters (see ``rules.heroic.roll.read_outcome``): its distribution is summed by outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rules.errors import check_range
from rules.heroic.roll import SKILL_MAX, TN_MAX, TN_MIN, Outcome, read_outcome
from rules.heroic.tables import Variant
from rules.odds import ZERO, as_odds, convolve


@lru_cache(maxsize=8)
def natural_distribution(variant: Variant | str) -> dict[int, Fraction]:
    """P(natural roll == n) for each n the variant's dice can show."""
    count, sides = Variant.parse(variant).dice
    one_die = (ZERO,) + (Fraction(1, sides),) * sides
    dist = one_die
    for _ in range(count - 1):
        dist = convolve(dist, one_die)
    return {n: p for n, p in enumerate(dist) if p}


@dataclass(frozen=True, slots=True)
class HeroicOdds:
    """Chances of each reading. ``success`` counts Crits and complicated successes; ``failure`` counts
    Fumbles; ``complication`` is a success with a complication (total equal to the TN, no Crit or Fumble)."""

    skill: int
    tn: int
    variant: Variant
    success: Fraction
    complication: Fraction
    crit: Fraction
    fumble: Fraction
    failure: Fraction

    def as_dict(self) -> dict:
        chances = ("success", "complication", "crit", "fumble", "failure")
        return {name: as_odds(getattr(self, name)) for name in chances}


def odds_for_heroic(skill: int, tn: int, variant: Variant | str = Variant.TWO_D6) -> HeroicOdds:
    """Exact odds of a Heroic Roll of Skill against a TN with the given dice (2d6, d12 or d20)."""
    check_range("Skill", skill, 0, SKILL_MAX)
    check_range("TN", tn, TN_MIN, TN_MAX)
    return _odds(skill, tn, Variant.parse(variant))


@lru_cache(maxsize=4096)
def _odds(skill: int, tn: int, variant: Variant) -> HeroicOdds:
    chance = dict.fromkeys(Outcome, ZERO)
    for natural, p in natural_distribution(variant).items():
        chance[read_outcome(variant, natural, skill, tn)] += p
    success = sum((chance[o] for o in Outcome if o.succeeded), ZERO)
    return HeroicOdds(
        skill,
        tn,
        variant,
        success=success,
        complication=chance[Outcome.SUCCESS_WITH_COMPLICATION],
        crit=chance[Outcome.CRIT],
        fumble=chance[Outcome.FUMBLE],
        failure=1 - success,
    )
