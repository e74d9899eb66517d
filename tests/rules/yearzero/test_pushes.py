"""The Pride die and several pushes (RULES.md section 6), with fixed faces worked out by hand."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import FixedDice, Role
from rules.errors import CannotPush, InvalidInput
from rules.yearzero.roll import YzRoll, push, roll_yz


def roll(attribute, skill, gear=0, artifacts=(), *, faces, pride=False, pushes=1):
    dice = FixedDice(faces)
    result = roll_yz(attribute, skill, gear, artifacts, dice, pride=pride, pushes=pushes)
    dice.finish()
    return result


def pushed(previous, *new):
    dice = FixedDice(new)
    result = push(previous, dice)
    dice.finish()
    return result


def test_the_pride_die_is_a_d12_last_read_like_an_artifact_die():
    r = roll(1, 0, 0, (8,), faces=[3, 5, 12], pride=True)
    assert [(d.sides, d.role) for d in r.dice] == [(6, Role.BASE), (8, Role.ARTIFACT), (12, Role.PRIDE)]
    assert r.successes == 4 and r.base_banes == 0
    assert r.reroll_indices == (0, 1)  # the scoring Pride die is kept


def test_a_pride_die_showing_1_is_no_bane_and_is_rerolled():
    r = roll(0, 0, faces=[1], pride=True)  # a Pride die alone is a roll
    assert (r.successes, r.base_banes, r.gear_banes, r.reroll_indices) == (0, 0, 0, (0,))
    after = pushed(r, 10)
    assert after.successes == 3 and after.willpower_gained == 0


def test_pride_comes_on_top_of_three_artifact_dice():
    r = roll(0, 0, 0, (8, 10, 12), faces=[1, 2, 3, 6], pride=True)
    assert r.successes == 1 and len(r.dice) == 4 and r.reroll_indices == (0, 1, 2)


def test_zero_pushes_allowed_is_never_pushable():
    r = roll(2, 0, faces=[3, 4], pushes=0)
    assert not r.can_push and r.reroll_indices == () and r.pushes_left == 0
    with pytest.raises(CannotPush, match="may not be pushed"):
        push(r, FixedDice([5, 5]))


def test_three_pushes_count_each_1_once_and_totals_are_the_1s_showing():
    first = roll(3, 0, 1, faces=[1, 3, 4, 5], pushes=3)  # one base 1 on the first roll
    one = pushed(first, 1, 2, 1)  # base 3 -> 1, 4 -> 2, gear 5 -> 1
    assert (one.new_base_banes, one.new_gear_banes) == (2, 1)  # the first push counts the first roll's 1 too
    two = pushed(one, 1)  # the base 2 -> 1
    assert (two.new_base_banes, two.new_gear_banes, two.willpower_gained, two.gear_damage) == (1, 0, 3, 1)
    assert two.pushes == 2 and two.pushes_left == 1 and not two.can_push  # every die shows 1 now
    assert two.first is first and two.previous is one and two.rolls() == (first, one, two)


def test_a_push_past_the_allowed_number_is_refused():
    first = roll(1, 0, faces=[2], pushes=2)
    two = pushed(pushed(first, 3), 4)
    assert two.pushes == 2 and not two.can_push
    with pytest.raises(CannotPush, match="pushed 2 times"):
        push(two, FixedDice([5]))


def test_each_push_rerolls_blank_artifact_and_pride_dice_again():
    first = roll(0, 0, 0, (8,), faces=[2, 3], pride=True, pushes=2)
    one = pushed(first, 6, 5)  # the d8 scores, the Pride die is blank again
    assert one.reroll_indices == (1,) and one.successes == 1
    two = pushed(one, 12)
    assert two.successes == 5 and two.rerolled == (1,)


@pytest.mark.parametrize("pushes", [0, 1, 2, 3])
def test_several_pushes_round_trip_through_as_dict(pushes):
    r = roll(2, 1, 1, (10,), faces=[2, 3, 4, 5, 1, 2], pride=True, pushes=3)
    for _ in range(pushes):
        r = push(r, FixedDice([2] * 6))
    back = YzRoll.from_dict(r.as_dict())
    assert back == r and back.rolls() == r.rolls() and back.pushes == pushes


def test_an_old_payload_reads_as_one_push_and_no_pride():
    old = {"attribute": 1, "skill": 0, "gear": 0, "artifacts": [], "first_faces": [3], "faces": [6]}
    r = YzRoll.from_dict(old)
    assert (r.pride, r.pushes_allowed, r.pushes, r.successes) == (False, 1, 1, 1)
    assert r.as_dict() == old


@pytest.mark.parametrize(
    "damage",
    [
        {"pride": "yes"},
        {"pushes_allowed": 4},
        {"push_faces": [[4]]},  # faces after a push with no first roll
        {"first_faces": [3], "push_faces": [[4], [5]]},  # three pushes of a roll allowing one
        {"first_faces": [3], "push_faces": "4"},
    ],
)
def test_damaged_payloads_are_refused(damage):
    with pytest.raises(InvalidInput):
        YzRoll.from_dict({"attribute": 1, "skill": 0, "gear": 0, "artifacts": [], "faces": [6]} | damage)


def test_pushes_out_of_range_are_refused():
    with pytest.raises(InvalidInput, match="Pushes allowed"):
        roll_yz(1, 0, pushes=4)


class Drawn:
    """Faces drawn by hypothesis as the dice ask for them (any number of pushes)."""

    def __init__(self, draw) -> None:
        self.draw = draw

    def roll(self, sides: int) -> int:
        return self.draw(st.integers(1, sides))


@st.composite
def pushed_rolls(draw):
    attribute, skill, gear = (draw(st.integers(0, 3)) for _ in range(3))
    artifacts = tuple(draw(st.lists(st.sampled_from([8, 10, 12]), max_size=3)))
    pride = draw(st.booleans())
    if attribute + skill + gear + len(artifacts) + pride == 0:
        attribute = 1
    roll = roll_yz(attribute, skill, gear, artifacts, Drawn(draw), pride=pride, pushes=draw(st.integers(0, 3)))
    while roll.can_push and draw(st.booleans()):
        roll = push(roll, Drawn(draw))
    return roll


@settings(max_examples=200, deadline=None)
@given(pushed_rolls())
def test_a_1_counts_once_whatever_the_pushes(roll):
    chain = roll.rolls()
    base = roll.attribute + roll.skill
    assert sum(step.new_base_banes for step in chain) == roll.willpower_gained == roll.attribute_damage
    assert sum(step.new_gear_banes for step in chain) == roll.gear_damage
    if roll.pushed:  # the totals are the 1s showing
        assert roll.attribute_damage == [d.face for d in roll.dice[:base]].count(1)
        assert roll.gear_damage == [d.face for d in roll.dice[base : base + roll.gear]].count(1)
    assert all(not step.new_base_banes and not step.new_gear_banes for step in chain[:1])  # none on a first roll
    assert len(chain) == roll.pushes + 1 <= roll.pushes_allowed + 1
    assert YzRoll.from_dict(json.loads(json.dumps(roll.as_dict()))) == roll
    successes = [step.successes for step in chain]
    assert successes == sorted(successes)  # a push never loses a success: scoring dice are kept
