"""Exact Year Zero odds, checked against brute-force enumeration and against icepool."""

import itertools
import math
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import FixedDice
from rules.errors import CannotPush, InvalidInput
from rules.yearzero.odds import odds_after_first, odds_for_roll
from rules.yearzero.roll import push, roll_yz

TABLE = {6: 1, 7: 1, 8: 2, 9: 2, 10: 3, 11: 3, 12: 4}


def score(kind, face):
    return TABLE.get(face, 0) if kind == "artifact" else int(face == 6)


def rerollable(kind, face):
    return score(kind, face) == 0 and not (kind != "artifact" and face == 1)


def totals(kinds, faces):
    successes = sum(score(k, f) for k, f in zip(kinds, faces, strict=True))
    base = sum(k == "base" and f == 1 for k, f in zip(kinds, faces, strict=True))
    gear = sum(k == "gear" and f == 1 for k, f in zip(kinds, faces, strict=True))
    return successes, base, gear


def brute_force(base, gear, artifacts):
    """Enumerate every first roll and, when it can be pushed, every push: pushing whenever possible."""
    kinds = ["base"] * base + ["gear"] * gear + ["artifact"] * len(artifacts)
    sides = [6] * (base + gear) + list(artifacts)
    acc = dict.fromkeys(("s1", "push", "ok2", "e1", "e2", "bb", "gb", "wp", "gd"), Fraction(0))
    firsts = list(itertools.product(*(range(1, s + 1) for s in sides)))
    for first in firsts:
        s1 = totals(kinds, first)[0]
        again = [i for i, (k, f) in enumerate(zip(kinds, first, strict=True)) if rerollable(k, f)]
        outcomes = list(itertools.product(*(range(1, sides[i] + 1) for i in again)))
        sums = [0] * 6
        for new in outcomes:
            final = list(first)
            for i, f in zip(again, new, strict=True):
                final[i] = f
            s2, bb, gb = totals(kinds, final)
            pushed = bool(again)
            for j, v in enumerate((s2 >= 1, s2, bb, gb, bb * pushed, gb * pushed)):
                sums[j] += v
        n = len(outcomes)
        acc["s1"] += s1 >= 1
        acc["push"] += bool(again)
        acc["e1"] += s1
        for key, v in zip(("ok2", "e2", "bb", "gb", "wp", "gd"), sums, strict=True):
            acc[key] += Fraction(v, n)
    return {k: v / len(firsts) for k, v in acc.items()}


FIELDS = {
    "s1": "success_first_roll", "push": "can_push", "ok2": "success_after_push",
    "e1": "expected_successes_first_roll", "e2": "expected_successes_after_push",
    "bb": "expected_base_banes_after_push", "gb": "expected_gear_banes_after_push",
    "wp": "expected_willpower", "gd": "expected_gear_damage",
}  # fmt: skip


def assert_odds_are(odds, truth: dict) -> None:
    """Every figure the truth has (brute force has all nine, the icepool model eight) equals ours exactly."""
    assert len(truth) >= 8
    assert {FIELDS[key]: getattr(odds, FIELDS[key]) for key in truth} == {FIELDS[k]: v for k, v in truth.items()}


SMALL = [
    (1, 0, ()), (0, 1, ()), (2, 1, ()), (1, 2, ()), (3, 0, ()), (0, 0, (8,)), (0, 0, (10,)),
    (1, 1, (8,)), (2, 0, (12,)), (0, 1, (10,)), (1, 0, (8, 12)),
]  # fmt: skip


@pytest.mark.parametrize(("base", "gear", "artifacts"), SMALL)
def test_odds_match_brute_force(base, gear, artifacts):
    assert_odds_are(odds_for_roll(base, gear, artifacts), brute_force(base, gear, artifacts))


def icepool_die(kind, sides, read):
    """One die's first roll and push as an icepool Die of read(face first, face final)."""
    weights = {}
    for face in range(1, sides + 1):
        again = rerollable(kind, face)
        for new in range(1, sides + 1) if again else [face]:
            key = read(face, new)
            weights[key] = weights.get(key, 0) + (1 if again else sides)
    return icepool.Die(weights)


