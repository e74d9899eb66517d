"""Year Zero properties (hypothesis) and the stored-roll round trip (as_dict / from_dict)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import FixedDice, Role
from rules.errors import RulesError
from rules.yearzero.roll import YzRoll, push, roll_yz


@st.composite
def rolls(draw):
    """A first roll with faces drawn die by die, and faces for its push."""
    attribute, skill, gear = (draw(st.integers(0, 4)) for _ in range(3))
    artifacts = tuple(draw(st.lists(st.sampled_from([8, 10, 12]), max_size=3)))
    if attribute + skill + gear + len(artifacts) == 0:
        attribute = 1
    sides = [6] * (attribute + skill + gear) + list(artifacts)
    first_faces = [draw(st.integers(1, s)) for s in sides]
    first = roll_yz(attribute, skill, gear, artifacts, FixedDice(first_faces))
    again = [draw(st.integers(1, first.dice[i].sides)) for i in first.reroll_indices]
    return first, again


def independent_reading(dice):
    """The seed's reading, written out again: (successes, base banes, gear banes)."""
    table = {6: 1, 7: 1, 8: 2, 9: 2, 10: 3, 11: 3, 12: 4}
    successes = sum(table.get(d.face, 0) if d.role is Role.ARTIFACT else d.face == 6 for d in dice)
    base = sum(d.role is Role.BASE and d.face == 1 for d in dice)
    gear = sum(d.role is Role.GEAR and d.face == 1 for d in dice)
    return successes, base, gear


@settings(max_examples=150, deadline=None)
@given(rolls())
def test_push_properties(case):
    first, again = case
    assert (first.successes, first.base_banes, first.gear_banes) == independent_reading(first.dice)
    if not again:
        assert not first.can_push
        with pytest.raises(RulesError):
            push(first, FixedDice([]))
        return
    after = push(first, FixedDice(again))
    for before, now in zip(first.dice, after.dice, strict=True):
        if before.role is not Role.ARTIFACT and before.face in (6, 1):
            assert now == before  # a 6 or a 1 (base or gear) never changes
        if before.role is Role.ARTIFACT and before.face >= 6:
            assert now == before  # an Artifact die that scored is kept
    assert [after.dice[i].face for i in after.rerolled] == again
    assert after.successes >= first.successes
    assert after.base_banes >= first.base_banes and after.gear_banes >= first.gear_banes
    assert (after.successes, after.base_banes, after.gear_banes) == independent_reading(after.dice)
    assert after.willpower_gained == after.attribute_damage == after.base_banes
    assert after.gear_damage == after.gear_banes


@settings(max_examples=100, deadline=None)
@given(rolls())
def test_round_trip_through_json(case):
    first, again = case
    stored = [first] + ([push(first, FixedDice(again))] if again else [])
    for r in stored:
        back = YzRoll.from_dict(json.loads(json.dumps(r.as_dict())))
        assert back == r
        assert back.reading_as_dict() == r.reading_as_dict()
        assert (back.first == r.first) and back.can_push == r.can_push


def test_rebuilt_first_roll_can_still_be_pushed():
    first = roll_yz(2, 0, 1, (10,), FixedDice([6, 3, 2, 4]))
    back = YzRoll.from_dict(json.loads(json.dumps(first.as_dict())))
    after = push(back, FixedDice([1, 1, 10]))
    assert [d.face for d in after.dice] == [6, 1, 1, 10]
    assert after.willpower_gained == 1 and after.gear_damage == 1 and after.successes == 4


def test_as_dict_is_compact():
    first = roll_yz(1, 1, 0, (8,), FixedDice([6, 2, 3]))
    assert first.as_dict() == {"attribute": 1, "skill": 1, "gear": 0, "artifacts": [8], "faces": [6, 2, 3]}
    after = push(first, FixedDice([5, 8]))
    assert after.as_dict()["first_faces"] == [6, 2, 3] and after.as_dict()["faces"] == [6, 5, 8]


GOOD = {"attribute": 1, "skill": 1, "gear": 1, "artifacts": [12], "faces": [6, 2, 3, 4]}


@pytest.mark.parametrize(
    "corrupt",
    [
        None,
        [],
        "text",
        {},
        {k: v for k, v in GOOD.items() if k != "faces"},
        {**GOOD, "extra": 1},
        {**GOOD, "attribute": 11},
        {**GOOD, "attribute": "1"},
        {**GOOD, "skill": None},
        {**GOOD, "artifacts": [6]},
        {**GOOD, "artifacts": 12},
        {**GOOD, "artifacts": ["d12"]},
        {**GOOD, "faces": [6, 2, 3]},
        {**GOOD, "faces": [6, 2, 3, 4, 5]},
        {**GOOD, "faces": [7, 2, 3, 4]},
        {**GOOD, "faces": [6, 2, 3, 13]},
        {**GOOD, "faces": [6, 2, 3, "4"]},
        {**GOOD, "faces": "6234"},
        {**GOOD, "attribute": 0, "skill": 0, "gear": 0, "artifacts": [], "faces": []},
        {**GOOD, "first_faces": [6, 2, 3]},
        {**GOOD, "first_faces": [1, 2, 3, 4]},  # the push changed a kept 1
        {**GOOD, "first_faces": [6, 2, 3, 9]},  # the push changed an Artifact die that scored
        {**GOOD, "faces": [6, 1, 6, 10], "first_faces": [6, 1, 6, 10]},  # nothing was there to push
        {**GOOD, "first_faces": None},
    ],
)
def test_from_dict_rejects_corrupt_data(corrupt):
    with pytest.raises(RulesError, match="^This stored Year Zero roll cannot be read back: "):
        YzRoll.from_dict(corrupt)


def test_from_dict_accepts_a_consistent_push():
    back = YzRoll.from_dict({**GOOD, "first_faces": [6, 5, 3, 1]})
    assert back.pushed and back.rerolled == (1, 2, 3) and back.first.as_dict()["faces"] == [6, 5, 3, 1]
