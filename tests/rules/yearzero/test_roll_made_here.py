"""roll_yz and push roll in dice order (base, gear, Artifact) with dice shared per face: their rolls must be the
same as rolls built die by die from the same faces, and a source's impossible face is refused."""

import pytest

from rules.dice import Die, Role, SeededDice
from rules.errors import InvalidInput
from rules.yearzero.roll import YzRoll, push, roll_yz

POOLS = [(4, 3, 2, (12,)), (1, 0, 0, ()), (0, 0, 0, (8,)), (3, 2, 1, (8, 10)), (10, 10, 10, (12, 10, 8))]


def dice_by_hand(kinds, seed_dice):
    return tuple(Die(sides, seed_dice.roll(sides), role) for sides, role in kinds)


def kinds_of(attribute, skill, gear, artifacts):
    base = [(6, Role.BASE)] * (attribute + skill) + [(6, Role.GEAR)] * gear
    return base + [(sides, Role.ARTIFACT) for sides in artifacts]


def assert_same_roll(made, checked):
    assert made == checked
    assert hash(made) == hash(checked)
    assert repr(made) == repr(checked)
    assert made.reading_as_dict() == checked.reading_as_dict()
    assert all(hasattr(made, name) for name in YzRoll.__slots__)


@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize("seed", range(40))
def test_rolled_and_pushed_rolls_equal_checked_ones(pool, seed):
    made_dice, hand_dice = SeededDice(seed), SeededDice(seed)
    first = roll_yz(*pool, made_dice)
    checked = YzRoll(*pool, dice_by_hand(kinds_of(*pool), hand_dice))
    assert_same_roll(first, checked)
    if not first.can_push:
        return
    pushed = push(first, made_dice)
    again = list(checked.dice)
    for i in checked.reroll_indices:
        again[i] = Die(again[i].sides, hand_dice.roll(again[i].sides), again[i].role)
    assert_same_roll(pushed, YzRoll(*pool, tuple(again), checked))


class OddDice:
    def __init__(self, face):
        self.face = face

    def roll(self, sides):
        return self.face


@pytest.mark.parametrize("face", [0, 7, -1, True, 2.0, "3"])
def test_a_source_giving_an_impossible_face_is_refused(face):
    with pytest.raises(InvalidInput, match=f"face {face!r} is impossible on a d6"):
        roll_yz(2, 1, 0, (), OddDice(face))
