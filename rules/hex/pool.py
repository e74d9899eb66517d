"""HEX pools: AEGIS plus Specialty, less one die per complication, and the dice a roll designates from them.

Hazard Dice are two of the final pool, or all of a pool of one or two; a magical casting designates one
Affinity die and Control dice by Risk instead. A pool of 0 or fewer dice is nullified: nothing is rolled, and a
voluntary uncontested roll of it cannot be attempted without an Advancement. Rolling and reading the dice is
rules/hex/roll.py; their exact odds, rules/hex/odds.py. See RULES.md section 1 and the fine points of section 5.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from rules.errors import CannotAttempt, InvalidInput, check_range

MAX_POOL = 12 + 12 + 12 + 3 * 3  # Attribute + Skill + Specialty + Environment, Gear and Ingenuity
MIN_POOL = -20  # no bonus dice at all and every complication
MAX_RISK = 5


@dataclass(frozen=True, slots=True)
class HexPool:
    """A HEX dice pool: AEGIS plus Specialty, less one die per complication. The size may be 0 or below."""

    attribute: int = 0
    skill: int = 0
    specialty: int = 0
    environment: int = 0
    gear: int = 0
    ingenuity: int = 0
    complications: int = 0

    def __post_init__(self) -> None:
        check_range("Attribute", self.attribute, 0, 12)
        check_range("Skill", self.skill, 0, 12)
        check_range("Specialty", self.specialty, 0, 12)
        if self.specialty > self.skill:
            if not self.skill:
                raise InvalidInput("Specialty {specialty} cannot exceed Skill 0: a Specialty needs its parent Skill "
                                   "rated at least 1", specialty=self.specialty)
            raise InvalidInput("Specialty {specialty} cannot exceed Skill {skill}", specialty=self.specialty,
                               skill=self.skill)
        for name in ("environment", "gear", "ingenuity"):
            check_range(name.capitalize(), getattr(self, name), 0, 3)
        check_range("Complications", self.complications, 0, 20)

    @property
    def size(self) -> int:
        """Dice left to roll: may be 0 or negative (nullified)."""
        bonus = self.attribute + self.skill + self.specialty + self.environment + self.gear + self.ingenuity
        return bonus - self.complications

    @property
    def nullified(self) -> bool:
        return self.size <= 0

    def as_dict(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        return data | {"size": self.size}


def pool_size(pool: HexPool | int, name: str = "Pool") -> int:
    """The size of a pool given as a HexPool or directly as its dice count (checked against the bounds)."""
    if isinstance(pool, HexPool):
        return pool.size
    return check_range(name, pool, MIN_POOL, MAX_POOL)


def hazard_dice_count(size: int) -> int:
    """Ordinary Hazard Dice: two of the pool, or all of a pool of one or two dice."""
    return max(0, min(size, 2))


def casting_dice_count(size: int, risk: int) -> tuple[int, int]:
    """(Affinity dice, Control dice) of a casting: one and min(Risk, pool - 1); one die alone is Control."""
    if size <= 0:
        return 0, 0
    if size == 1:
        return 0, 1
    return 1, min(risk, size - 1)


def check_attempt(size: int, *, required: bool, advancement: bool) -> None:
    """Raise CannotAttempt for a voluntary uncontested roll of a nullified pool without an Advancement."""
    if size <= 0 and not required and not advancement:
        raise CannotAttempt(
            "The pool is {size} dice after complications: with no dice left, a voluntary action cannot be "
            "attempted (a required Test fails automatically, and an Advancement still guarantees success)", size=size
        )
