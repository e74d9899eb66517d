"""Hypothesis properties of HEX readings: whatever the faces, the reading obeys the rules."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import FixedDice, Role
from rules.hex.roll import Hazard, Outcome, roll_cast, roll_contest, roll_plain, roll_test

FACE = st.integers(1, 6)
EXAMPLES = settings(max_examples=150, deadline=None)


def sized_faces(low: int, high: int):
    """A pool size and exactly as many faces as it rolls."""
    def with_faces(size: int):
        rolled = max(size, 0)
        return st.tuples(st.just(size), st.lists(FACE, min_size=rolled, max_size=rolled))

    return st.integers(low, high).flatmap(with_faces)


@EXAMPLES
@given(sized_faces(1, 15))
def test_test_reading(case):
    size, faces = case
    dice = FixedDice(faces)
    result = roll_test(size, dice)
    dice.finish()
    hazard = min(size, 2)
    assert [d.face for d in result.dice] == faces
    assert [d.role for d in result.dice] == [Role.HAZARD] * hazard + [Role.BASE] * (size - hazard)
    assert result.successes == faces.count(6)
    assert result.success is (6 in faces)
    assert result.mishap is (6 not in faces and all(face == 1 for face in faces[:hazard]))
    if result.mishap:
        assert not result.success and 6 not in faces
    assert result.hazard in (Hazard.NONE, Hazard.MISHAP)
    assert result.mos == (faces.count(6) - 1 if result.success else None)


@EXAMPLES
@given(sized_faces(-2, 7), sized_faces(-2, 7), st.integers(0, 10))
def test_contest_reading(acting_case, opposing_case, dv):
    (acting, acting_faces), (opposing, opposing_faces) = acting_case, opposing_case
    dice = FixedDice(acting_faces + opposing_faces)
    result = roll_contest(acting, opposing, dice, dv=dv)
    dice.finish()
    ours, theirs = acting_faces.count(6), opposing_faces.count(6)
    assert (result.acting.successes, result.opposing.successes) == (ours, theirs)
    if acting > 0 and opposing > 0:
        assert result.outcome is (Outcome.ACTING if ours >= theirs else Outcome.OPPOSING)
        assert result.mos == abs(ours - theirs)
    elif acting > 0 or opposing > 0:
        assert result.outcome is (Outcome.ACTING if acting > 0 else Outcome.OPPOSING)
        assert result.mos == max(ours, theirs)
    else:
        assert result.outcome is Outcome.NEITHER and result.mos is None
    assert result.success is (result.outcome is Outcome.ACTING)
    assert result.damage == (dv + result.mos if result.success else None)
    for side, won in ((result.acting, result.success), (result.opposing, result.outcome is Outcome.OPPOSING)):
        if side.mishap:
            assert not won and side.successes == 0 and side.rolled
        assert side.hazard in (Hazard.NONE, Hazard.MISHAP)


@EXAMPLES
@given(sized_faces(1, 10), st.integers(0, 5))
def test_cast_reading(case, risk):
    size, faces = case
    result = roll_cast(size, risk, FixedDice(faces))
    control = [d.face for d in result.dice if d.role is Role.CONTROL]
    affinity = [d.face for d in result.dice if d.role is Role.AFFINITY]
    assert len(control) == (1 if size == 1 else min(risk, size - 1))
    assert len(affinity) == (0 if size == 1 else 1)
    assert result.success is (6 in faces)
    if result.hazard is not Hazard.NONE:
        assert not result.success and result.successes == 0
    failed = 6 not in faces
    assert (result.hazard is Hazard.LOSS_OF_CONTROL) is (failed and 1 in control)
    assert (result.hazard is Hazard.FIZZLE) is (failed and 1 not in control and 1 in affinity)
    assert result.hazard is not Hazard.MISHAP


@EXAMPLES
@given(sized_faces(1, 6), sized_faces(1, 6), st.integers(0, 5))
def test_resisted_cast_hazards_only_on_a_zero_success_loss(caster, resistance, risk):
    (size, faces), (against, against_faces) = caster, resistance
    result = roll_cast(size, risk, FixedDice(faces + against_faces), opposing=against)
    assert result.success is (faces.count(6) >= against_faces.count(6))
    if result.hazard is not Hazard.NONE:
        assert result.outcome is Outcome.OPPOSING and result.successes == 0
    if result.success:
        assert result.hazard is Hazard.NONE


@EXAMPLES
@given(sized_faces(1, 20))
def test_plain_counts_sixes(case):
    size, faces = case
    result = roll_plain(size, FixedDice(faces))
    assert result.successes == faces.count(6) and {d.role for d in result.dice} == {Role.BASE}
