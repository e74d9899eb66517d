"""The checks of a Year Zero pool: its ratings and its dice, before any die is rolled.

The checks that read a roll (its dice, whether and how it may be pushed) live beside ``YzRoll`` in
``rules.yearzero.roll``.
"""

from __future__ import annotations

from rules.errors import InvalidInput, check_range
from rules.yearzero.artifacts import check_artifacts

MAX_RATING = 10  # Attribute, Skill and Gear each


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
