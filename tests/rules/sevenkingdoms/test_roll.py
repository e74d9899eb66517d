"""Seven Kingdoms pools, notation, difficulties and basic / conflict tests (RULES.md sections 4 and 5)."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import Fate, FixedDice, Role
from rules.errors import CannotAttempt, InvalidInput
from rules.sevenkingdoms.roll import (
    SkPool,
    difficulty_name,
    difficulty_number,
    minimum_rank,
    parse_pool,
    resolve_difficulty,
    roll_test,
)


def run(pool, faces, **how):
    """Roll with fixed faces and check that every face given was read."""
    dice = FixedDice(faces)
    test = roll_test(pool, dice, **how)
    dice.finish()
    return test


# --- the pool and its notation --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rank", "bonus", "discard"),
    [
        ("2D", 2, 0, 0),
        ("3D + 2B", 3, 2, 0),
        ("4D + 1B", 4, 1, 0),
        ("3D + 1B − 1P", 3, 1, 1),  # the seed's own minus sign
        ("3D+2B-1P", 3, 2, 1),
        ("3d + 2b - 1p", 3, 2, 1),
        ("  4D+1B  ", 4, 1, 0),
        ("3D – 2P", 3, 0, 2),  # en dash
        ("0D + 2B", 0, 2, 0),
        ("10D+10B-20P", 10, 10, 20),
    ],
)
def test_parse_pool_reads_the_seed_notation(text, rank, bonus, discard):
    assert parse_pool(text) == SkPool(rank, bonus, discard=discard)


def test_parse_pool_keeps_wounds_injuries_and_aid_given_beside_it():
    pool = parse_pool("3D + 2B", wounds=1, pool_penalty=1, injuries=2, aid=True)
    assert (pool.test_dice, pool.bonus_dice, pool.injuries) == (1, 3, 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Cannot read the pool ''"),
        ("three dice", "Cannot read the pool 'three dice': write it like 3D + 2B − 1P"),
        ("3D 2B", "Cannot read the pool"),
        ("3D +", "Cannot read the pool"),
        ("D3", "Cannot read the pool"),
        ("3X", "Cannot read the pool"),
        ("2B", "The pool '2B' has no test dice (D)"),
        ("3D + 1D", "gives D twice"),
        ("3D - 2B", "subtracts B dice"),
        ("11D", "Rank 11 is out of range: it must be from 0 to 10"),
        ("3D + 11B", "Bonus dice 11 is out of range"),
        ("3D - 21P", "Discard penalty 21 is out of range"),
    ],
)
def test_parse_pool_rejects_bad_notation_clearly(text, message):
    with pytest.raises(InvalidInput, match=re.escape(message)):
        parse_pool(text)


@given(st.integers(0, 10), st.integers(0, 10), st.integers(0, 20))
@settings(max_examples=60)
def test_notation_reads_back_as_the_same_pool(rank, bonus, discard):
    pool = SkPool(rank, bonus, discard=discard)
    assert parse_pool(pool.notation) == pool


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rank": -1}, "Rank -1 is out of range"),
        ({"rank": 3, "bonus": 11}, "Bonus dice 11 is out of range"),
        ({"rank": 3, "wounds": 11}, "Wounds 11 is out of range"),
        ({"rank": 3, "pool_penalty": -1}, "Pool penalty -1 is out of range"),
        ({"rank": 3, "injuries": 11}, "Injuries 11 is out of range"),
        ({"rank": 3, "discard": 21}, "Discard penalty 21 is out of range"),
        ({"rank": 3, "aid": 2}, "Only one helper can aid a test"),
        ({"rank": "3"}, "Rank must be a whole number"),
    ],
)
def test_pool_bounds(fields, message):
    with pytest.raises(InvalidInput, match=message):
        SkPool(**fields)


def test_aid_is_one_bonus_die_from_one_helper_at_most():
    assert SkPool(3, 2, aid=True).bonus_dice == 3
    assert SkPool(3, 2, aid=1).aid is True
    assert SkPool(3, 2).bonus_dice == 2
    with pytest.raises(InvalidInput, match="Only one helper"):
        SkPool(3, 2, aid=2)
    test = run(SkPool(2, 0, aid=True), [1, 2, 6], difficulty="Easy")  # two test dice and the aid die
    assert [d.role for d in test.dice] == [Role.TEST, Role.TEST, Role.BONUS]
    assert test.result == 8


def test_wounds_and_pool_penalties_remove_test_dice_and_stop_at_zero():
    assert SkPool(3, wounds=1).test_dice == 2  # a wounded man at 3D fights at 2D
    assert SkPool(4, 2, wounds=1, pool_penalty=2).test_dice == 1
    assert SkPool(2, 3, wounds=2, pool_penalty=3).test_dice == 0
    assert SkPool(2, 3, wounds=2, pool_penalty=3).bonus_dice == 3  # penalties never take bonus dice


# --- difficulties ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "number", "rank"),
    [("Automatic", 0, 1), ("Easy", 3, 1), ("Routine", 6, 1), ("Challenging", 9, 2), ("Formidable", 12, 2),
     ("Hard", 15, 3), ("Very Hard", 18, 3), ("Heroic", 21, 4)],
)
def test_difficulty_table(name, number, rank):
    assert difficulty_number(name) == number
    assert difficulty_number(name.upper()) == number
    assert minimum_rank(number) == rank
    assert difficulty_name(number) == name


@pytest.mark.parametrize(
    ("number", "rank"), [(1, 1), (8, 1), (10, 2), (14, 2), (16, 3), (20, 3), (25, 4), (60, 4)]
)
def test_a_number_between_rows_takes_the_row_at_or_below(number, rank):
    assert minimum_rank(number) == rank


def test_difficulty_names_and_numbers():
    assert {difficulty_number(name) for name in ("very hard", "VERY_HARD", "Very-Hard")} == {18}
    assert difficulty_number("16") == 16
    assert difficulty_name(16) is None
    assert difficulty_name(30) == "Heroic"
    with pytest.raises(InvalidInput, match="Unknown difficulty 'Legendary': give a number from 0 to 60 or one of Auto"):
        difficulty_number("Legendary")
    with pytest.raises(InvalidInput, match="Difficulty 61 is out of range"):
        difficulty_number(61)
    with pytest.raises(InvalidInput, match="not both or neither"):
        resolve_difficulty(None, None)
    with pytest.raises(InvalidInput, match="not both or neither"):
        resolve_difficulty("Hard", 15)
    assert resolve_difficulty(None, 7) == 7


# --- the seed's pools with fixed faces ------------------------------------------------------------


def test_seed_2d():
    test = run(SkPool(2), [4, 5], difficulty="Challenging")
    assert (test.result, test.success, test.margin) == (9, True, 0)
    assert (test.degrees, test.degree_name) == (1, "Marginal")
    assert [d.fate for d in test.dice] == [Fate.KEPT, Fate.KEPT]


def test_seed_3d_2b_keeps_the_highest_three_of_five():
    test = run(parse_pool("3D + 2B"), [2, 6, 3, 5, 4], difficulty="Hard")
    assert [d.role for d in test.dice] == [Role.TEST] * 3 + [Role.BONUS] * 2
    assert [d.fate for d in test.dice] == [Fate.UNKEPT, Fate.KEPT, Fate.UNKEPT, Fate.KEPT, Fate.KEPT]
    assert (test.result, test.success, test.degrees) == (6 + 5 + 4, True, 1)


def test_seed_4d_1b_failure_with_an_unkept_one_is_a_complication():
    test = run(parse_pool("4D + 1B"), [1, 3, 6, 2, 6], difficulty="Very Hard")
    assert test.result == 6 + 6 + 3 + 2
    assert (test.success, test.shortfall, test.failure, test.degrees) == (False, 1, "marginal", 0)
    assert test.dice[0].fate is Fate.UNKEPT and test.complication


def test_seed_3d_1b_1p_discards_the_highest_die_first():
    test = run(parse_pool("3D + 1B − 1P"), [6, 2, 4, 5], difficulty="Formidable")
    assert [d.fate for d in test.dice] == [Fate.DISCARDED, Fate.KEPT, Fate.KEPT, Fate.KEPT]
    assert (test.result, test.success, test.shortfall) == (11, False, 1)
    assert not test.complication  # no die shows 1


def test_seed_wounded_3d_fights_at_2d():
    test = run(SkPool(3, wounds=1), [5, 6], target=10, kind="conflict")
    assert len(test.dice) == 2 and test.result == 11
    dice = FixedDice([5, 6, 4])
    roll_test(SkPool(3, wounds=1), dice, target=10, kind="conflict")
    assert dice.used == 2  # the third face was never read


def test_injuries_come_off_the_result():
    test = run(SkPool(2, injuries=3), [6, 6], difficulty="Challenging")
    assert (test.result, test.success, test.margin) == (9, True, 0)


# --- RULES.md rulings -----------------------------------------------------------------------------


def test_minimum_rank_message_and_no_roll():
    dice = FixedDice([6, 6, 6])
    with pytest.raises(CannotAttempt) as raised:
        roll_test(SkPool(1, 2), dice, difficulty="Hard")
    assert str(raised.value) == "Rank 1 is below the minimum rank 3 for a test of difficulty Hard"
    assert dice.used == 0


@pytest.mark.parametrize(
    ("rank", "how", "message"),
    [
        (3, {"difficulty": "Heroic"}, "Rank 3 is below the minimum rank 4 for a test of difficulty Heroic"),
        (1, {"target": 9}, "Rank 1 is below the minimum rank 2 for a test of difficulty Challenging"),
        (0, {"difficulty": "Easy"}, "Rank 0 is below the minimum rank 1 for a test of difficulty Easy"),
        (2, {"target": 16}, "Rank 2 is below the minimum rank 3 for a test of difficulty 16"),
        (3, {"target": 40}, "Rank 3 is below the minimum rank 4 for a test of difficulty Heroic"),
    ],
)
def test_minimum_rank_messages(rank, how, message):
    with pytest.raises(CannotAttempt) as raised:
        roll_test(SkPool(rank), FixedDice([]), **how)
    assert str(raised.value) == message


def test_minimum_rank_is_checked_before_automatic_and_before_no_test_die():
    with pytest.raises(CannotAttempt, match="Rank 0 is below the minimum rank 1 for a test of difficulty Automatic"):
        roll_test(SkPool(0), FixedDice([]), difficulty="Automatic")
    with pytest.raises(CannotAttempt, match="Rank 2 is below the minimum rank 3"):
        roll_test(SkPool(2, wounds=2), FixedDice([]), difficulty="Hard")  # no test die left, and too low


def test_automatic_succeeds_without_a_roll_before_the_no_test_die_check():
    for pool in (SkPool(3, 2), SkPool(1, 3, wounds=1)):
        test = run(pool, [], difficulty="Automatic")
        assert (test.status, test.success, test.dice) == ("automatic", True, ())
        assert (test.result, test.margin, test.degrees, test.degree_name) == (None, None, None, None)
        assert not test.complication and test.failure is None


def test_no_test_die_fails_without_a_roll():
    test = run(SkPool(2, 3, wounds=1, pool_penalty=1), [], difficulty="Easy")
    assert (test.status, test.success, test.dice, test.result) == ("no_test_dice", False, (), None)
    assert (test.degrees, test.shortfall, test.failure, test.complication) == (None, None, None, False)


def test_conflict_has_no_minimum_rank_and_defense_0_is_rolled():
    test = run(SkPool(1), [1], target=0, kind="conflict")
    assert (test.status, test.result, test.success, test.degrees) == ("rolled", 1, True, 1)
    assert run(SkPool(1), [1], difficulty="Automatic", kind="conflict").status == "rolled"
    hard = run(SkPool(1), [6], target=20, kind="conflict")  # rank 1 may attack a Defense of 20
    assert (hard.success, hard.shortfall, hard.failure) == (False, 14, "critical")
    assert run(SkPool(1, wounds=1), [], target=0, kind="conflict").status == "no_test_dice"


def test_discards_taking_every_die_leave_zero_less_injuries():
    test = run(SkPool(2, 1, discard=3, injuries=2), [6, 5, 4], target=0, kind="conflict")
    assert all(d.fate is Fate.DISCARDED for d in test.dice)
    assert test.result == -2 and not test.success
    assert run(SkPool(2, discard=5), [6, 6], target=0, kind="conflict").result == 0


def test_complication_counts_discarded_dice():
    test = run(SkPool(1, 1, discard=2), [1, 3], difficulty="Easy")
    assert [d.fate for d in test.dice] == [Fate.DISCARDED, Fate.DISCARDED]
    assert test.result == 0 and test.complication


def test_a_success_with_a_one_is_no_complication():
    test = run(SkPool(3), [1, 6, 6], difficulty="Challenging")
    assert test.success and not test.complication


@pytest.mark.parametrize(
    ("target", "degrees", "name"),
    [(24, 1, "Marginal"), (20, 1, "Marginal"), (19, 2, "Great"), (15, 2, "Great"), (14, 3, "Incredible"),
     (10, 3, "Incredible"), (9, 4, "Astonishing"), (0, 4, "Astonishing")],
)
def test_degree_bands(target, degrees, name):
    test = run(SkPool(4), [6, 6, 6, 6], target=target, kind="conflict")  # result 24
    assert (test.margin, test.degrees, test.degree_name, test.failure) == (24 - target, degrees, name, None)


@pytest.mark.parametrize(
    ("target", "band"), [(25, "marginal"), (28, "marginal"), (29, "critical"), (60, "critical")]
)
def test_failure_bands(target, band):
    test = run(SkPool(4), [6, 6, 6, 6], target=target, kind="conflict")
    assert (test.success, test.shortfall, test.failure, test.degrees) == (False, target - 24, band, 0)


def test_ties_for_discard_and_keep_go_to_the_first_die_rolled():
    test = run(SkPool(1, 2, discard=1), [5, 5, 5], difficulty="Easy")
    assert [d.fate for d in test.dice] == [Fate.DISCARDED, Fate.KEPT, Fate.UNKEPT]
    assert test.result == 5


def test_bad_kind_and_reading_as_dict():
    with pytest.raises(InvalidInput, match="Unknown kind of test 'duel'"):
        roll_test(SkPool(3), FixedDice([]), difficulty="Easy", kind="duel")
    data = run(SkPool(3), [1, 2, 3], difficulty="Hard").as_dict()
    assert data["reading"]["complication"] is True and data["minimum_rank"] == 3
    assert data["dice"][0] == {"sides": 6, "face": 1, "role": "test", "fate": "kept"}
    assert data["pool"]["notation"] == "3D"


# --- properties -----------------------------------------------------------------------------------

pools = st.builds(SkPool, rank=st.integers(1, 10), bonus=st.integers(0, 10), wounds=st.integers(0, 3),
                  discard=st.integers(0, 20), injuries=st.integers(0, 10), aid=st.booleans())


def faces_for(pool):
    """Faces for every die the pool rolls (none when no test die remains: nothing is rolled)."""
    count = pool.dice_rolled if pool.test_dice else 0
    return st.lists(st.integers(1, 6), min_size=count, max_size=count)


@given(st.data(), pools)
@settings(max_examples=150)
def test_result_is_the_kept_dice_and_never_exceeds_six_per_test_die(data, pool):
    test = run(pool, data.draw(faces_for(pool)), target=0, kind="conflict")
    if pool.test_dice == 0:
        assert test.status == "no_test_dice"
        return
    kept = [d.face for d in test.dice if d.fate is Fate.KEPT]
    discarded = [d.face for d in test.dice if d.fate is Fate.DISCARDED]
    unkept = [d.face for d in test.dice if d.fate is Fate.UNKEPT]
    assert test.result == sum(kept) - pool.injuries <= 6 * pool.test_dice - pool.injuries
    assert test.result >= -pool.injuries
    assert len(discarded) == min(pool.discard, pool.dice_rolled)
    assert len(kept) == min(pool.test_dice, pool.dice_rolled - len(discarded))
    assert all(k <= d for k in kept for d in discarded) and all(u <= k for u in unkept for k in kept)


@given(st.data(), pools)
@settings(max_examples=150)
def test_discarding_more_never_raises_the_result_and_a_bonus_die_never_lowers_it(data, pool):
    if pool.test_dice == 0 or pool.discard == 20 or pool.bonus == 10:
        return
    faces = data.draw(faces_for(pool))
    base = run(pool, faces, target=0, kind="conflict").result
    more_discard = SkPool(pool.rank, pool.bonus, pool.wounds, 0, pool.discard + 1, pool.injuries, pool.aid)
    assert run(more_discard, faces, target=0, kind="conflict").result <= base
    extra = data.draw(st.integers(1, 6))
    more_bonus = SkPool(pool.rank, pool.bonus + 1, pool.wounds, 0, pool.discard, pool.injuries, pool.aid)
    assert run(more_bonus, faces + [extra], target=0, kind="conflict").result >= base
