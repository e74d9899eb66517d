"""HEX: a d6 success pool built from AEGIS, read for successes, Hazard Dice and Mishaps.

Every natural 6 is one success; an uncontested Test needs one. Hazard Dice are designated from the final
pool (two, or all of a pool of one or two) and rolled first; a failed roll with no 6 whose Hazard Dice all
show 1 is a Mishap. A magical casting designates one Affinity die and Control dice by Risk instead. A pool of
0 or fewer dice is nullified: nothing is rolled. See RULES.md section 1 and the fine points of section 5.
The pool, its bounds and the dice it designates are in rules/hex/pool.py; exact odds in rules/hex/odds.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.dice import DiceSource, Die, Role
from rules.errors import check_range
from rules.hex.pool import MAX_POOL, MAX_RISK, HexPool, casting_dice_count, check_attempt, hazard_dice_count, pool_size

SIDES = 6
SUCCESS_FACE = 6
SKULL_FACE = 1
MAX_DV = 99


class Hazard(StrEnum):
    """The hazard consequence of one side's roll."""

    NONE = "none"
    MISHAP = "mishap"
    LOSS_OF_CONTROL = "loss_of_control"
    FIZZLE = "fizzle"


class Outcome(StrEnum):
    """Which side of a Contest (or a resisted cast) succeeded."""

    ACTING = "acting"
    OPPOSING = "opposing"
    NEITHER = "neither"


@dataclass(frozen=True, slots=True)
class HexSide:
    """One side's roll: its pool size, every die it rolled (designated dice first) and its reading."""

    size: int
    dice: tuple[Die, ...]
    successes: int
    hazard: Hazard

    @property
    def rolled(self) -> bool:
        return bool(self.dice)

    @property
    def nullified(self) -> bool:
        return self.size <= 0

    @property
    def mishap(self) -> bool:
        return self.hazard is Hazard.MISHAP

    def as_dict(self) -> dict:
        data = {name: _json(getattr(self, name)) for name in ("size", "nullified", "rolled", "successes")}
        return data | {"hazard": self.hazard.value, "mishap": self.mishap, "dice": _json(self.dice)}


@dataclass(frozen=True, slots=True)
class HexResult:
    """A Test, Contest or casting as read. ``successes``, ``hazard`` and ``mishap`` are the acting side's.

    ``mos`` is the winner's Margin of Success (None on an uncontested failure or when neither side succeeds);
    ``damage`` is DV + MoS, only when a DV was given and the acting side succeeded.
    """

    kind: str  # "test", "contest" or "cast"
    acting: HexSide
    opposing: HexSide | None
    success: bool
    outcome: Outcome | None  # None for an uncontested roll
    mos: int | None
    dv: int | None = None
    automatic: bool = False  # an Advancement was spent: nothing rolled
    required: bool = False
    risk: int | None = None  # castings only

    @property
    def dice(self) -> tuple[Die, ...]:
        """Every die in the order the faces are read: the acting side's, then the opposing side's."""
        return self.acting.dice + (self.opposing.dice if self.opposing else ())

    @property
    def successes(self) -> int:
        return self.acting.successes

    @property
    def hazard(self) -> Hazard:
        return self.acting.hazard

    @property
    def mishap(self) -> bool:
        return self.acting.mishap

    @property
    def rolled(self) -> bool:
        return bool(self.dice)

    @property
    def nullified(self) -> bool:
        return self.acting.nullified

    @property
    def damage(self) -> int | None:
        if self.dv is None or not self.success or self.mos is None:
            return None
        return self.dv + self.mos

    def as_dict(self) -> dict:
        """The full reading as JSON: the acting side's reading on top, then each side with its dice."""
        data = {name: _json(getattr(self, name)) for name in _READING}
        return data | {"acting": self.acting.as_dict(), "opposing": _json(self.opposing)}


_READING = ("kind", "success", "outcome", "successes", "mos", "dv", "damage", "hazard", "mishap", "automatic",
            "rolled", "nullified", "required", "risk")


def _json(value):
    """A reading's value as JSON: enums by value, dice and sides by their as_dict()."""
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return [die.as_dict() for die in value]
    return value.as_dict() if isinstance(value, HexSide) else value


@dataclass(frozen=True, slots=True)
class HexPlain:
    """A no-Mishap roll (Initiative, Hit Location, Armor): the dice and their 6s, no Hazard Dice."""

    dice: tuple[Die, ...]

    kind = "plain"

    @property
    def successes(self) -> int:
        return sum(die.face == SUCCESS_FACE for die in self.dice)

    def as_dict(self) -> dict:
        return {"kind": self.kind, "successes": self.successes, "dice": _json(self.dice)}


def _roll(size: int, dice: DiceSource, designated: Sequence[Role]) -> tuple[Die, ...]:
    """Roll a pool: the designated dice first, in order, then the rest as base dice."""
    roles = list(designated) + [Role.BASE] * (size - len(designated))
    return tuple(Die(SIDES, dice.roll(SIDES), role) for role in roles)


def _designated(size: int, risk: int | None) -> tuple[Role, ...]:
    if risk is None:
        return (Role.HAZARD,) * hazard_dice_count(size)
    affinity, control = casting_dice_count(size, risk)
    return (Role.AFFINITY,) * affinity + (Role.CONTROL,) * control


def _sixes(dice: Sequence[Die]) -> int:
    return sum(die.face == SUCCESS_FACE for die in dice)


def _skulls(dice: Sequence[Die], role: Role) -> list[bool]:
    return [die.face == SKULL_FACE for die in dice if die.role is role]


