"""Year Zero (Forbidden Lands) rolls and pushes with fixed faces: the seed's rules and RULES.md section 2."""

import pytest

from rules.dice import Die, FixedDice, Role, SeededDice
from rules.errors import CannotPush, InvalidInput, RulesError
from rules.yearzero.artifacts import parse_artifact
from rules.yearzero.dice import artifact_successes
from rules.yearzero.roll import YzRoll, push, roll_yz
from rules.yearzero.willpower import apply_willpower, check_willpower, spend_willpower


def faces(roll):
    return [d.face for d in roll.dice]


def roll(attribute, skill, gear=0, artifacts=(), *, first):
    dice = FixedDice(first)
    result = roll_yz(attribute, skill, gear, artifacts, dice)
    dice.finish()
    return result


def pushed(first_roll, *new):
    dice = FixedDice(new)
    result = push(first_roll, dice)
    dice.finish()
    return result


# --- reading the first roll -------------------------------------------------------------------------


def test_dice_order_roles_and_sides():
    r = roll(2, 1, 2, (8, 12), first=[1, 2, 3, 4, 5, 6, 7])
    assert [(d.sides, d.role) for d in r.dice] == [
        (6, Role.BASE), (6, Role.BASE), (6, Role.BASE), (6, Role.GEAR), (6, Role.GEAR),
        (8, Role.ARTIFACT), (12, Role.ARTIFACT),
    ]  # fmt: skip
    assert faces(r) == [1, 2, 3, 4, 5, 6, 7]


def test_a_six_is_a_success_and_one_is_enough():
    assert roll(1, 1, first=[6, 3]).successes == 1
    assert roll(1, 1, first=[6, 3]).success
    three = roll(2, 1, 1, first=[6, 6, 2, 6])
    assert (three.successes, three.success) == (3, True)
    miss = roll(2, 1, 1, first=[5, 4, 1, 1])
    assert (miss.successes, miss.success) == (0, False)


# The seed's table, written out face by face (d8 stops at 8, d10 at 10).
ARTIFACT_TABLE = {6: 1, 7: 1, 8: 2, 9: 2, 10: 3, 11: 3, 12: 4}


@pytest.mark.parametrize("sides", [8, 10, 12])
def test_artifact_success_table_every_face(sides):
    for face in range(1, sides + 1):
        r = roll(0, 0, 0, (sides,), first=[face])
        assert r.successes == ARTIFACT_TABLE.get(face, 0), (sides, face)
        assert artifact_successes(face) == ARTIFACT_TABLE.get(face, 0)
        assert r.base_banes == r.gear_banes == 0  # an Artifact die never shows a bane


def test_artifact_successes_add_to_sixes():
    r = roll(1, 0, 1, (12, 10), first=[6, 6, 12, 9])
    assert r.successes == 1 + 1 + 4 + 2


def test_banes_counted_but_do_nothing_on_the_first_roll():
    r = roll(2, 1, 2, first=[1, 1, 4, 1, 3])
    assert (r.base_banes, r.gear_banes) == (2, 1)
    assert (r.attribute_damage, r.gear_damage, r.willpower_gained) == (0, 0, 0)
    assert not r.pushed and r.first is None


def test_skill_dice_are_base_dice_with_banes_ruling():
    # RULES.md ruling: every Attribute + Skill die is a base die; a 1 on a skill die gives WP after a push.
    first = roll(0, 2, first=[1, 3])
    assert [d.role for d in first.dice] == [Role.BASE, Role.BASE]
    after = pushed(first, 2)
    assert after.willpower_gained == 1 and after.attribute_damage == 1


# --- which dice a push rerolls ------------------------------------------------------------------


def test_reroll_indices_every_d6_not_6_or_1_and_blank_artifacts():
    r = roll(2, 2, 1, (8, 10, 12), first=[6, 1, 2, 5, 3, 7, 5, 1])
    # base 6,1,2,5 ; gear 3 ; d8 7 (scores) ; d10 5 (blank) ; d12 1 (blank, not a bane)
    assert r.reroll_indices == (2, 3, 4, 6, 7)
    assert r.can_push


def test_push_rerolls_only_those_and_keeps_the_rest():
    first = roll(2, 2, 1, (8, 10, 12), first=[6, 1, 2, 5, 3, 7, 5, 1])
    after = pushed(first, 6, 1, 1, 10, 3)
    assert faces(after) == [6, 1, 6, 1, 1, 7, 10, 3]
    assert after.first is first and after.pushed
    assert after.rerolled == (2, 3, 4, 6, 7)
    assert after.successes == 1 + 1 + 1 + 3  # kept 6, new 6, kept d8 7, new d10 10
    assert (after.base_banes, after.gear_banes) == (2, 1)


def test_push_damage_counts_kept_and_new_base_ones_and_gives_willpower():
    first = roll(3, 1, 2, first=[1, 1, 4, 5, 2, 6])
    after = pushed(first, 1, 3, 1)  # base 4 -> 1, base 5 -> 3, gear 2 -> 1
    assert after.attribute_damage == 3  # two kept 1s and one new
    assert after.willpower_gained == 3
    assert after.gear_damage == 1  # gear banes lower the gear bonus, never give WP


def test_gear_banes_never_give_willpower():
    first = roll(1, 0, 2, first=[6, 1, 3])
    after = pushed(first, 1)
    assert (after.gear_damage, after.willpower_gained, after.attribute_damage) == (2, 0, 0)


