"""Exact HEX odds, checked with == against icepool and against brute force over every face sequence."""

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache, partial

import icepool
import pytest

from rules.dice import FixedDice
from rules.errors import CannotAttempt, InvalidInput
from rules.hex.odds import (
    at_least_counts,
    odds_for_cast,
    odds_for_contest,
    odds_for_plain,
    odds_for_test,
    success_counts,
)
from rules.hex.pool import HexPool
from rules.hex.roll import Hazard, Outcome, roll_cast, roll_contest, roll_test

# icepool models: each die reads as (six, hazard skull, affinity skull, control skull) -----------------------

SIX, HAZARD, AFFINITY, CONTROL = range(4)


def grid(*ranges, repeat: int = 1) -> list[tuple]:
    return list(itertools.product(*ranges, repeat=repeat))


@cache
def reading_die(kind: int | None) -> icepool.Die:
    """A d6 read as a vector: a 6 counts at SIX, a 1 counts at the die's designation (if any)."""

    def read(face: int) -> icepool.Vector:
        flags = [int(face == 6), 0, 0, 0]
        if kind is not None and face == 1:
            flags[kind] = 1
        return icepool.Vector(flags)

    return icepool.d6.map(read)


@cache
def side(size: int, hazard: int = 0, affinity: int = 0, control: int = 0) -> icepool.Die:
    base = size - hazard - affinity - control
    return (
        hazard @ reading_die(HAZARD) + affinity @ reading_die(AFFINITY) + control @ reading_die(CONTROL)
        + base @ reading_die(None)
    )


def ordinary(size: int) -> tuple[icepool.Die, int]:
    """An ordinary side and its Hazard Dice count (two, or all of one or two dice)."""
    hazard = size if size <= 2 else 2
    return side(size, hazard=hazard), hazard


def caster(size: int, risk: int) -> icepool.Die:
    """A casting: one Affinity and min(Risk, size - 1) Control dice; one die alone is a Control die."""
    if size == 1:
        return side(1, control=1)
    return side(size, affinity=1, control=min(risk, size - 1))


def chance(die: icepool.Die, event) -> Fraction:
    return Fraction(die.map(event).probability(True))


def chance2(first: icepool.Die, second: icepool.Die, event) -> Fraction:
    return Fraction(icepool.map(event, first, second).probability(True))


# Against icepool --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(1, 13))
def test_test_odds_match_icepool(size):
    die, hazard = ordinary(size)
    odds = odds_for_test(size)
    assert odds.success == chance(die, lambda v: v[SIX] >= 1)
    assert odds.mishap == chance(die, lambda v: v[SIX] == 0 and v[HAZARD] == hazard)
    assert odds.successes == tuple(chance(die, lambda v, k=k: v[SIX] == k) for k in range(size + 1))
    assert odds.hazard_dice == hazard and odds.rolled
    assert odds.expected_successes == Fraction(die.map(lambda v: v[SIX]).mean())


@pytest.mark.parametrize(("acting", "opposing"), grid(range(1, 9), repeat=2))
def test_contest_odds_match_icepool(acting, opposing):
    (ours, our_hazard), (theirs, their_hazard) = ordinary(acting), ordinary(opposing)
    odds = odds_for_contest(acting, opposing)
    assert odds.acting_wins == chance2(ours, theirs, lambda a, b: a[SIX] >= b[SIX])
    assert odds.opposing_wins == chance2(ours, theirs, lambda a, b: b[SIX] > a[SIX])
    assert odds.neither == 0
    assert odds.acting_mishap == chance2(
        ours, theirs, lambda a, b: b[SIX] > a[SIX] == 0 and a[HAZARD] == our_hazard
    )
    assert odds.opposing_mishap == chance2(
        ours, theirs, lambda a, b: a[SIX] >= b[SIX] == 0 and b[HAZARD] == their_hazard
    )


def test_thirty_against_thirty_matches_icepool():
    sixes = icepool.d6.map(lambda face: int(face == 6))
    expected = Fraction((30 @ sixes >= 30 @ sixes).probability(True))
    assert odds_for_contest(30, 30).acting_wins == expected