def icepool_total(base, gear, artifacts, read):
    """The pool's sum of read(kind, face first, face final) over every die."""
    dice = [(base, "base", 6), (gear, "gear", 6)] + [(1, "artifact", s) for s in artifacts]
    parts = [n @ icepool_die(kind, sides, lambda f, g, k=kind: read(k, f, g)) for n, kind, sides in dice if n]
    return sum(parts[1:], parts[0])


def icepool_odds(base, gear, artifacts):
    def total(read):
        return icepool_total(base, gear, artifacts, read)

    def banes_if_pushed(role):
        # (dice a push rerolls, banes of this role after it) per die, summed as vectors
        pair = total(lambda k, f, g: icepool.Vector((int(rerollable(k, f)), int(k == role and g == 1))))
        return pair.map(lambda v: v[1] if v[0] else 0).mean()

    return {
        "s1": total(lambda k, f, g: score(k, f)).probability(">=", 1),
        "push": total(lambda k, f, g: int(rerollable(k, f))).probability(">=", 1),
        "ok2": total(lambda k, f, g: score(k, g)).probability(">=", 1),
        "e1": total(lambda k, f, g: score(k, f)).mean(),
        "e2": total(lambda k, f, g: score(k, g)).mean(),
        "bb": total(lambda k, f, g: int(k == "base" and g == 1)).mean(),
        "wp": banes_if_pushed("base"),
        "gd": banes_if_pushed("gear"),
    }


GRID = [(b, g, a) for b in range(7) for g in range(4) for a in [(), (8,), (12,)] if b + g + len(a) > 0]


@pytest.mark.parametrize(("base", "gear", "artifacts"), GRID)
def test_odds_match_icepool(base, gear, artifacts):
    assert_odds_are(odds_for_roll(base, gear, artifacts), icepool_odds(base, gear, artifacts))


def test_odds_icepool_with_several_artifacts_beyond_bounds():
    odds = odds_for_roll(12, 2, ("d12", "d8", 10))
    truth = icepool_odds(12, 2, (8, 10, 12))
    assert odds.success_first_roll == truth["s1"] and odds.expected_successes_after_push == truth["e2"]
    assert (odds.success_after_push, odds.expected_willpower) == (truth["ok2"], truth["wp"])
    assert odds.artifacts == (8, 10, 12)


def test_odds_simple_hand_values():
    one = odds_for_roll(1)
    assert one.success_first_roll == Fraction(1, 6)
    assert one.success_after_push == Fraction(1, 6) + Fraction(4, 6) * Fraction(1, 6)
    assert one.expected_willpower == Fraction(4, 6) * Fraction(1, 6)  # a first-roll 1 is not pushed
    assert one.expected_base_banes_after_push == Fraction(1, 6) + Fraction(4, 6) * Fraction(1, 6)
    d12 = odds_for_roll(0, 0, [12])
    assert d12.success_first_roll == Fraction(7, 12)
    assert d12.expected_successes_first_roll == Fraction(16, 12)


def test_odds_benchmark_pool_and_order_of_artifacts():
    odds = odds_for_roll(25, 5, (12,))
    assert odds.base == 25 and odds.gear == 5
    assert odds.success_first_roll == 1 - Fraction(5, 6) ** 30 * Fraction(5, 12)
    assert odds_for_roll(1, 0, (12, 8)) == odds_for_roll(1, 0, (8, 12))
    data = odds.as_dict()
    assert data["artifacts"] == ["d12"]
    assert (
        data["success_first_roll"]["exact"]
        == f"{odds.success_first_roll.numerator}/{odds.success_first_roll.denominator}"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 0, ()), "at least one die"),
        ((-1, 0, ()), "Base dice -1 is out of range"),
        ((1, 201, ()), "Gear dice 201 is out of range"),
        ((1, 0, (6,)), "Artifact die 6"),
        ((1, 0, (8,) * 13), "13 Artifact dice"),
    ],
)
def test_odds_errors(args, message):
    with pytest.raises(InvalidInput, match=message):
        odds_for_roll(*args)


# --- odds of pushing a roll already made ---------------------------------------------------------------


