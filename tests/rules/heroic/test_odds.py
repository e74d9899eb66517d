"""Exact Heroic Roll odds, checked against icepool and against brute-force enumeration of every face."""

from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import FixedDice
from rules.errors import InvalidInput
from rules.heroic.odds import odds_for_heroic
from rules.heroic.roll import roll_heroic

DICE = {"2d6": (2, 6), "d12": (1, 12), "d20": (1, 20)}
SKILLS = (0, 1, 4, 7, 12, 20, 30)
TNS = (1, 2, 4, 8, 10, 13, 14, 16, 18, 20, 25, 31, 37, 42, 50, 60)
GRID = [(skill, tn, variant) for variant in DICE for skill in SKILLS for tn in TNS]


def seed_reading(faces, sides, skill, tn):
    """The seed's reading, written out by faces: all-highest Crit, all-1 Fumble, else total against TN."""
    if all(face == sides for face in faces):
        return "crit"
    if all(face == 1 for face in faces):
        return "fumble"
    total = sum(faces) + skill
    return "success" if total > tn else "complication" if total == tn else "failure"


def chances(tally):
    """The five chances the odds report, from a distribution over readings."""
    success = tally["success"] + tally["complication"] + tally["crit"]
    return {
        "success": success,
        "complication": tally["complication"],
        "crit": tally["crit"],
        "fumble": tally["fumble"],
        "failure": tally["failure"] + tally["fumble"],
    }


def as_fractions(odds):
    return {name: getattr(odds, name) for name in ("success", "complication", "crit", "fumble", "failure")}


@pytest.mark.parametrize(("skill", "tn", "variant"), GRID)
def test_odds_equal_icepool(skill, tn, variant):
    count, sides = DICE[variant]
    readings = icepool.map(
        lambda *faces: seed_reading(faces, sides, skill, tn), *([icepool.d(sides)] * count)
    )
    tally = {
        name: readings.probability(name) for name in ("success", "complication", "crit", "fumble", "failure")
    }
    assert as_fractions(odds_for_heroic(skill, tn, variant)) == chances(tally)


@pytest.mark.parametrize("variant", DICE)
def test_odds_equal_brute_force_and_the_roll_itself(variant):
    """Every face combination, read by the seed's rule and by roll_heroic, tallies to the computed odds."""
    count, sides = DICE[variant]
    for skill, tn in [(0, 2), (4, 14), (7, 8), (6, 16), (3, 12), (30, 41), (10, 22), (2, 60)]:
        by_rule = dict.fromkeys(("success", "complication", "crit", "fumble", "failure"), Fraction(0))
        by_roll = dict.fromkeys(by_rule, Fraction(0))
        names = {"success_with_complication": "complication"}
        for faces in product(range(1, sides + 1), repeat=count):
            weight = Fraction(1, sides**count)
            by_rule[seed_reading(faces, sides, skill, tn)] += weight
            outcome = roll_heroic(skill, FixedDice(faces), tn=tn, variant=variant).outcome.value
            by_roll[names.get(outcome, outcome)] += weight
        odds = as_fractions(odds_for_heroic(skill, tn, variant))
        assert odds == chances(by_rule) == chances(by_roll)


def test_known_values_from_the_dice():
    # 2d6: double 6 and double 1 are 1/36 each; Skill 7 vs TN 8 fails only on the Fumble.
    odds = odds_for_heroic(7, 8)
    assert (odds.crit, odds.fumble, odds.failure, odds.complication) == (
        Fraction(1, 36),
        Fraction(1, 36),
        Fraction(1, 36),
        0,
    )
    # d20, Skill 4 vs TN 14: naturals 10-20 succeed (11 of 20), the natural 10 with a complication.
    d20 = odds_for_heroic(4, 14, "d20")
    assert (d20.success, d20.complication, d20.crit) == (Fraction(11, 20), Fraction(1, 20), Fraction(1, 20))
    # An impossible TN leaves only the Crit; a trivial one fails only on the Fumble.
    assert odds_for_heroic(0, 60, "d12").success == Fraction(1, 12)
    assert odds_for_heroic(30, 1, "d12").failure == Fraction(1, 12)


def test_as_dict_is_exact_and_float():
    data = odds_for_heroic(6, 16).as_dict()
    assert set(data) == {"success", "complication", "crit", "fumble", "failure"}
    assert data["crit"] == {"exact": "1/36", "float": 1 / 36}
    # Zoltan's Heroic task: 4+6 or 5+5 or 6+4 ties TN 16 -> 3/36.
    assert data["complication"]["exact"] == "1/12"


def test_odds_are_cached_and_accept_enum_or_text():
    assert odds_for_heroic(5, 10, "D12") is odds_for_heroic(5, 10, "d12")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((31, 10, "2d6"), "Skill 31"),
        ((5, 0, "2d6"), "TN 0"),
        ((5, 61, "d20"), "TN 61"),
        ((5, 10, "3d6"), "3d6"),
    ],
)
def test_bad_input(args, message):
    with pytest.raises(InvalidInput, match=message):
        odds_for_heroic(*args)


@settings(max_examples=150, deadline=None)
@given(skill=st.integers(0, 29), tn=st.integers(1, 59), variant=st.sampled_from(list(DICE)))
def test_odds_properties(skill, tn, variant):
    odds = odds_for_heroic(skill, tn, variant)
    sides = DICE[variant][1]
    assert odds.success + odds.failure == 1
    assert odds.crit == odds.fumble == Fraction(1, sides ** DICE[variant][0])
    assert odds.crit <= odds.success and odds.fumble <= odds.failure
    assert odds.crit + odds.complication <= odds.success
    # More Skill never hurts; a higher TN never helps.
    assert odds_for_heroic(skill + 1, tn, variant).success >= odds.success
    assert odds_for_heroic(skill, tn + 1, variant).success <= odds.success
