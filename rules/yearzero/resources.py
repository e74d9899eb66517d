"""Forbidden Lands resource dice (RULES.md section 7): Food, Water, Arrows and Torches, each rated with a die
that steps down D12 -> D10 -> D8 -> D6 -> none when it shows 1 or 2.

A rating is the die's number of sides, or 0 for none. Every figure is exact (a Fraction).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from rules.dice import DiceSource, Die, Role
from rules.errors import CannotAttempt, InvalidInput, Term
from rules.luck import Events, LuckEvent

NONE = 0
RATINGS = (12, 10, 8, 6, NONE)
"""The ratings from the largest die down to none, in the order a resource steps through them."""

STEP_DOWN_FACES = (1, 2)


class Resource(StrEnum):
    FOOD = "food"
    WATER = "water"
    ARROWS = "arrows"
    TORCHES = "torches"


def check_rating(rating: int) -> int:
    """A rating is one of D6, D8, D10, D12 (their sides) or 0 for none."""
    if isinstance(rating, bool) or rating not in RATINGS:
        raise InvalidInput("A resource rating is D6, D8, D10, D12 or none, not {rating!r}", rating=rating)
    return rating


def step_down(rating: int) -> int:
    """The rating one size smaller: D12 -> D10 -> D8 -> D6 -> none."""
    check_rating(rating)
    if rating == NONE:
        raise InvalidInput("A resource rated none cannot step down")
    return RATINGS[RATINGS.index(rating) + 1]


def chance_to_step_down(rating: int) -> Fraction:
    """2/n for a Dn: the chance that rolling it shows 1 or 2."""
    if check_rating(rating) == NONE:
        raise InvalidInput("A resource rated none is not rolled")
    return Fraction(len(STEP_DOWN_FACES), rating)


def expected_rolls_left(rating: int) -> Fraction:
    """Expected rolls before the resource runs out from this rating: the sum of n/2 over the dice still to step
    through (a Dn steps down after n/2 rolls on average). None has 0 left."""
    check_rating(rating)
    remaining = RATINGS[RATINGS.index(rating) : -1]
    return sum((Fraction(sides, len(STEP_DOWN_FACES)) for sides in remaining), Fraction(0))


@dataclass(frozen=True, slots=True)
class ResourceRoll:
    """One roll of a resource die: its face, the rating before and after, and the exact figures shown."""

    resource: Resource
    die: Die
    before: int
    after: int
    chance_to_step_down: Fraction
    expected_rolls_left: Fraction
    """From the rating after the roll."""

    @property
    def stepped_down(self) -> bool:
        return self.after != self.before

    @property
    def ran_out(self) -> bool:
        return self.after == NONE


def roll_resource(resource: Resource, rating: int, dice: DiceSource) -> ResourceRoll:
    """Roll the rated die; on 1 or 2 the rating steps down one size. A resource rated none cannot be rolled."""
    if check_rating(rating) == NONE:
        raise CannotAttempt("You have no {resource} left", resource=Term(resource.value.capitalize()))
    face = dice.roll(rating)
    after = step_down(rating) if face in STEP_DOWN_FACES else rating
    return ResourceRoll(
        resource=resource,
        die=Die(sides=rating, face=face, role=Role.BASE),
        before=rating,
        after=after,
        chance_to_step_down=chance_to_step_down(rating),
        expected_rolls_left=expected_rolls_left(after),
    )


def resource_events(roll: ResourceRoll) -> Events:
    """A resource roll is a luck event whose success is keeping the die: p = (n - 2) / n."""
    return (LuckEvent(1 - roll.chance_to_step_down, not roll.stepped_down),)