@pytest.mark.parametrize(("size", "risk"), grid(range(1, 9), range(6)))
def test_cast_odds_match_icepool(size, risk):
    die = caster(size, risk)
    odds = odds_for_cast(size, risk)
    assert odds.success == chance(die, lambda v: v[SIX] >= 1)
    assert odds.loss_of_control == chance(die, lambda v: v[SIX] == 0 and v[CONTROL] > 0)
    assert odds.fizzle == chance(die, lambda v: v[SIX] == 0 and v[CONTROL] == 0 and v[AFFINITY] > 0)


@pytest.mark.parametrize(("size", "opposing", "risk"), grid(range(1, 6), range(1, 6), range(4)))
def test_resisted_cast_odds_match_icepool(size, opposing, risk):
    ours, (theirs, their_hazard) = caster(size, risk), ordinary(opposing)
    odds = odds_for_cast(size, risk, opposing=opposing)
    assert odds.success == chance2(ours, theirs, lambda a, b: a[SIX] >= b[SIX])
    assert odds.opposing_wins == 1 - odds.success
    assert odds.loss_of_control == chance2(ours, theirs, lambda a, b: b[SIX] > a[SIX] == 0 and a[CONTROL] > 0)
    assert odds.fizzle == chance2(
        ours, theirs, lambda a, b: b[SIX] > a[SIX] == 0 and a[CONTROL] == 0 and a[AFFINITY] > 0
    )
    assert odds.opposing_mishap == chance2(
        ours, theirs, lambda a, b: a[SIX] >= b[SIX] == 0 and b[HAZARD] == their_hazard
    )


@pytest.mark.parametrize("count", [1, 2, 5, 12, 45])
def test_plain_odds_match_icepool(count):
    sixes = count @ icepool.d6.map(lambda face: int(face == 6))
    odds = odds_for_plain(count)
    assert odds.successes == tuple(Fraction(sixes.probability(k)) for k in range(count + 1))
    assert odds.at_least_one == Fraction(sixes.probability(">=", 1))
    assert odds.expected_successes == Fraction(count, 6)


# Against brute force through the roll functions themselves --------------------------------------------------


def every_roll(dice_count: int, roll):
    """Read every face sequence of dice_count d6 with the roll function; each sequence is one equal chance."""
    for faces in itertools.product(range(1, 7), repeat=dice_count):
        yield roll(FixedDice(faces))


def tally(results, **events) -> dict[str, Fraction]:
    counts = Counter()
    total = 0
    for result in results:
        total += 1
        counts.update(name for name, event in events.items() if event(result))
    return {name: Fraction(counts[name], total) for name in events}


@pytest.mark.parametrize("size", range(1, 6))
def test_test_odds_match_brute_force(size):
    seen = tally(
        every_roll(size, lambda dice: roll_test(size, dice)),
        success=lambda r: r.success,
        mishap=lambda r: r.mishap,
        **{f"k{k}": (lambda r, k=k: r.successes == k) for k in range(size + 1)},
    )
    odds = odds_for_test(size)
    assert (odds.success, odds.mishap) == (seen["success"], seen["mishap"])
    assert odds.successes == tuple(seen[f"k{k}"] for k in range(size + 1))


@pytest.mark.parametrize(("acting", "opposing"), grid(range(-1, 4), repeat=2))
def test_contest_odds_match_brute_force(acting, opposing):
    seen = tally(
        every_roll(max(acting, 0) + max(opposing, 0), lambda dice: roll_contest(acting, opposing, dice)),
        acting_wins=lambda r: r.outcome is Outcome.ACTING,
        opposing_wins=lambda r: r.outcome is Outcome.OPPOSING,
        neither=lambda r: r.outcome is Outcome.NEITHER,
        acting_mishap=lambda r: r.acting.mishap,
        opposing_mishap=lambda r: r.opposing.mishap,
    )
    odds = odds_for_contest(acting, opposing)
    assert {name: getattr(odds, name) for name in seen} == seen


