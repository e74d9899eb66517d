"""Artifact dice as a player names them: d8 (Mighty), d10 (Epic), d12 (Legendary), at most three to a roll."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rules.errors import InvalidInput, Term

MAX_ARTIFACTS = 3
# Translators: the Forbidden Lands Artifact dice: d8 Mighty, d10 Epic, d12 Legendary.
ARTIFACT_NAMES = {8: Term("Mighty"), 10: Term("Epic"), 12: Term("Legendary")}
ARTIFACT_SIDES = tuple(ARTIFACT_NAMES)
_ARTIFACTS_BY_NAME = {name.lower(): sides for sides, name in ARTIFACT_NAMES.items()}


def parse_artifact(value: int | str) -> int:
    """Read an Artifact die as its sides: 8, "d8", "D10", "12", or its name ("Mighty", "Epic"...)."""
    if type(value) is int and value in ARTIFACT_SIDES:
        return value
    sides = _sides_named(value) if isinstance(value, str) else value
    if isinstance(sides, bool) or sides not in ARTIFACT_SIDES:
        raise InvalidInput("Artifact die {value!r} is not one of d8 (Mighty), d10 (Epic) or d12 (Legendary)",
                           value=value)
    return sides


@lru_cache(maxsize=256)
def _sides_named(text: str) -> int | None:
    """The sides an Artifact die written as text names ("d12", "12", "Legendary"), or None."""
    text = text.strip().lower()
    digits = text[1:] if text.startswith("d") else text
    return _ARTIFACTS_BY_NAME.get(text, int(digits) if digits.isascii() and digits.isdigit() else None)


def check_artifacts(artifacts: Sequence[int | str]) -> tuple[int, ...]:
    """Validate the Artifact dice (at most 3, each a d8, d10 or d12) and return their sides in order."""
    sides = tuple([parse_artifact(a) for a in artifacts])
    if len(sides) > MAX_ARTIFACTS:
        raise InvalidInput("{count} Artifact dice given: a roll takes at most {high}", count=len(sides),
                           high=MAX_ARTIFACTS)
    return sides
