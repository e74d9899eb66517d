"""HEX rolls with fixed faces: every ruling of RULES.md section 1 and the HEX fine points of section 5."""

import pytest

from rules.dice import Die, FixedDice, Role
from rules.errors import CannotAttempt, InvalidInput
from rules.hex.pool import HexPool, casting_dice_count, hazard_dice_count, pool_size
from rules.hex.roll import Hazard, Outcome, roll_cast, roll_contest, roll_plain, roll_test


def faces(*values):
    return FixedDice(values)


def used_all(dice: FixedDice) -> FixedDice:
    dice.finish()
    return dice


def roles(result):
    return [die.role for die in result.dice]


# The pool ---------------------------------------------------------------------------------------------------


def test_pool_adds_aegis_and_specialty_and_subtracts_complications():
    pool = HexPool(attribute=3, skill=2, specialty=1, environment=1, gear=2, ingenuity=3, complications=4)
    assert pool.size == 3 + 2 + 1 + 1 + 2 + 3 - 4
    assert not pool.nullified
    assert pool.as_dict()["size"] == 8 and pool.as_dict()["gear"] == 2


def test_untrained_rolls_attribute_plus_environment_gear_ingenuity():
    assert HexPool(attribute=2, environment=1, gear=1, ingenuity=1).size == 5


def test_pool_may_end_at_zero_or_below():
    assert HexPool(attribute=2, complications=2).size == 0
    assert HexPool(attribute=1, complications=4).size == -3
    assert HexPool(attribute=1, complications=4).nullified


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"skill": 2, "specialty": 3}, "Specialty 3 cannot exceed Skill 2"),
        ({"skill": 0, "specialty": 1}, "Specialty 1 cannot exceed Skill 0: a Specialty needs its parent"),
        ({"attribute": 13}, "Attribute 13 is out of range: it must be from 0 to 12"),
        ({"attribute": -1}, "Attribute -1 is out of range"),
        ({"skill": 13}, "Skill 13 is out of range: it must be from 0 to 12"),
        ({"gear": 4}, "Gear 4 is out of range: it must be from 0 to 3"),
        ({"environment": -1}, "Environment -1 is out of range"),
        ({"ingenuity": 4}, "Ingenuity 4 is out of range"),
        ({"complications": 21}, "Complications 21 is out of range: it must be from 0 to 20"),
        ({"attribute": 2.5}, "Attribute must be a whole number"),
        ({"skill": True}, "Skill must be a whole number"),
    ],
)
def test_pool_bounds_are_errors_with_player_messages(options, message):
    with pytest.raises(InvalidInput) as caught:
        HexPool(**options)
    assert str(caught.value).startswith(message)


def test_specialty_up_to_its_skill_is_fine():
    assert HexPool(skill=3, specialty=3).size == 6


def test_pool_size_of_a_count_is_bounded():
    assert pool_size(7) == 7 and pool_size(-20) == -20 and pool_size(HexPool(attribute=4)) == 4
    with pytest.raises(InvalidInput, match="Pool 46 is out of range"):
        pool_size(46)


@pytest.mark.parametrize(("size", "hazard"), [(-1, 0), (0, 0), (1, 1), (2, 2), (3, 2), (12, 2)])
def test_hazard_dice_are_two_or_all_of_one_or_two(size, hazard):
    assert hazard_dice_count(size) == hazard


# Plain Test -------------------------------------------------------------------------------------------------


def test_one_six_is_a_success_with_mos_zero_and_damage_dv():
    dice = faces(2, 3, 6)
    result = roll_test(HexPool(attribute=3), dice, dv=4)
    used_all(dice)
    assert result.success and result.successes == 1 and result.mos == 0 and result.damage == 4
    assert result.hazard is Hazard.NONE and not result.mishap and result.rolled and not result.automatic


def test_each_extra_six_adds_one_to_mos_and_damage():
    result = roll_test(5, faces(6, 1, 6, 6, 2), dv=3)
    assert result.successes == 3 and result.mos == 2 and result.damage == 5


