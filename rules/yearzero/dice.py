"""The dice of a Year Zero pool: Artifact dice, what each face scores, and rolling a pool's dice.

A pool's dice are its Attribute + Skill base d6s, then its gear d6s, then its Artifact dice in the order given.
Each 6 on a d6 is one success, an Artifact die scores 6-7 -> 1, 8-9 -> 2, 10-11 -> 3, 12 -> 4 successes, and a
1 on a base or gear d6 is a bane (an Artifact die never shows one). The Pride die (RULES.md section 6) is a d12
that comes last and reads like an Artifact die: it scores by the same table, never shows a bane, and a push
rerolls it when it scored nothing.

Which Artifact dice a player may name is said in ``rules.yearzero.artifacts``. A ``Die`` is frozen, so rolling
takes the one shared ``Die`` of each kind and face instead of building a new one per die (building a frozen
dataclass is slow, and a pool holds up to 33 dice).
"""

from __future__ import annotations

from rules.dice import DiceSource, Die, Role
from rules.errors import InvalidInput, Term
from rules.yearzero.artifacts import ARTIFACT_SIDES

PRIDE_SIDES = 12
# Translators: the Pride die of Forbidden Lands (a d12).
PRIDE_NAME = Term("Pride")
READ_AS_ARTIFACT = (Role.ARTIFACT, Role.PRIDE)
"""The roles that score by the Artifact table and never show a bane."""

Kind = tuple[int, Role]
"""What one die of a pool is: its sides and its role."""

Tally = tuple[int, int, int, tuple[int, ...]]
"""What a roll's faces read as: successes, base banes, gear banes and the positions a push would reroll."""


def artifact_successes(face: int) -> int:
    """Successes an Artifact die face scores: 6-7 -> 1, 8-9 -> 2, 10-11 -> 3, 12 -> 4, below 6 none."""
    return 0 if face < 6 else (face - 4) // 2


ARTIFACT_SUCCESSES = tuple(artifact_successes(face) for face in range(13))
"""Successes by Artifact die face, for reading many dice at once (index 0 unused)."""


def die_successes(die: Die) -> int:
    """Successes one die scores: a 6 on a d6, or the Artifact table (Artifact and Pride dice)."""
    if die.role in READ_AS_ARTIFACT:
        return artifact_successes(die.face)
    return 1 if die.face == 6 else 0


def is_bane(die: Die) -> bool:
    """A 1 on a base or gear d6 (an Artifact or Pride die never shows a bane)."""
    return die.role not in READ_AS_ARTIFACT and die.face == 1


def is_rerollable(die: Die) -> bool:
    """Would a push reroll this die: a d6 showing neither 6 nor 1, or an Artifact die that scored nothing."""
    return die_successes(die) == 0 and not is_bane(die)


BASE_D6: Kind = (6, Role.BASE)
GEAR_D6: Kind = (6, Role.GEAR)


PRIDE_D12: Kind = (PRIDE_SIDES, Role.PRIDE)


def pool_kinds(
    attribute: int, skill: int, gear: int, artifacts: tuple[int, ...], pride: bool = False
) -> list[Kind]:
    """The kind of each die of a pool, in dice order (the Pride die last)."""
    kinds = [BASE_D6] * (attribute + skill) + [GEAR_D6] * gear + [(sides, Role.ARTIFACT) for sides in artifacts]
    return kinds + [PRIDE_D12] if pride else kinds


_SHARED_DICE: dict[Kind, tuple[Die | None, ...]] = {
    kind: (None, *(Die(kind[0], face, kind[1]) for face in range(1, kind[0] + 1)))
    for kind in pool_kinds(1, 0, 1, ARTIFACT_SIDES, pride=True)
}
"""The shared dice of each kind a pool holds, indexed by face (no die shows a 0)."""


def check_face(sides: int, face: int) -> None:
    """Refuse a face a die with these sides cannot show."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
        raise InvalidInput("face {face!r} is impossible on a d{sides}", face=face, sides=sides)


def roll_die(sides: int, role: Role, source: DiceSource) -> Die:
    """One die of a kind, rolled: the shared Die of its face, or a checked new one for an unusual kind or face."""
    face = source.roll(sides)
    shared = _SHARED_DICE.get((sides, role)) if type(sides) is int else None
    if shared is not None and type(face) is int and 0 < face <= sides:
        die = shared[face]  # index 0 is the None that keeps faces and indices equal
        if die is not None:
            return die
    check_face(sides, face)
    return Die(sides, face, role)


def roll_kinds(kinds: list[Kind], source: DiceSource) -> tuple[Die, ...]:
    """One die of each kind, rolled in order."""
    return tuple([roll_die(sides, role, source) for sides, role in kinds])


def roll_pool(
    attribute: int, skill: int, gear: int, artifacts: tuple[int, ...], source: DiceSource, pride: bool = False
) -> tuple[Die, ...]:
    """A pool's dice rolled in dice order: base, gear, Artifact dice, then the Pride die."""
    return roll_kinds(pool_kinds(attribute, skill, gear, artifacts, pride), source)


def read_faces(faces: list[int], base: int, gear: int, *, can_push: bool) -> Tally:
    """The tally of a pool's faces: ``base`` base d6s, then ``gear`` gear d6s, then the Artifact and Pride dice.

    Only a roll with a push left has positions to reroll.
    """
    d6 = base + gear
    successes = faces[:d6].count(6) + sum([ARTIFACT_SUCCESSES[face] for face in faces[d6:]])
    rerollable = _rerollable(faces, d6) if can_push else ()
    return successes, faces[:base].count(1), faces[base:d6].count(1), rerollable


def _rerollable(faces: list[int], d6: int) -> tuple[int, ...]:
    """Positions of the d6s showing neither 6 nor 1, then of the Artifact and Pride dice that scored nothing."""
    blank_d6 = [index for index in range(d6) if 1 < faces[index] < 6]
    blank_artifacts = [index for index in range(d6, len(faces)) if faces[index] < 6]
    return tuple(blank_d6 + blank_artifacts)
