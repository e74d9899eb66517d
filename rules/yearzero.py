"""Year Zero Engine, Forbidden Lands flavour: base, gear and Artifact dice, the push, banes and Willpower.

A roll is read as it lies: each 6 on a d6 is one success, an Artifact die scores 6-7 -> 1, 8-9 -> 2,
10-11 -> 3, 12 -> 4 successes, and a 1 on a base or gear d6 is a bane (an Artifact die never shows one).
Banes do nothing on the first roll. A push (once, never chosen die by die) rerolls every d6 showing neither
6 nor 1 and every Artifact die that scored nothing; after it, each base die showing 1 is one point of
Attribute damage and one Willpower Point, each gear die showing 1 lowers the gear bonus by one.
The seed counts every Attribute + Skill die as a base die with a bane face (RULES.md section 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource, Die, SystemDice
from rules.errors import CannotPush, InvalidInput, RulesError, check_range
from rules.yearzero_dice import (  # noqa: F401 (the dice's names and reading, offered here as they always were)
    ARTIFACT_NAMES,
    ARTIFACT_SIDES,
    MAX_ARTIFACTS,
    Tally,
    artifact_successes,
    check_artifacts,
    check_face,
    die_successes,
    is_bane,
    is_rerollable,
    parse_artifact,
    pool_kinds,
    read_faces,
    roll_die,
    roll_pool,
)

MAX_RATING = 10  # Attribute, Skill and Gear each
MAX_WILLPOWER = 10
NOTHING_TO_PUSH = "Nothing to push: every die shows 6 or 1"
ALREADY_PUSHED = "This roll has already been pushed: a roll can be pushed only once"


@dataclass(frozen=True, slots=True)
class YzRoll:
    """One Year Zero roll, first or pushed, with its reading.

    ``dice`` hold the base dice (Attribute + Skill), then the gear dice, then the Artifact dice in the order
    given. A pushed roll keeps its first roll in ``first`` (both are shown); a first roll has ``first=None``.
    """

    attribute: int
    skill: int
    gear: int
    artifacts: tuple[int, ...]
    dice: tuple[Die, ...]
    first: YzRoll | None = None
    _tally: Tally = field(init=False, repr=False, compare=False)
    """(successes, base banes, gear banes, reroll indices): read once, since the dice never change."""

    def __post_init__(self) -> None:
        _check_pool(self.attribute, self.skill, self.gear, self.artifacts)
        _check_dice(self)
        if self.first is not None:
            _check_push_of(self.first, self)
        object.__setattr__(self, "_tally", _tally(self))

    @property
    def successes(self) -> int:
        return self._tally[0]

    @property
    def success(self) -> bool:
        return self._tally[0] >= 1

    @property
    def base_banes(self) -> int:
        return self._tally[1]

    @property
    def gear_banes(self) -> int:
        return self._tally[2]

    @property
    def pushed(self) -> bool:
        return self.first is not None

    @property
    def reroll_indices(self) -> tuple[int, ...]:
        """Positions in ``dice`` a push would reroll (none once the roll is pushed)."""
        return self._tally[3]

    @property
    def can_push(self) -> bool:
        return bool(self.reroll_indices)

    @property
    def rerolled(self) -> tuple[int, ...]:
        """Positions in ``dice`` the push rerolled (empty for a first roll)."""
        return self.first.reroll_indices if self.first is not None else ()

    @property
    def attribute_damage(self) -> int:
        """Damage to the Attribute: base banes after a push (banes do nothing on the first roll)."""
        return self.base_banes if self.pushed else 0

    @property
    def gear_damage(self) -> int:
        """Lost gear bonus: gear banes after a push."""
        return self.gear_banes if self.pushed else 0

    @property
    def willpower_gained(self) -> int:
        """Willpower Points gained: one per base-die bane after a push (gear dice never give WP)."""
        return self.base_banes if self.pushed else 0

    def reading_as_dict(self) -> dict:
        """Every reading of this roll, for JSON and rendering."""
        return {
            "successes": self.successes,
            "success": self.success,
            "base_banes": self.base_banes,
            "gear_banes": self.gear_banes,
            "pushed": self.pushed,
            "can_push": self.can_push,
            "reroll_indices": list(self.reroll_indices),
            "rerolled": list(self.rerolled),
            "attribute_damage": self.attribute_damage,
            "gear_damage": self.gear_damage,
            "willpower_gained": self.willpower_gained,
        }

    def as_dict(self) -> dict:
        """Compact, storable form: the pool and the faces (and the first roll's faces when pushed)."""
        data = {
            "attribute": self.attribute,
            "skill": self.skill,
            "gear": self.gear,
            "artifacts": list(self.artifacts),
            "faces": [die.face for die in self.dice],
        }
        if self.first is not None:
            data["first_faces"] = [die.face for die in self.first.dice]
        return data

    @classmethod
    def from_dict(cls, data: object) -> YzRoll:
        """Rebuild a roll from ``as_dict()``; anything inconsistent raises RulesError."""
        try:
            return _from_dict(data)
        except RulesError as error:
            raise InvalidInput(f"{_UNREADABLE}: {error}") from None
        except (KeyError, TypeError, ValueError, AttributeError):
            raise InvalidInput(f"{_UNREADABLE}: its data is damaged") from None


_UNREADABLE = "This stored Year Zero roll cannot be read back"
_KEYS = {"attribute", "skill", "gear", "artifacts", "faces"}


def _from_dict(data: object) -> YzRoll:
    if not isinstance(data, dict) or not _KEYS <= data.keys() <= _KEYS | {"first_faces"}:
        raise InvalidInput("its fields are not those of a roll")
    pool = (data["attribute"], data["skill"], data["gear"], tuple(data["artifacts"]))
    _check_pool(*pool)
    faces = data.get("first_faces", data["faces"])
    first = YzRoll(*pool, _dice_with_faces(*pool, faces))
    if "first_faces" not in data:
        return first
    return YzRoll(*pool, _dice_with_faces(*pool, data["faces"]), first)


def _dice_with_faces(attribute, skill, gear, artifacts, faces) -> tuple[Die, ...]:
    roles = pool_kinds(attribute, skill, gear, artifacts)
    if not isinstance(faces, list | tuple) or len(faces) != len(roles):
        raise InvalidInput(f"the pool needs {len(roles)} faces")
    return tuple(Die(sides, face, role) for (sides, role), face in zip(roles, faces, strict=True))


def _check_pool(attribute: int, skill: int, gear: int, artifacts: tuple[int, ...]) -> None:
    _check_ratings(attribute, skill, gear)
    if not isinstance(artifacts, tuple) or check_artifacts(artifacts) != artifacts:
        raise InvalidInput("Artifact dice must be given as a tuple of sides: 8, 10 or 12")
    _check_not_empty(attribute + skill + gear + len(artifacts))


def _check_ratings(attribute: int, skill: int, gear: int) -> None:
    check_range("Attribute", attribute, 0, MAX_RATING)
    check_range("Skill", skill, 0, MAX_RATING)
    check_range("Gear", gear, 0, MAX_RATING)


def _check_not_empty(dice: int) -> None:
    if dice == 0:
        raise InvalidInput(
            "A Year Zero roll needs at least one die: Attribute, Skill, Gear and Artifact dice are all 0"
        )


def _check_dice(roll: YzRoll) -> None:
    expected = pool_kinds(roll.attribute, roll.skill, roll.gear, roll.artifacts)
    if not isinstance(roll.dice, tuple) or [(d.sides, d.role) for d in roll.dice] != expected:
        raise InvalidInput("the dice do not match the pool (base, then gear, then Artifact dice)")
    for d in roll.dice:
        check_face(d.sides, d.face)


def _check_push_of(first: YzRoll, pushed: YzRoll) -> None:
    if first.pushed:
        raise CannotPush(ALREADY_PUSHED)
    if _pool_of(first) != _pool_of(pushed):
        raise InvalidInput("a pushed roll must keep the pool of its first roll")
    rerolled = set(first.reroll_indices)
    if not rerolled:
        raise CannotPush(_nothing_to_push(first))
    if any(a != b for i, (a, b) in enumerate(zip(first.dice, pushed.dice, strict=True)) if i not in rerolled):
        raise InvalidInput("a push changed a die it must keep (a 6, a 1 or an Artifact die that scored)")


def _tally(roll: YzRoll) -> Tally:
    faces = [die.face for die in roll.dice]
    return read_faces(faces, roll.attribute + roll.skill, roll.gear, first_roll=roll.first is None)


def _pool_of(roll: YzRoll) -> tuple:
    return roll.attribute, roll.skill, roll.gear, roll.artifacts


def _nothing_to_push(roll: YzRoll) -> str:
    if roll.artifacts:
        return NOTHING_TO_PUSH + ", and every Artifact die scored a success"
    return NOTHING_TO_PUSH


def roll_yz(
    attribute: int,
    skill: int,
    gear: int = 0,
    artifacts: Sequence[int | str] = (),
    dice: DiceSource | None = None,
) -> YzRoll:
    """Roll Attribute + Skill base dice, Gear dice and up to three Artifact dice (in that order)."""
    sides = check_artifacts(artifacts)
    _check_ratings(attribute, skill, gear)
    _check_not_empty(attribute + skill + gear + len(sides))
    source = dice if dice is not None else SystemDice()
    rolled = roll_pool(attribute, skill, gear, sides, source)
    return YzRoll(attribute, skill, gear, sides, rolled)


def push(first: YzRoll, dice: DiceSource | None = None) -> YzRoll:
    """The pushed roll: every reroll-able die rolled again (in dice order), the rest kept.

    Raises CannotPush when the roll was already pushed or nothing can be rerolled.
    """
    if first.pushed:
        raise CannotPush(ALREADY_PUSHED)
    if not first.reroll_indices:
        raise CannotPush(_nothing_to_push(first))
    source = dice if dice is not None else SystemDice()
    new = list(first.dice)
    for index in first.reroll_indices:
        new[index] = roll_die(new[index].sides, new[index].role, source)
    return YzRoll(first.attribute, first.skill, first.gear, first.artifacts, tuple(new), first)


def check_willpower(value: int, name: str = "Willpower") -> int:
    """Validate a Willpower total (0-10) and return it."""
    return check_range(name, value, 0, MAX_WILLPOWER)


def apply_willpower(current: int, gained: int) -> tuple[int, int]:
    """Add gained WP to current: (new total, points lost past the cap of 10)."""
    check_willpower(current)
    check_range("Willpower gained", gained, 0, 100)
    total = current + gained
    new_total = min(total, MAX_WILLPOWER)
    return new_total, total - new_total


def spend_willpower(current: int, cost: int) -> int:
    """Spend cost WP from current and return what is left; spending more than one has is refused."""
    check_willpower(current)
    check_range("Willpower to spend", cost, 0, MAX_WILLPOWER)
    if cost > current:
        raise InvalidInput(f"Not enough Willpower: {cost} WP needed, {current} left")
    return current - cost