def test_no_six_fails_without_mos_or_damage():
    result = roll_test(3, faces(2, 3, 5), dv=4)
    assert not result.success and result.successes == 0
    assert result.mos is None and result.damage is None and not result.mishap


def test_damage_needs_a_dv():
    assert roll_test(2, faces(6, 6)).damage is None


def test_hazard_dice_are_rolled_first_then_the_rest():
    result = roll_test(4, faces(1, 2, 3, 4))
    assert result.dice == (
        Die(6, 1, Role.HAZARD), Die(6, 2, Role.HAZARD), Die(6, 3, Role.BASE), Die(6, 4, Role.BASE)
    )


def test_mishap_when_failed_and_every_hazard_die_shows_one():
    result = roll_test(4, faces(1, 1, 5, 1))
    assert result.mishap and result.hazard is Hazard.MISHAP and not result.success


def test_no_mishap_when_one_hazard_die_is_not_a_one():
    assert not roll_test(4, faces(1, 2, 1, 1)).mishap


def test_any_six_prevents_a_mishap():
    result = roll_test(3, faces(1, 1, 6))
    assert result.success and not result.mishap and result.hazard is Hazard.NONE


def test_ones_on_base_dice_do_not_matter():
    assert not roll_test(3, faces(2, 1, 1)).mishap


@pytest.mark.parametrize(("values", "mishap"), [((1,), True), ((2,), False), ((6,), False)])
def test_one_die_pool_its_die_is_the_hazard_die(values, mishap):
    result = roll_test(1, faces(*values))
    assert roles(result) == [Role.HAZARD] and result.mishap is mishap


@pytest.mark.parametrize(("values", "mishap"), [((1, 1), True), ((1, 3), False), ((4, 1), False)])
def test_two_die_pool_both_dice_are_hazard_dice(values, mishap):
    result = roll_test(2, faces(*values))
    assert roles(result) == [Role.HAZARD, Role.HAZARD] and result.mishap is mishap


def test_nullified_voluntary_test_cannot_be_attempted():
    dice = faces()
    with pytest.raises(CannotAttempt, match="voluntary action cannot be attempted"):
        roll_test(HexPool(attribute=2, complications=3), dice)
    used_all(dice)


@pytest.mark.parametrize("size", [0, -4])
def test_nullified_required_test_fails_automatically_without_mishap(size):
    dice = faces()
    result = roll_test(size, dice, required=True, dv=3)
    used_all(dice)
    assert not result.success and not result.rolled and result.nullified and result.dice == ()
    assert not result.mishap and result.mos is None and result.damage is None and result.required


@pytest.mark.parametrize("size", [5, 0, -2])
def test_advancement_is_an_automatic_success_with_mos_zero_even_when_nullified(size):
    dice = faces()
    result = roll_test(size, dice, advancement=True, dv=6)
    used_all(dice)
    assert result.success and result.automatic and not result.rolled and result.dice == ()
    assert result.mos == 0 and result.damage == 6 and not result.mishap


def test_dv_out_of_range():
    with pytest.raises(InvalidInput, match="Damage Value -1 is out of range"):
        roll_test(3, faces(1, 2, 3), dv=-1)


# Contest ----------------------------------------------------------------------------------------------------


def test_contest_zero_zero_tie_the_acting_side_wins_with_mos_zero():
    dice = faces(1, 1, 1, 1, 2)
    result = roll_contest(2, 3, dice, dv=4)
    used_all(dice)
    assert result.outcome is Outcome.ACTING and result.success and result.mos == 0 and result.damage == 4
    assert not result.mishap  # the acting side did not fail
    assert result.opposing.mishap  # the opposing side failed with no 6 and its Hazard Dice on 1


def test_contest_equal_successes_the_acting_side_wins():
    result = roll_contest(2, 2, faces(6, 2, 6, 3))
    assert result.outcome is Outcome.ACTING and result.mos == 0


def test_contest_opposing_needs_strictly_more_and_mos_is_the_difference():
    result = roll_contest(3, 3, faces(1, 1, 2, 6, 6, 1), dv=5)
    assert result.outcome is Outcome.OPPOSING and not result.success
    assert result.mos == 2 and result.damage is None
    assert result.mishap and result.hazard is Hazard.MISHAP and not result.opposing.mishap


