"""Exact Year Zero odds with the Pride die and 0-3 pushes (RULES.md section 6), checked against a brute-force walk
of every push a player who pushes whenever they can would make, and against icepool's rerolls."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import icepool
import pytest

from rules.dice import FixedDice
from rules.errors import CannotPush
from rules.yearzero.odds import odds_after_first, odds_for_roll, success_distributions
from rules.yearzero.roll import push, roll_yz

TABLE = {6: 1, 7: 1, 8: 2, 9: 2, 10: 3, 11: 3, 12: 4}


def score(sides: int, face: int) -> int:
    return int(face == 6) if sides == 6 else TABLE.get(face, 0)


def rerolled(sides: int, face: int) -> bool:
    return score(sides, face) == 0 and not (sides == 6 and face == 1)


def pool_sides(base: int, gear: int, artifacts: tuple[int, ...], pride: bool) -> tuple[int, ...]:
    return (6,) * (base + gear) + artifacts + ((12,) if pride else ())


@cache
def walk(sides: tuple[int, ...], faces: tuple[int, ...], base: int, gear: int, left: int, pushed: bool) -> tuple:
    """Expected (success after all, successes after all, base 1s at the end, WP, gear damage) from these faces with
    `left` pushes allowed, pushing whenever something can be rerolled."""
    again = [i for i, (s, f) in enumerate(zip(sides, faces, strict=True)) if rerolled(s, f)]
    if not again or not left:
        successes = sum(score(s, f) for s, f in zip(sides, faces, strict=True))
        base_ones, gear_ones = faces[:base].count(1), faces[base : base + gear].count(1)
        return (int(successes >= 1), successes, base_ones, base_ones * pushed, gear_ones * pushed)
    outcomes = list(product(*(range(1, sides[i] + 1) for i in again)))
    total = [Fraction(0)] * 5
    for new in outcomes:
        after = list(faces)
        for i, face in zip(again, new, strict=True):
            after[i] = face
        for k, value in enumerate(walk(sides, tuple(after), base, gear, left - 1, True)):
            total[k] += value
    return tuple(value / len(outcomes) for value in total)


def brute_force(base, gear, artifacts, pride, pushes) -> tuple:
    sides = pool_sides(base, gear, artifacts, pride)
    firsts = list(product(*(range(1, s + 1) for s in sides)))
    sums = [Fraction(0)] * 5
    for faces in firsts:
        for k, value in enumerate(walk(sides, faces, base, gear, pushes, False)):
            sums[k] += value
    return tuple(value / len(firsts) for value in sums)


POOLS = [
    (1, 0, (), False), (0, 1, (), False), (2, 0, (), False), (1, 1, (), False), (0, 0, (), True),
    (1, 0, (), True), (0, 1, (8,), True), (1, 0, (10,), False), (0, 0, (8, 12), True),
]  # fmt: skip


@pytest.mark.parametrize("pushes", [0, 1, 2, 3])
@pytest.mark.parametrize(("base", "gear", "artifacts", "pride"), POOLS)
def test_odds_after_all_pushes_equal_brute_force(base, gear, artifacts, pride, pushes):
    odds = odds_for_roll(base, gear, artifacts, pride=pride, pushes=pushes)
    ours = (
        odds.success_after_all_pushes,
        odds.expected_successes_after_all_pushes,
        odds.expected_base_banes_after_push,
        odds.expected_willpower,
        odds.expected_gear_damage,
    )
    assert ours == brute_force(base, gear, artifacts, pride, pushes)
    assert odds.success_after_push == brute_force(base, gear, artifacts, pride, 1)[0]  # one push, whatever allowed


def icepool_final(sides: int, pushes: int) -> icepool.Die:
    """One die's final face: its blanks rerolled up to `pushes` times."""
    die = icepool.d(sides)
    blanks = [face for face in range(1, sides + 1) if rerolled(sides, face)]
    return die.reroll(blanks, depth=pushes) if pushes else die


