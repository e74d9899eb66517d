"""Forbidden Lands resource dice (RULES.md section 7): every face of every rating, and the exact figures."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import FixedDice
from rules.errors import CannotAttempt, FacesError, InvalidInput
from rules.yearzero.resources import (
    NONE,
    Resource,
    chance_to_step_down,
    check_rating,
    expected_rolls_left,
    resource_events,
    roll_resource,
    step_down,
)

SMALLER = {12: 10, 10: 8, 8: 6, 6: NONE}


@pytest.mark.parametrize("rating", [6, 8, 10, 12])
def test_every_face_of_every_rating_steps_down_only_on_1_or_2(rating: int) -> None:
    for face in range(1, rating + 1):
        roll = roll_resource(Resource.FOOD, rating, FixedDice([face]))
        assert roll.die.face == face and roll.die.sides == rating
        assert roll.before == rating
        assert roll.after == (SMALLER[rating] if face <= 2 else rating)
        assert roll.stepped_down == (face <= 2)
        assert roll.ran_out == (rating == 6 and face <= 2)


def test_the_chances_to_step_down_are_those_of_the_ruling() -> None:
    assert [chance_to_step_down(n) for n in (6, 8, 10, 12)] == [
        Fraction(1, 3), Fraction(1, 4), Fraction(1, 5), Fraction(1, 6)
    ]


def _expected_by_recurrence(rating: int) -> Fraction:
    """E(r) = 1 + p E(smaller) + (1 - p) E(r), solved: E(r) = 1/p + E(smaller); none has 0 left."""
    if rating == NONE:
        return Fraction(0)
    return 1 / Fraction(2, rating) + _expected_by_recurrence(SMALLER[rating])


@pytest.mark.parametrize("rating, figure", [(NONE, 0), (6, 3), (8, 7), (10, 12), (12, 18)])
def test_expected_rolls_left_match_the_ruling_and_the_recurrence(rating: int, figure: int) -> None:
    assert expected_rolls_left(rating) == figure == _expected_by_recurrence(rating)


def test_the_roll_shows_the_figures_of_its_die_and_of_the_rating_after() -> None:
    roll = roll_resource(Resource.TORCHES, 10, FixedDice([2]))
    assert roll.chance_to_step_down == Fraction(1, 5)
    assert roll.expected_rolls_left == 7  # from the D8 it stepped down to


def test_a_resource_rated_none_cannot_be_rolled_and_names_the_resource() -> None:
    with pytest.raises(CannotAttempt, match="You have no Food left"):
        roll_resource(Resource.FOOD, NONE, FixedDice([1]))


@pytest.mark.parametrize("rating", [4, 7, 20, True])
def test_other_ratings_are_refused(rating: int) -> None:
    with pytest.raises(InvalidInput, match="D6, D8, D10, D12 or none"):
        check_rating(rating)


def test_none_neither_steps_down_nor_has_a_chance_to() -> None:
    with pytest.raises(InvalidInput):
        step_down(NONE)
    with pytest.raises(InvalidInput):
        chance_to_step_down(NONE)


def test_a_face_the_die_cannot_show_is_refused() -> None:
    with pytest.raises(FacesError, match="d8"):
        roll_resource(Resource.ARROWS, 8, FixedDice([9]))


@pytest.mark.parametrize("face, kept", [(1, False), (3, True)])
def test_a_resource_roll_is_a_luck_event_of_keeping_the_die(face: int, kept: bool) -> None:
    (event,) = resource_events(roll_resource(Resource.WATER, 12, FixedDice([face])))
    assert event.p == Fraction(10, 12)
    assert event.success is kept