def test_contest_acting_margin_gives_damage():
    result = roll_contest(3, 2, faces(6, 6, 6, 6, 1), dv=2)
    assert result.outcome is Outcome.ACTING and result.mos == 2 and result.damage == 4


def test_contest_loser_with_a_six_has_no_mishap():
    result = roll_contest(3, 3, faces(1, 1, 6, 6, 6, 2))
    assert result.outcome is Outcome.OPPOSING and not result.mishap


def test_contest_faces_are_acting_side_then_opposing_side():
    result = roll_contest(3, 1, faces(2, 3, 4, 5))
    assert [d.face for d in result.acting.dice] == [2, 3, 4]
    assert [d.face for d in result.opposing.dice] == [5]
    assert roles(result) == [Role.HAZARD, Role.HAZARD, Role.BASE, Role.HAZARD]


def test_nullified_acting_side_loses_to_zero_successes():
    dice = faces(2, 1, 3)
    result = roll_contest(HexPool(attribute=1, complications=2), 3, dice, dv=3)
    used_all(dice)
    assert result.outcome is Outcome.OPPOSING and result.mos == 0 and result.damage is None
    assert not result.acting.rolled and result.nullified and not result.mishap


def test_nullified_acting_side_mos_counts_it_as_zero():
    result = roll_contest(0, 2, faces(6, 6))
    assert result.outcome is Outcome.OPPOSING and result.mos == 2


def test_nullified_opposing_side_loses_even_to_zero_successes():
    dice = faces(1, 1)
    result = roll_contest(2, -1, dice, dv=3)
    used_all(dice)
    assert result.outcome is Outcome.ACTING and result.success and result.mos == 0 and result.damage == 3
    assert not result.mishap and not result.opposing.rolled


def test_nullified_opposing_side_acting_mos_is_its_successes():
    assert roll_contest(3, 0, faces(6, 6, 1)).mos == 2


def test_both_sides_nullified_neither_succeeds():
    dice = faces()
    result = roll_contest(0, -2, dice, dv=3)
    used_all(dice)
    assert result.outcome is Outcome.NEITHER and not result.success
    assert result.mos is None and result.damage is None and not result.rolled


@pytest.mark.parametrize("acting", [4, 0])
def test_acting_advancement_wins_outright_and_nobody_rolls(acting):
    dice = faces()
    result = roll_contest(acting, 5, dice, advancement=True, dv=2)
    used_all(dice)
    assert result.outcome is Outcome.ACTING and result.automatic and result.mos == 0 and result.damage == 2
    assert result.dice == () and not result.opposing.mishap


def test_contest_accepts_pools_and_bounds_counts():
    result = roll_contest(HexPool(attribute=1), HexPool(attribute=1), faces(6, 6))
    assert result.outcome is Outcome.ACTING
    with pytest.raises(InvalidInput, match="Opposing pool 50 is out of range"):
        roll_contest(2, 50, faces())


# Casting ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "risk", "designated"),
    [(5, 2, (1, 2)), (3, 5, (1, 2)), (4, 0, (1, 0)), (1, 0, (0, 1)), (1, 3, (0, 1)), (2, 1, (1, 1)),
     (0, 2, (0, 0))],
)
def test_casting_designates_one_affinity_and_min_risk_pool_less_one_control(size, risk, designated):
    assert casting_dice_count(size, risk) == designated


def test_casting_faces_affinity_first_then_control_then_the_rest():
    result = roll_cast(5, 2, faces(2, 3, 4, 5, 2))
    assert roles(result) == [Role.AFFINITY, Role.CONTROL, Role.CONTROL, Role.BASE, Role.BASE]
    assert Role.HAZARD not in roles(result)


def test_failed_zero_success_cast_with_a_control_skull_loses_control_once():
    result = roll_cast(4, 2, faces(1, 1, 1, 2))
    assert result.hazard is Hazard.LOSS_OF_CONTROL and not result.success and not result.mishap


def test_affinity_skull_without_control_skull_is_a_harmless_fizzle():
    result = roll_cast(4, 2, faces(1, 2, 3, 1))
    assert result.hazard is Hazard.FIZZLE and not result.success