def _hazard(dice: tuple[Die, ...], failed: bool, casting: bool) -> Hazard:
    """The hazard of a side's roll: only a failed roll with dice and not a single 6 can have one."""
    if not failed or not dice or _sixes(dice):
        return Hazard.NONE
    if casting:
        if any(_skulls(dice, Role.CONTROL)):
            return Hazard.LOSS_OF_CONTROL
        return Hazard.FIZZLE if any(_skulls(dice, Role.AFFINITY)) else Hazard.NONE
    return Hazard.MISHAP if all(_skulls(dice, Role.HAZARD)) else Hazard.NONE


def _side(size: int, dice: tuple[Die, ...], failed: bool, casting: bool = False) -> HexSide:
    return HexSide(size, dice, _sixes(dice), _hazard(dice, failed, casting))


def _check_dv(dv: int | None) -> int | None:
    return None if dv is None else check_range("Damage Value", dv, 0, MAX_DV)


def _uncontested(
    kind: str, size: int, dice: DiceSource, *, required: bool, advancement: bool, dv: int | None,
    risk: int | None = None,
) -> HexResult:
    dv = _check_dv(dv)
    check_attempt(size, required=required, advancement=advancement)
    if advancement:
        return HexResult(kind, _side(size, (), False), None, True, None, 0, dv, True, required, risk)
    if size <= 0:
        return HexResult(kind, _side(size, (), True), None, False, None, None, dv, False, True, risk)
    rolled = _roll(size, dice, _designated(size, risk))
    success = _sixes(rolled) >= 1
    side = _side(size, rolled, not success, casting=risk is not None)
    return HexResult(kind, side, None, success, None, side.successes - 1 if success else None, dv,
                     False, required, risk)


def roll_test(
    pool: HexPool | int, dice: DiceSource, *, required: bool = False, advancement: bool = False,
    dv: int | None = None,
) -> HexResult:
    """An uncontested Test (Difficulty 1). Faces: the Hazard Dice first, then the rest of the pool."""
    return _uncontested("test", pool_size(pool), dice, required=required, advancement=advancement, dv=dv)


def _outcome(acting: tuple[Die, ...], opposing: tuple[Die, ...]) -> tuple[Outcome, int | None]:
    """Who wins and by how much: opposition needs strictly more; a side that rolled nothing cannot win."""
    if not acting and not opposing:
        return Outcome.NEITHER, None
    margin = _sixes(acting) - _sixes(opposing)
    if not acting or (opposing and margin < 0):
        return Outcome.OPPOSING, -margin
    return Outcome.ACTING, margin


def _contest(
    kind: str, acting: int, opposing: int, dice: DiceSource, *, advancement: bool, dv: int | None,
    risk: int | None = None, required: bool = False,
) -> HexResult:
    dv = _check_dv(dv)
    if advancement:
        sides = _side(acting, (), False), _side(opposing, (), True)
        return HexResult(kind, *sides, True, Outcome.ACTING, 0, dv, True, required, risk)
    acting_dice = _roll(max(acting, 0), dice, _designated(acting, risk))
    opposing_dice = _roll(max(opposing, 0), dice, _designated(opposing, None))
    outcome, mos = _outcome(acting_dice, opposing_dice)
    acting_side = _side(acting, acting_dice, outcome is not Outcome.ACTING, casting=risk is not None)
    opposing_side = _side(opposing, opposing_dice, outcome is not Outcome.OPPOSING)
    success = outcome is Outcome.ACTING
    return HexResult(kind, acting_side, opposing_side, success, outcome, mos, dv, False, required, risk)


def roll_contest(
    acting: HexPool | int, opposing: HexPool | int, dice: DiceSource, *, advancement: bool = False,
    dv: int | None = None,
) -> HexResult:
    """A Contest. Faces: the acting side's pool (Hazard Dice first), then the opposing side's likewise.

    The acting side wins ties (0-0 included); a nullified side cannot win, and if both are, neither succeeds.
    The acting side's Advancement wins outright with MoS 0 and neither side rolls.
    """
    sizes = pool_size(acting, "Acting pool"), pool_size(opposing, "Opposing pool")
    return _contest("contest", *sizes, dice, advancement=advancement, dv=dv)


def roll_cast(
    pool: HexPool | int, risk: int, dice: DiceSource, *, required: bool = False, advancement: bool = False,
    dv: int | None = None, opposing: HexPool | int | None = None,
) -> HexResult:
    """A magical casting at Risk 0-5, perhaps resisted by an opposing pool (an ordinary Contest side).

    Faces: the Affinity die, then the Control dice, then the rest of the caster's pool; then, when resisted,
    the opposing pool (its Hazard Dice first). Hazards only on a failed zero-success cast: any Control die
    on 1 is a loss of control, else the Affinity die on 1 a harmless fizzle.
    """
    check_range("Risk", risk, 0, MAX_RISK)
    size = pool_size(pool)
    if opposing is None:
        return _uncontested("cast", size, dice, required=required, advancement=advancement, dv=dv, risk=risk)
    against = pool_size(opposing, "Opposing pool")
    return _contest("cast", size, against, dice, advancement=advancement, dv=dv, risk=risk, required=required)


def roll_plain(count: int, dice: DiceSource) -> HexPlain:
    """A no-Mishap roll (Initiative, Hit Location, Armor): counts 6s and designates no Hazard Dice."""
    check_range("Dice", count, 1, MAX_POOL)
    return HexPlain(_roll(count, dice, ()))