def brute_force_push(first):
    """Enumerate every push of a made roll: (P(success), E[successes], E[WP], E[gear damage])."""
    kinds = [d.role.value for d in first.dice]
    again = first.reroll_indices
    outcomes = list(itertools.product(*(range(1, first.dice[i].sides + 1) for i in again)))
    acc = [0, 0, 0, 0]
    for new in outcomes:
        final = [d.face for d in first.dice]
        for i, f in zip(again, new, strict=True):
            final[i] = f
        s, bb, gb = totals(kinds, final)
        for j, v in enumerate((s >= 1, s, bb, gb)):
            acc[j] += v
    return [Fraction(v, len(outcomes)) for v in acc]


@st.composite
def first_rolls(draw):
    base, gear = draw(st.integers(0, 3)), draw(st.integers(0, 2))
    artifacts = tuple(draw(st.lists(st.sampled_from([8, 10, 12]), max_size=2)))
    if base + gear + len(artifacts) == 0:
        base = 1
    sides = [6] * (base + gear) + list(artifacts)
    return roll_yz(base, 0, gear, artifacts, FixedDice([draw(st.integers(1, s)) for s in sides]))


@settings(max_examples=80, deadline=None)
@given(first_rolls())
def test_odds_after_first_match_enumeration(first):
    odds = odds_after_first(first)
    if not first.can_push:
        assert not odds.can_push and odds.expected_willpower == 0 and odds.expected_gear_damage == 0
        assert odds.success_after_push == int(first.success)
        assert odds.expected_successes_after_push == first.successes
        return
    assert odds.can_push
    assert [
        odds.success_after_push, odds.expected_successes_after_push, odds.expected_willpower,
        odds.expected_gear_damage,
    ] == brute_force_push(first)  # fmt: skip


def test_odds_after_first_examples_and_refusal():
    first = roll_yz(2, 0, 0, (), FixedDice([1, 3]))
    odds = odds_after_first(first)
    assert odds.success_after_push == Fraction(1, 6)
    assert odds.expected_willpower == 1 + Fraction(1, 6)
    assert odds.as_dict()["success_after_push"] == {"exact": "1/6", "float": 1 / 6}
    with pytest.raises(CannotPush, match="already been pushed"):
        odds_after_first(push(first, FixedDice([2])))


def _brute_distributions(sides: list[int]) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """Every first roll, and for each every reroll of its blank dice: P(k successes) before and after a push."""
    from itertools import product

    from rules.yearzero.dice import artifact_successes

    def scored(die: int, face: int) -> int:
        return int(face == 6) if die == 6 else artifact_successes(face)

    first: dict[int, Fraction] = {}
    after: dict[int, Fraction] = {}
    total = math.prod(sides)
    for faces in product(*(range(1, die + 1) for die in sides)):
        count = sum(scored(die, face) for die, face in zip(sides, faces, strict=True))
        first[count] = first.get(count, 0) + Fraction(1, total)
        blank = [i for i, (die, face) in enumerate(zip(sides, faces, strict=True))
                 if (1 < face < 6 if die == 6 else scored(die, face) == 0)]
        share = Fraction(1, total * math.prod(sides[i] for i in blank))
        for again in product(*(range(1, sides[i] + 1) for i in blank)):
            final = list(faces)
            for i, face in zip(blank, again, strict=True):
                final[i] = face
            count = sum(scored(die, face) for die, face in zip(sides, final, strict=True))
            after[count] = after.get(count, 0) + share
    return first, after


@pytest.mark.parametrize(
    ("pool", "sides"),
    [((2, 1, ("d8",)), [6, 6, 6, 8]), ((1, 0, ("d12", "d10")), [6, 12, 10]), ((3, 0, ()), [6, 6, 6]),
     ((0, 0, ("d8",)), [8])],
)
def test_success_distributions_equal_brute_force_and_the_summary_odds(pool, sides):
    from rules.yearzero.odds import success_distributions

    first, after = success_distributions(*pool)
    brute_first, brute_after = _brute_distributions(sides)
    assert {k: p for k, p in enumerate(first) if p} == brute_first
    assert {k: p for k, p in enumerate(after) if p} == brute_after
    summary = odds_for_roll(*pool)
    assert 1 - first[0] == summary.success_first_roll and 1 - after[0] == summary.success_after_push
    assert sum(k * p for k, p in enumerate(after)) == summary.expected_successes_after_push