def test_failed_roll_push_can_succeed():
    first = roll(1, 1, first=[3, 4])
    assert not first.success
    after = pushed(first, 6, 2)
    assert after.success and after.successes == 1


def test_pushed_roll_reading_fields():
    after = pushed(roll(1, 0, first=[2]), 5)
    assert not after.can_push and after.reroll_indices == ()
    reading = after.reading_as_dict()
    assert reading["pushed"] is True and reading["rerolled"] == [0] and reading["can_push"] is False


# --- cannot push ------------------------------------------------------------------------------------


def test_nothing_to_push_message():
    r = roll(2, 0, 1, first=[6, 1, 1])
    assert not r.can_push
    with pytest.raises(CannotPush) as info:
        push(r, FixedDice([]))
    assert str(info.value) == "Nothing to push: every die shows 6 or 1"


def test_all_ones_failed_roll_cannot_be_pushed():
    with pytest.raises(CannotPush, match="Nothing to push"):
        push(roll(1, 1, first=[1, 1]), FixedDice([]))


def test_scoring_artifact_is_kept_so_nothing_to_push():
    r = roll(1, 0, 0, (8,), first=[6, 7])
    with pytest.raises(CannotPush, match="Nothing to push.*every Artifact die scored"):
        push(r, FixedDice([]))


def test_blank_artifact_makes_the_roll_pushable():
    r = roll(1, 0, 0, (8,), first=[1, 3])
    after = pushed(r, 8)
    assert faces(after) == [1, 8] and after.successes == 2 and after.willpower_gained == 1


def test_pushing_twice_is_refused():
    after = pushed(roll(1, 0, first=[3]), 4)
    with pytest.raises(CannotPush, match="already been pushed.*only once"):
        push(after, FixedDice([5]))


# --- bounds and errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((11, 0, 0, ()), "Attribute 11 is out of range: it must be from 0 to 10"),
        ((1, -1, 0, ()), "Skill -1 is out of range"),
        ((1, 0, 11, ()), "Gear 11 is out of range"),
        ((0, 0, 0, ()), "at least one die"),
        ((1, 0, 0, (6,)), "Artifact die 6 is not one of d8"),
        ((1, 0, 0, (8, 8, 10, 12)), "4 Artifact dice given: a roll takes at most 3"),
        (("3", 0, 0, ()), "Attribute must be a whole number"),
        ((True, 0, 0, ()), "Attribute must be a whole number"),
    ],
)
def test_roll_bounds(args, message):
    with pytest.raises(InvalidInput, match=message):
        roll_yz(*args, dice=SeededDice(1))


def test_bounds_at_the_edges_roll():
    r = roll_yz(10, 10, 10, (12, 12, 12), SeededDice(3))
    assert len(r.dice) == 33
    assert len(roll_yz(0, 0, 0, ("d8",), SeededDice(3)).dice) == 1


@pytest.mark.parametrize(
    ("text", "sides"), [("d8", 8), ("D10", 10), ("12", 12), (" Legendary ", 12), ("mighty", 8), (10, 10)]
)
def test_parse_artifact(text, sides):
    assert parse_artifact(text) == sides


@pytest.mark.parametrize("bad", ["d6", "d", "", "x12", 20, True, None])
def test_parse_artifact_rejects(bad):
    with pytest.raises(InvalidInput, match="d8 \\(Mighty\\), d10 \\(Epic\\) or d12 \\(Legendary\\)"):
        parse_artifact(bad)


def test_wrong_face_from_physical_dice_is_a_rules_error():
    with pytest.raises(RulesError, match="Face 7 is impossible on a d6"):
        roll_yz(1, 0, dice=FixedDice([7]))


def test_constructing_inconsistent_roll_is_refused():
    with pytest.raises(InvalidInput, match="do not match the pool"):
        YzRoll(1, 0, 0, (), (Die(6, 3, Role.GEAR),))
    first = roll(1, 0, first=[6])
    with pytest.raises(CannotPush):
        YzRoll(1, 0, 0, (), (Die(6, 6, Role.BASE),), first)


# --- Willpower ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "gained", "expected"),
    [(0, 0, (0, 0)), (3, 2, (5, 0)), (8, 2, (10, 0)), (9, 3, (10, 2)), (10, 1, (10, 1)), (0, 14, (10, 4))],
)
def test_apply_willpower_caps_at_ten(current, gained, expected):
    assert apply_willpower(current, gained) == expected


@pytest.mark.parametrize(("current", "gained"), [(11, 0), (-1, 1), (5, -1), (5, "2")])
def test_apply_willpower_rejects(current, gained):
    with pytest.raises(InvalidInput):
        apply_willpower(current, gained)


def test_check_and_spend_willpower():
    assert check_willpower(0) == 0 and check_willpower(10) == 10
    with pytest.raises(InvalidInput, match="Willpower 11 is out of range: it must be from 0 to 10"):
        check_willpower(11)
    assert spend_willpower(5, 2) == 3 and spend_willpower(2, 2) == 0
    with pytest.raises(InvalidInput, match="Not enough Willpower: 3 WP needed, 2 left"):
        spend_willpower(2, 3)


def test_push_willpower_flows_into_the_cap():
    after = pushed(roll(3, 0, first=[1, 1, 4]), 1)
    assert apply_willpower(8, after.willpower_gained) == (10, 1)
