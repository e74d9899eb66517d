"""Seven Kingdoms competitions and extended tests (RULES.md section 4 "Kinds" and section 5)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import FixedDice, Role
from rules.errors import InvalidInput
from rules.sevenkingdoms.competition import parse_participants, roll_competition
from rules.sevenkingdoms.extended import ExtendedProgress, advance
from rules.sevenkingdoms.roll import SkPool, SkTest, parse_pool, roll_test


def compete(participants, faces):
    dice = FixedDice(faces)
    competition = roll_competition(participants, dice)
    dice.finish()
    return competition


JAIME, BRIENNE = ("Jaime", parse_pool("5D + 2B")), ("Brienne", parse_pool("4D + 1B"))


# --- competition ----------------------------------------------------------------------------------


def test_highest_wins_with_degrees_against_the_next_best():
    # Jaime keeps 6 6 5 4 3 = 24; Brienne keeps 6 5 5 4 = 20; Pod keeps 3 = 3
    result = compete([JAIME, BRIENNE, ("Pod", SkPool(1))], [6, 6, 5, 4, 3, 2, 1, 6, 5, 5, 4, 1, 3])
    assert [c.result for c in result.competitors] == [24, 20, 3]
    assert [c.place for c in result.competitors] == [1, 2, 3]
    assert (result.winner, result.tie, result.margin, result.degrees, result.degree_name) == (
        "Jaime", False, 4, 1, "Marginal")
    assert [d.role for d in result.competitors[0].dice] == [Role.TEST] * 5 + [Role.BONUS] * 2


def test_margin_bands_in_a_competition():
    crushing = compete([("Gregor", SkPool(4)), ("Oberyn", SkPool(1))], [6, 6, 6, 6, 1])
    assert (crushing.winner, crushing.margin, crushing.degrees, crushing.degree_name) == (
        "Gregor", 23, 4, "Astonishing")
    great = compete([("Gregor", SkPool(2)), ("Oberyn", SkPool(1))], [6, 6, 6])
    assert (great.margin, great.degrees) == (6, 2)


def test_a_tie_at_the_top_is_a_tie_with_margin_0_and_no_degrees():
    result = compete([JAIME, BRIENNE, ("Loras", SkPool(2))], [6, 6, 6, 1, 1, 1, 1, 6, 6, 6, 2, 1, 5, 4])
    assert [c.result for c in result.competitors] == [20, 20, 9]
    assert (result.winner, result.tie, result.tied) == (None, True, ("Jaime", "Brienne"))
    assert (result.margin, result.degrees, result.degree_name) == (0, None, None)
    assert [c.place for c in result.competitors] == [1, 1, 3]


def test_a_tie_below_the_top_does_not_stop_a_winner():
    result = compete([("A", SkPool(1)), ("B", SkPool(1)), ("C", SkPool(1))], [6, 2, 2])
    assert (result.winner, result.tie, result.margin) == ("A", False, 4)
    assert [c.place for c in result.competitors] == [1, 2, 2]


def test_a_participant_with_no_test_die_ranks_last_and_cannot_win():
    hurt = ("Jaime", SkPool(1, injuries=5))  # rolls 1: result -4, still above a participant with no die
    nobody = ("Pod", SkPool(2, 1, wounds=2))
    result = compete([nobody, hurt], [1])
    assert [c.result for c in result.competitors] == [None, -4]
    assert [c.place for c in result.competitors] == [2, 1]
    assert result.competitors[0].dice == ()
    assert (result.winner, result.margin, result.degrees) == ("Jaime", None, None)
    assert [c.name for c in result.standings] == ["Jaime", "Pod"]


def test_nobody_with_a_test_die_means_no_winner():
    result = compete([("A", SkPool(0, 2)), ("B", SkPool(1, wounds=1))], [])
    assert (result.winner, result.tie, result.margin) == (None, False, None)
    assert [c.place for c in result.competitors] == [1, 1]


@pytest.mark.parametrize(
    ("participants", "message"),
    [
        ([JAIME], "A competition needs 2 to 25 participants, not 1"),
        ([(f"P{i}", SkPool(1)) for i in range(26)], "A competition needs 2 to 25 participants, not 26"),
        ([JAIME, ("jaime", SkPool(2))], "Two participants are named 'jaime': names must be unique"),
        ([JAIME, ("  ", SkPool(2))], "Participant 2 needs a name of 1 to 50 characters"),
        ([JAIME, ("x" * 51, SkPool(2))], "Participant 2 needs a name"),
        ([JAIME, ("Brienne", "4D")], "Participant 'Brienne' has no pool"),
    ],
)
def test_bad_participants(participants, message):
    with pytest.raises(InvalidInput, match=message):
        roll_competition(participants, FixedDice([6] * 50))


def test_parse_participants():
    assert parse_participants("Jaime 5D+2B, Brienne 4D+1B") == [
        ("Jaime", SkPool(5, 2)), ("Brienne", SkPool(4, 1))]
    assert parse_participants("Ser Jaime Lannister: 5D + 2B − 1P; Brienne of Tarth 4d+1b") == [
        ("Ser Jaime Lannister", SkPool(5, 2, discard=1)), ("Brienne of Tarth", SkPool(4, 1))]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Jaime 5D+2B", "not 1"),
        ("", "not 0"),
        ("Jaime, Brienne 4D", "Cannot read 'Jaime': write each participant like Jaime 5D \\+ 2B"),
        ("5D, Brienne 4D", "Participant 1 needs a name"),
        ("Jaime 5D+2X, Brienne 4D", "Cannot read the pool"),
        ("Jaime 5D, JAIME 4D", "names must be unique"),
    ],
)
def test_parse_participants_errors(text, message):
    with pytest.raises(InvalidInput, match=message):
        parse_participants(text)


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2), st.integers(0, 2)), min_size=2, max_size=6),
       st.data())
@settings(max_examples=80)
def test_competition_winner_has_the_strictly_highest_result(specs, data):
    participants = [(f"P{i}", SkPool(rank, bonus, discard=discard)) for i, (rank, bonus, discard) in
                    enumerate(specs)]
    count = sum(pool.dice_rolled for _, pool in participants if pool.test_dice)
    result = compete(participants, data.draw(st.lists(st.integers(1, 6), min_size=count, max_size=count)))
    results = [c.result for c in result.competitors if c.result is not None]
    if result.winner is not None:
        winner = next(c for c in result.competitors if c.name == result.winner)
        others = [c.result for c in result.competitors if c is not winner and c.result is not None]
        assert all(winner.result > other for other in others)
    elif results:
        assert result.tie and sorted(results).count(max(results)) == len(result.tied) >= 2
    else:
        assert not result.tie


# --- extended tests -------------------------------------------------------------------------------


def basic(pool, faces, difficulty):
    return roll_test(pool, FixedDice(faces), difficulty=difficulty)


def test_extended_progress_adds_degrees_of_each_success_until_complete():
    task = ExtendedProgress("Forge a Valyrian blade", needed=5)
    assert (task.gained, task.remaining, task.complete) == (0, 5, False)
    task = advance(task, basic(SkPool(3), [6, 6, 6], "Easy"))  # 18 vs 3: margin 15, 4 degrees
    assert (task.gained, task.remaining, task.complete) == (4, 1, False)
    task = advance(task, basic(SkPool(3), [1, 1, 2], "Easy"))  # 4 vs 3: margin 1, 1 degree
    assert (task.gained, task.complete) == (5, True)
    assert task.as_dict() == {"name": "Forge a Valyrian blade", "needed": 5, "gained": 5, "remaining": 0,
                              "complete": True}


def test_extended_failures_add_nothing_and_overshoot_is_kept():
    task = ExtendedProgress("Research", needed=2, gained=1)
    assert advance(task, basic(SkPool(2), [1, 1], "Routine")) == task
    assert advance(task, basic(SkPool(2, 2, wounds=2), [], "Routine")) == task  # no test die: fails, no roll
    done = advance(task, basic(SkPool(3), [6, 6, 6], "Routine"))  # margin 12: 3 degrees
    assert (done.gained, done.remaining, done.complete) == (4, 0, True)


def test_extended_refusals():
    task = ExtendedProgress("Research", needed=2)
    with pytest.raises(InvalidInput, match="'Research' is already complete"):
        advance(ExtendedProgress("Research", 2, 2), basic(SkPool(3), [6, 6, 6], "Easy"))
    with pytest.raises(InvalidInput, match="An Automatic test adds no degrees"):
        advance(task, basic(SkPool(3), [], "Automatic"))
    conflict = roll_test(SkPool(3), FixedDice([6, 6, 6]), target=5, kind="conflict")
    with pytest.raises(InvalidInput, match="made of basic tests"):
        advance(task, conflict)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("", 3), "needs a name of 1 to 100 characters"),
        (("x" * 101, 3), "needs a name"),
        (("Task", 0), "Successes needed 0 is out of range: it must be from 1 to 50"),
        (("Task", 51), "Successes needed 51 is out of range"),
        (("Task", 5, -1), "Successes gained -1 is out of range"),
        (("Task", 5, 9), "Successes gained 9 is out of range: it must be from 0 to 8"),
    ],
)
def test_extended_progress_validation(args, message):
    with pytest.raises(InvalidInput, match=message):
        ExtendedProgress(*args)


@given(st.integers(1, 50), st.lists(st.integers(0, 60), max_size=40))
@settings(max_examples=60)
def test_extended_progress_only_grows_by_degrees_and_stays_valid(needed, results):
    task = ExtendedProgress("Task", needed)
    for result in results:
        if task.complete:
            break
        test = SkTest(SkPool(10), "basic", 9, "rolled", (), result)
        after = advance(task, test)
        assert after.gained - task.gained == (test.degrees if result >= 9 else 0)
        task = after
