"""The checks of a Year Zero roll: its pool, its dice, and whether (and how) it may be pushed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import CannotPush, InvalidInput, check_range
from rules.yearzero_dice import check_artifacts, check_face, pool_kinds

if TYPE_CHECKING:
    from rules.yearzero import YzRoll

MAX_RATING = 10  # Attribute, Skill and Gear each
NOTHING_TO_PUSH = "Nothing to push: every die shows 6 or 1"
ALREADY_PUSHED = "This roll has already been pushed: a roll can be pushed only once"
NOT_PUSHABLE = "This roll may not be pushed (0 pushes allowed)"


def check_pool(attribute: int, skill: int, gear: int, artifacts: tuple[int, ...], pride: bool = False) -> None:
    check_ratings(attribute, skill, gear)
    if not isinstance(artifacts, tuple) or check_artifacts(artifacts) != artifacts:
        raise InvalidInput("Artifact dice must be given as a tuple of sides: 8, 10 or 12")
    if not isinstance(pride, bool):
        raise InvalidInput("Pride must be true or false")
    check_not_empty(attribute + skill + gear + len(artifacts) + pride)


def check_ratings(attribute: int, skill: int, gear: int) -> None:
    check_range("Attribute", attribute, 0, MAX_RATING)
    check_range("Skill", skill, 0, MAX_RATING)
    check_range("Gear", gear, 0, MAX_RATING)


def check_not_empty(dice: int) -> None:
    if dice == 0:
        raise InvalidInput(
            "A Year Zero roll needs at least one die: Attribute, Skill, Gear, Artifact and Pride dice are all 0"
        )


def check_dice(roll: YzRoll) -> None:
    expected = pool_kinds(roll.attribute, roll.skill, roll.gear, roll.artifacts, roll.pride)
    if not isinstance(roll.dice, tuple) or [(d.sides, d.role) for d in roll.dice] != expected:
        raise InvalidInput("the dice do not match the pool (base, gear, Artifact, then Pride dice)")
    for d in roll.dice:
        check_face(d.sides, d.face)


def check_push_of(previous: YzRoll, pushed: YzRoll) -> None:
    if pool_of(previous) != pool_of(pushed):
        raise InvalidInput("a pushed roll must keep the pool of the roll it pushed")
    check_can_push(previous)
    rerolled = set(previous.reroll_indices)
    if any(a != b for i, (a, b) in enumerate(zip(previous.dice, pushed.dice, strict=True)) if i not in rerolled):
        raise InvalidInput("a push changed a die it must keep (a 6, a 1 or an Artifact or Pride die that scored)")


def check_can_push(roll: YzRoll) -> None:
    if roll.pushes_allowed == 0:
        raise CannotPush(NOT_PUSHABLE)
    if roll.pushes_left <= 0:
        raise CannotPush(ALREADY_PUSHED if roll.pushes_allowed == 1 else pushed_enough(roll.pushes_allowed))
    if not roll.reroll_indices:
        raise CannotPush(nothing_to_push(roll))


def pushed_enough(allowed: int) -> str:
    return f"This roll has already been pushed {allowed} times, all it allows"


def pool_of(roll: YzRoll) -> tuple:
    return roll.attribute, roll.skill, roll.gear, roll.artifacts, roll.pride, roll.pushes_allowed


def nothing_to_push(roll: YzRoll) -> str:
    scored = [name for name, present in (("Artifact", roll.artifacts), ("Pride", roll.pride)) if present]
    if scored:
        return NOTHING_TO_PUSH + f", and every {' and '.join(scored)} die scored a success"
    return NOTHING_TO_PUSH
