"""Where dice faces come from, and the die a result holds.

Randomness always comes in from the caller: every roll function takes a ``DiceSource``. ``SystemDice`` (the
default) draws from the operating system's secure generator; ``FixedDice`` replays faces given in advance, for
tests and for reading a roll made with physical dice; ``SeededDice`` is repeatable, for benchmarks and drills.
There is no module-level random state.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypeVar

from rules.errors import FacesError, RulesError

T = TypeVar("T")


class Role(StrEnum):
    """What a die is in its system's reading."""

    BASE = "base"  # HEX ordinary pool die, Year Zero base (attribute + skill) die, Heroic roll die
    GEAR = "gear"
    ARTIFACT = "artifact"
    PRIDE = "pride"  # the Year Zero Pride die: a d12 read like an Artifact die
    HAZARD = "hazard"
    AFFINITY = "affinity"
    CONTROL = "control"
    TEST = "test"
    BONUS = "bonus"
    FUMBLE_TABLE = "fumble_table"


class Fate(StrEnum):
    """What became of a Seven Kingdoms die after the roll."""

    KEPT = "kept"  # summed into the result
    DISCARDED = "discarded"  # removed by a discard penalty (the highest dice)
    UNKEPT = "unkept"  # rolled and not discarded, but not among the highest retained


@dataclass(frozen=True, slots=True)
class Die:
    """One rolled die: how many sides, what it shows, and its role (and fate, where the system has one)."""

    sides: int
    face: int
    role: Role
    fate: Fate | None = None

    def as_dict(self) -> dict:
        data: dict = {"sides": self.sides, "face": self.face, "role": self.role.value}
        if self.fate is not None:
            data["fate"] = self.fate.value
        return data


class DiceSource(Protocol):
    """Anything that can roll one die with the given number of sides."""

    def roll(self, sides: int) -> int: ...


class SystemDice:
    """Faces from the operating system's secure generator (the default everywhere).

    Reads ``os.urandom`` a block at a time and turns each byte into a face without bias (a byte at or above
    the largest multiple of ``sides`` is drawn again): one system call per few hundred dice, not one per die.
    """

    _BLOCK = 256

    def __init__(self) -> None:
        self._bytes = b""
        self._next = 0

    def roll(self, sides: int) -> int:
        if not 1 <= sides <= 256:
            return random.SystemRandom().randint(1, sides)
        limit = 256 - 256 % sides
        while True:
            if self._next >= len(self._bytes):
                self._bytes, self._next = os.urandom(self._BLOCK), 0
            value = self._bytes[self._next]
            self._next += 1
            if value < limit:
                return value % sides + 1


class SeededDice:
    """Repeatable faces from a seed: for benchmarks and load drills, never for play."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self, sides: int) -> int:
        return self._rng.randint(1, sides)


class FixedDice:
    """Replays faces given in advance, in order; an impossible face or too few faces is a FacesError.

    Call ``finish()`` after the roll to make sure every face given was used. With ``count_short``, running out
    is not raised at once: the roll goes on with 1s so that ``finish()`` can say how many faces it needs (at
    least: a face read differently could ask for more), which is what a person typing faces wants to know.
    """

    def __init__(self, faces: Iterable[int], *, count_short: bool = False) -> None:
        self._faces = tuple(faces)
        self._next = 0
        self._count_short = count_short
        self.missing = 0
        """Faces the roll asked for beyond those given (count_short only)."""

    @property
    def used(self) -> int:
        return self._next

    def roll(self, sides: int) -> int:
        if self._next >= len(self._faces):
            if not self._count_short:
                raise FacesError("Not enough faces: the roll needs more than the {count} given",
                                 count=len(self._faces))
            self.missing += 1
            return 1
        face = self._faces[self._next]
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise FacesError("Face {face} is impossible on a d{sides} (die {number})", face=face, sides=sides,
                             number=self._next + 1)
        self._next += 1
        return face

    def finish(self) -> None:
        """Raise FacesError when faces were left over or missing: the roll used another number of dice."""
        if self.missing:
            raise self.shortage()
        if self._next != len(self._faces):
            raise FacesError("{given} faces given, but the roll used {used}", given=len(self._faces), used=self._next)


    def shortage(self) -> FacesError:
        """The error for a roll that asked for more faces than were given (count_short)."""
        given, needed = len(self._faces), len(self._faces) + self.missing
        return FacesError("Not enough faces: the roll needs at least {needed}, {given} given", needed=needed,
                          given=given)


def parse_faces(text: str, *, count_short: bool = False) -> FixedDice:
    """Read faces written as ``6,1,4`` or ``6 1 4`` (commas, spaces or both between faces) into a FixedDice."""
    faces: list[int] = []
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        if not (part.isascii() and part.isdigit()):  # "²" is a digit to str.isdigit, not to int()
            raise FacesError("Face {part!r} is not a number: write faces like 6,1,4", part=part)
        faces.append(int(part))
    if not faces:
        raise FacesError("No faces given: write faces like 6,1,4")
    return FixedDice(faces, count_short=count_short)


def roll_by_hand(faces: str, roll: Callable[[DiceSource], T]) -> T:
    """Read a roll made with physical dice: ``roll`` made with the faces typed (parse_faces), every face used.

    FacesError names the first wrong face (not a number, impossible on its die), or how many faces the roll needs
    when there are too few or too many: the command line's ``--faces`` and the bot's ``faces`` option alike."""
    dice = parse_faces(faces, count_short=True)
    try:
        result = roll(dice)
        dice.finish()
    except RulesError as refusal:
        if dice.missing:  # the roll went on with made-up 1s: what it needs is the shortage, not what the 1s did
            raise dice.shortage() from refusal
        raise
    return result


def rolled_with(faces: str | None, dice: DiceSource, roll: Callable[[DiceSource], T]) -> T:
    """``roll`` made with ``dice``, or, when a player typed the faces of physical dice, with those (roll_by_hand)."""
    return roll(dice) if faces is None else roll_by_hand(faces, roll)


def roll_dice(dice: DiceSource, count: int, sides: int, role: Role) -> tuple[Die, ...]:
    """Roll count dice of the given sides, all with one role."""
    return tuple(Die(sides, dice.roll(sides), role) for _ in range(count))


def faces_of(dice: Sequence[Die]) -> tuple[int, ...]:
    return tuple(d.face for d in dice)