def cast_events():
    return {
        "success": lambda r: r.success,
        "loss_of_control": lambda r: r.hazard is Hazard.LOSS_OF_CONTROL,
        "fizzle": lambda r: r.hazard is Hazard.FIZZLE,
    }


@pytest.mark.parametrize(("size", "risk"), grid(range(1, 6), range(6)))
def test_cast_odds_match_brute_force(size, risk):
    seen = tally(every_roll(size, lambda dice: roll_cast(size, risk, dice)), **cast_events())
    odds = odds_for_cast(size, risk)
    assert {name: getattr(odds, name) for name in seen} == seen


@pytest.mark.parametrize(("size", "opposing", "risk"), grid(range(-1, 4), range(-1, 3), range(3)))
def test_resisted_cast_odds_match_brute_force(size, opposing, risk):
    seen = tally(
        every_roll(max(size, 0) + max(opposing, 0), partial(roll_cast, size, risk, opposing=opposing)),
        **cast_events(),
        neither=lambda r: r.outcome is Outcome.NEITHER,
        opposing_mishap=lambda r: r.opposing.mishap,
    )
    odds = odds_for_cast(size, risk, opposing=opposing)
    assert {name: getattr(odds, name) for name in seen} == seen


# Counts, flags and edge cases -------------------------------------------------------------------------------


def test_counts_add_up_to_every_sequence():
    for n in range(0, 31):
        assert sum(success_counts(n)) == 6**n == at_least_counts(n)[0]
        assert at_least_counts(n)[-1] == 1  # all sixes


def test_nullified_and_automatic_test_odds():
    with pytest.raises(CannotAttempt):
        odds_for_test(HexPool(attribute=1, complications=1))
    required = odds_for_test(0, required=True)
    assert (required.success, required.mishap, required.rolled, required.successes) == (0, 0, False, (1,))
    automatic = odds_for_test(-3, advancement=True)
    assert (automatic.success, automatic.mishap, automatic.rolled) == (1, 0, False)
    assert automatic.successes == (1,) and sum(automatic.successes) == 1  # nothing rolled: 0 successes, surely
    assert odds_for_test(4, advancement=True).success == 1


def test_contest_odds_with_advancement_or_nullified_sides():
    assert odds_for_contest(3, 9, advancement=True).acting_wins == 1
    assert odds_for_contest(0, 0, advancement=True).acting_wins == 1
    both = odds_for_contest(0, -1)
    assert (both.acting_wins, both.opposing_wins, both.neither) == (0, 0, 1)
    lost = odds_for_contest(-1, 2)
    assert (lost.opposing_wins, lost.acting_mishap, lost.opposing_mishap) == (1, 0, 0)


def test_cast_odds_flags():
    with pytest.raises(CannotAttempt):
        odds_for_cast(0, 2)
    assert odds_for_cast(0, 2, required=True).success == 0
    assert odds_for_cast(4, 2, advancement=True).success == 1
    resisted = odds_for_cast(4, 2, opposing=3, advancement=True)
    assert (resisted.success, resisted.loss_of_control, resisted.opposing_mishap) == (1, 0, 0)
    with pytest.raises(InvalidInput, match="Risk -1 is out of range"):
        odds_for_cast(3, -1)


def test_odds_accept_a_pool_and_check_bounds():
    assert odds_for_test(HexPool(attribute=2, skill=1)) == odds_for_test(3)
    with pytest.raises(InvalidInput, match="Opposing pool 46 is out of range"):
        odds_for_contest(3, 46)
    with pytest.raises(InvalidInput, match="Dice 46 is out of range"):
        odds_for_plain(46)


def test_odds_as_dict_uses_exact_strings_and_floats():
    data = odds_for_test(1).as_dict()
    assert data["success"] == {"exact": "1/6", "float": 1 / 6}
    assert data["mishap"]["exact"] == "1/6"
    assert set(data["successes"]) == {"0", "1"}
    contest = odds_for_contest(1, 1).as_dict()
    assert contest["acting_wins"]["exact"] == "31/36" and contest["opposing_size"] == 1
    assert odds_for_cast(2, 1, opposing=1).as_dict()["opposing_size"] == 1
