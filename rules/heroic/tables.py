"""Heroic Rolls tables: the dice variants, named difficulties and their Target Numbers, the kinds of roll.

RULES.md section 3: the TN table for 2d6/d12 and for d20, opposed TN = 7 (or 9 on a d20) + opposing Skill,
and the five reactions with the skill each one uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.errors import InvalidInput, Term, Terms
from rules.names import name_key


def _key(text: object) -> str:
    """A player's spelling reduced to a lookup key: 'Very Hard', 'very-hard' -> 'very_hard' ('' if not a name)."""
    return name_key(text) or ""


class Variant(StrEnum):
    """Which dice the table uses: 2d6 (the default), 1d12 or 1d20."""

    TWO_D6 = "2d6"
    D12 = "d12"
    D20 = "d20"

    @property
    def dice(self) -> tuple[int, int]:
        """(count, sides) of the dice rolled."""
        return (2, 6) if self is Variant.TWO_D6 else (1, int(self.value[1:]))

    @property
    def versus_base(self) -> int:
        """An opposed or reaction TN is this plus the opposing Skill: 7, or 9 with a d20."""
        return 9 if self is Variant.D20 else 7

    @classmethod
    def parse(cls, value: Variant | str) -> Variant:
        text = str(value).strip().lower()
        text = {"1d12": "d12", "1d20": "d20"}.get(text, text)
        try:
            return cls(text)
        except ValueError:
            raise InvalidInput("Unknown dice {value!r}: choose 2d6, d12 or d20", value=value) from None


class Difficulty(StrEnum):
    """The named difficulties of an unopposed Heroic Roll."""

    BASIC = "basic"
    SIMPLE = "simple"
    EASY = "easy"
    MODERATE = "moderate"
    HARD = "hard"
    VERY_HARD = "very_hard"
    HEROIC = "heroic"
    INSANE = "insane"

    @property
    def label(self) -> str:
        return _DIFFICULTY_LABEL[self]

    def tn(self, variant: Variant | str = Variant.TWO_D6) -> int:
        """The Target Number: 4 to 18 with 2d6 or a d12, 6 to 20 with a d20."""
        column = 1 if Variant.parse(variant) is Variant.D20 else 0
        return _DIFFICULTY_TN[self][column]

    @classmethod
    def parse(cls, value: Difficulty | str) -> Difficulty:
        try:
            return cls(_key(value))
        except ValueError:
            names = Terms(d.label for d in cls)
            # Translators: {names} lists the Heroic Rolls difficulties (Basic, Simple, ...).
            raise InvalidInput("Unknown difficulty {value!r}: choose one of {names}", value=value,
                               names=names) from None


# Translators: the Heroic Rolls difficulties.
_DIFFICULTY_LABEL = {
    Difficulty.BASIC: Term("Basic"), Difficulty.SIMPLE: Term("Simple"), Difficulty.EASY: Term("Easy"),
    Difficulty.MODERATE: Term("Moderate"), Difficulty.HARD: Term("Hard"), Difficulty.VERY_HARD: Term("Very Hard"),
    Difficulty.HEROIC: Term("Heroic"), Difficulty.INSANE: Term("Insane"),
}
_DIFFICULTY_TN: dict[Difficulty, tuple[int, int]] = {
    Difficulty.BASIC: (4, 6),
    Difficulty.SIMPLE: (6, 8),
    Difficulty.EASY: (8, 10),
    Difficulty.MODERATE: (10, 12),
    Difficulty.HARD: (12, 14),
    Difficulty.VERY_HARD: (14, 16),
    Difficulty.HEROIC: (16, 18),
    Difficulty.INSANE: (18, 20),
}


@dataclass(frozen=True, slots=True)
class Reaction:
    """A named reaction and the Skill it is rolled with."""

    name: str
    skill: str | None


class Kind(StrEnum):
    """What the roll is for; REACTION is a reaction not named further."""

    TASK = "task"
    ATTACK = "attack"
    BLOCK = "block"
    PARRY = "parry"
    SHIELD_BLOCK = "shield_block"
    DODGE = "dodge"
    RESIST_MAGIC = "resist_magic"
    REACTION = "reaction"
    SPELL = "spell"

    @property
    def reaction(self) -> Reaction | None:
        return REACTIONS.get(self)

    @property
    def is_reaction(self) -> bool:
        return self in REACTIONS

    @property
    def governing_skill(self) -> str | None:
        """The Skill a named reaction is rolled with (Block: Brawl, ...); None for other kinds."""
        return REACTIONS[self].skill if self in REACTIONS else None

    @classmethod
    def parse(cls, value: Kind | str) -> Kind:
        key = _key(value)
        key = {"fend": "parry", "parry_fend": "parry", "parry_or_fend": "parry"}.get(key, key)
        try:
            return cls(key)
        except ValueError:
            names = ", ".join(k.value for k in cls)
            # Translators: {names} lists the kinds as typed (task, attack, ...): keep them in English.
            raise InvalidInput("Unknown kind of roll {value!r}: choose one of {names}", value=value,
                               names=names) from None


REACTIONS: dict[Kind, Reaction] = {
    # Translators: Heroic Rolls reactions and the Skills they are rolled with.
    Kind.BLOCK: Reaction(Term("Block"), Term("Brawl")),
    Kind.PARRY: Reaction(Term("Parry/Fend"), Term("Sword-Play")),
    Kind.SHIELD_BLOCK: Reaction(Term("Shield Block"), Term("Endurance")),
    Kind.DODGE: Reaction(Term("Dodge"), Term("Agility")),
    Kind.RESIST_MAGIC: Reaction(Term("Resist Magic"), Term("Magic Resistance")),
    Kind.REACTION: Reaction(Term("Reaction"), None),
}