GRID = [
    (b, g, a, p) for b in range(4) for g in range(3) for a in [(), (10,)] for p in (False, True) if b + g + len(a) + p
]


@pytest.mark.parametrize("pushes", [0, 2, 3])
@pytest.mark.parametrize(("base", "gear", "artifacts", "pride"), GRID)
def test_success_after_all_pushes_and_its_distribution_equal_icepool(base, gear, artifacts, pride, pushes):
    sides = pool_sides(base, gear, artifacts, pride)
    scores = [icepool_final(s, pushes).map(lambda f, s=s: score(s, f)) for s in sides]
    total = sum(scores[1:], scores[0])
    odds = odds_for_roll(base, gear, artifacts, pride=pride, pushes=pushes)
    assert odds.success_after_all_pushes == total.probability(">=", 1)
    assert odds.expected_successes_after_all_pushes == total.mean()
    _, after = success_distributions(base, gear, artifacts, pride=pride, pushes=pushes)
    assert after == tuple(total.probability(k) for k in range(len(after)))


def remaining(roll) -> tuple:
    """Brute force from a roll already made: (success after its next push, after all it has left, WP of the next)."""
    sides = tuple(d.sides for d in roll.dice)
    faces = tuple(d.face for d in roll.dice)
    base, gear = roll.attribute + roll.skill, roll.gear
    after_all = walk(sides, faces, base, gear, roll.pushes_left, roll.pushed)
    after_one = walk(sides, faces, base, gear, 1, roll.pushed)
    return after_one[0], after_all[0], after_one[3] - roll.attribute_damage


@pytest.mark.parametrize(
    ("faces", "pushes", "later"),
    [([3, 4, 5], 2, []), ([3, 4, 5], 3, [2, 1, 5]), ([1, 2, 4], 2, [3, 2]), ([2, 6, 2], 3, [4, 3])],
)
def test_odds_for_a_roll_already_made_equal_brute_force(faces, pushes, later):
    roll = roll_yz(1, 0, 0, (8,), FixedDice(faces), pride=True, pushes=pushes)
    if later:
        roll = push(roll, FixedDice(later))
    odds = odds_after_first(roll)
    assert (odds.success_after_push, odds.success_after_all_pushes, odds.expected_willpower) == remaining(roll)


def test_odds_of_a_roll_with_no_push_left_are_refused_or_as_it_lies():
    roll = roll_yz(1, 0, dice=FixedDice([3]), pushes=2)
    last = push(push(roll, FixedDice([4])), FixedDice([5]))
    with pytest.raises(CannotPush):
        odds_after_first(last)
    none_allowed = odds_after_first(roll_yz(1, 0, dice=FixedDice([3]), pushes=0))
    assert not none_allowed.can_push and none_allowed.success_after_all_pushes == 0


def test_one_push_allowed_gives_the_figures_it_always_did():
    for pool in [(2, 1, (8,)), (3, 0, ()), (0, 2, (12, 10))]:
        old, new = odds_for_roll(*pool), odds_for_roll(*pool, pushes=1)
        assert new.success_after_all_pushes == old.success_after_push == new.success_after_push
        assert new.expected_successes_after_all_pushes == old.expected_successes_after_push


def test_the_odds_line_names_every_push_allowed():
    from rules.language import speak
    from rules.odds_text import yz_pool_line

    assert yz_pool_line(odds_for_roll(1, pushes=0), speak("en")) == "Odds: success 17% · no push allowed"
    assert yz_pool_line(odds_for_roll(1), speak("en")) == "Odds: success 17% · with a push 28%"
    # 1 - (1 - 1/6 * (1 + 2/3 + 4/9 + 8/27)) = 0.40
    every = "Odds: success 17% · with a push 28% · with 3 pushes 40%"
    assert yz_pool_line(odds_for_roll(1, pushes=3), speak("en")) == every