def test_failed_cast_without_skulls_is_an_ordinary_failure():
    assert roll_cast(3, 1, faces(2, 3, 1)).hazard is Hazard.NONE


def test_risk_zero_still_checks_the_affinity_die():
    result = roll_cast(3, 0, faces(1, 1, 1))
    assert roles(result) == [Role.AFFINITY, Role.BASE, Role.BASE] and result.hazard is Hazard.FIZZLE


def test_one_die_cast_uses_a_control_die_and_never_fizzles():
    result = roll_cast(1, 0, faces(1))
    assert roles(result) == [Role.CONTROL] and result.hazard is Hazard.LOSS_OF_CONTROL


def test_successful_cast_has_no_hazard_consequence():
    result = roll_cast(4, 3, faces(1, 1, 1, 6), dv=2)
    assert result.success and result.hazard is Hazard.NONE and result.mos == 0 and result.damage == 2


def test_resisted_cast_tie_zero_zero_succeeds_without_hazard():
    result = roll_cast(3, 2, faces(1, 1, 1, 1, 1), opposing=2, dv=3)
    assert result.outcome is Outcome.ACTING and result.success and result.mos == 0 and result.damage == 3
    assert result.hazard is Hazard.NONE
    assert result.opposing.mishap and roles(result)[3:] == [Role.HAZARD, Role.HAZARD]


def test_resisted_cast_failed_with_successes_has_no_hazard():
    result = roll_cast(3, 2, faces(6, 1, 1, 6, 6), opposing=2)
    assert result.outcome is Outcome.OPPOSING and result.mos == 1 and result.hazard is Hazard.NONE


def test_resisted_cast_failed_with_zero_successes_checks_hazards():
    result = roll_cast(3, 2, faces(2, 1, 3, 6, 4), opposing=2)
    assert result.outcome is Outcome.OPPOSING and result.hazard is Hazard.LOSS_OF_CONTROL


def test_nullified_cast_follows_the_test_rules():
    with pytest.raises(CannotAttempt):
        roll_cast(0, 2, faces())
    assert not roll_cast(0, 2, faces(), required=True).success
    assert roll_cast(-1, 2, faces(), advancement=True, dv=1).damage == 1


def test_resisted_cast_with_a_nullified_side():
    assert roll_cast(0, 1, faces(2), opposing=1).outcome is Outcome.OPPOSING
    assert roll_cast(2, 1, faces(1, 1), opposing=0).outcome is Outcome.ACTING
    assert roll_cast(0, 1, faces(), opposing=0).outcome is Outcome.NEITHER


def test_resisted_cast_advancement_nobody_rolls():
    dice = faces()
    result = roll_cast(3, 2, dice, opposing=4, advancement=True)
    used_all(dice)
    assert result.outcome is Outcome.ACTING and result.mos == 0


def test_risk_bounds():
    with pytest.raises(InvalidInput, match="Risk 6 is out of range: it must be from 0 to 5"):
        roll_cast(3, 6, faces())


# No-Mishap rolls --------------------------------------------------------------------------------------------


def test_plain_roll_counts_sixes_and_designates_no_hazard_dice():
    result = roll_plain(4, faces(1, 1, 6, 6))
    assert result.successes == 2 and set(roles(result)) == {Role.BASE}
    assert result.as_dict()["successes"] == 2 and len(result.as_dict()["dice"]) == 4


def test_plain_roll_bounds():
    with pytest.raises(InvalidInput, match="Dice 0 is out of range"):
        roll_plain(0, faces())


# JSON -------------------------------------------------------------------------------------------------------


def test_result_as_dict_holds_the_full_reading():
    data = roll_contest(2, 2, faces(1, 1, 6, 2), dv=1).as_dict()
    assert data["outcome"] == "opposing" and data["hazard"] == "mishap" and data["mishap"] is True
    assert data["acting"]["dice"][0] == {"sides": 6, "face": 1, "role": "hazard"}
    assert data["opposing"]["successes"] == 1 and data["damage"] is None and data["mos"] == 1
