"""Year Zero Engine, Forbidden Lands flavour: base, gear, Artifact and Pride dice, pushes, banes and Willpower.

A roll is read as it lies: each 6 on a d6 is one success, an Artifact or Pride die scores 6-7 -> 1, 8-9 -> 2,
10-11 -> 3, 12 -> 4 successes, and a 1 on a base or gear d6 is a bane (an Artifact or Pride die never shows one).
Banes do nothing on the first roll. A roll allows 0-3 pushes (default 1, RULES.md section 6); a push, never chosen
die by die, rerolls every d6 showing neither 6 nor 1 and every Artifact or Pride die that scored nothing. A 1 counts
once: after the first push every base 1 showing gives one Willpower Point and one point of Attribute damage, and
every gear 1 lowers the gear bonus by one; a later push counts only the 1s it rolled. So after k pushes the running
totals are the base and gear 1s showing. The seed counts every Attribute + Skill die as a base die (RULES.md 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource, Die, SystemDice
from rules.errors import CannotPush, InvalidInput, RulesError, check_range
from rules.yearzero.artifacts import check_artifacts
from rules.yearzero.checks import check_not_empty, check_pool, check_ratings
from rules.yearzero.dice import Tally, check_face, pool_kinds, read_faces, roll_die, roll_pool

MAX_PUSHES = 3
NOTHING_TO_PUSH = "Nothing to push: every die shows 6 or 1"
ALREADY_PUSHED = "This roll has already been pushed: a roll can be pushed only once"
NOT_PUSHABLE = "This roll may not be pushed (0 pushes allowed)"


@dataclass(frozen=True, slots=True)
class YzRoll:
    """One Year Zero roll, first or pushed, with its reading.

    ``dice`` hold the base dice (Attribute + Skill), the gear dice, the Artifact dice in the order given, then the
    Pride die. A pushed roll keeps the roll it pushed in ``previous`` (a first roll has none): a roll pushed k
    times is a chain of k + 1 rolls. ``pushes_allowed`` (0-3) is how many pushes the roll allows in all.
    """

    attribute: int
    skill: int
    gear: int
    artifacts: tuple[int, ...]
    dice: tuple[Die, ...]
    previous: YzRoll | None = None
    pride: bool = False
    pushes_allowed: int = 1
    pushes: int = field(init=False, compare=False)
    """How many pushes made this roll (0 for a first roll)."""
    _tally: Tally = field(init=False, repr=False, compare=False)
    """(successes, base banes, gear banes, reroll indices): read once, since the dice never change."""

    def __post_init__(self) -> None:
        check_pool(self.attribute, self.skill, self.gear, self.artifacts, self.pride)
        check_range("Pushes allowed", self.pushes_allowed, 0, MAX_PUSHES)
        check_dice(self)
        if self.previous is not None:
            check_push_of(self.previous, self)
        object.__setattr__(self, "pushes", 0 if self.previous is None else self.previous.pushes + 1)
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
        return self.previous is not None

    @property
    def first(self) -> YzRoll | None:
        """The first roll of a pushed roll (None for a first roll)."""
        roll = self.previous
        while roll is not None and roll.previous is not None:
            roll = roll.previous
        return roll

    @property
    def pushes_left(self) -> int:
        return self.pushes_allowed - self.pushes

    @property
    def reroll_indices(self) -> tuple[int, ...]:
        """Positions in ``dice`` the next push would reroll (none when no push is left)."""
        return self._tally[3]

    @property
    def can_push(self) -> bool:
        return bool(self.reroll_indices)

    @property
    def rerolled(self) -> tuple[int, ...]:
        """Positions in ``dice`` the last push rerolled (empty for a first roll)."""
        return self.previous.reroll_indices if self.previous is not None else ()

    @property
    def attribute_damage(self) -> int:
        """Damage to the Attribute so far: the base banes showing once pushed (none on the first roll)."""
        return self.base_banes if self.pushed else 0

    @property
    def gear_damage(self) -> int:
        """Gear bonus lost so far: the gear banes showing once pushed."""
        return self.gear_banes if self.pushed else 0

    @property
    def willpower_gained(self) -> int:
        """Willpower Points gained by all the pushes so far: one per base bane (gear dice never give WP)."""
        return self.attribute_damage

    @property
    def new_base_banes(self) -> int:
        """Base banes this push counts: all showing after the first push, only its own new 1s after a later one."""
        return self.attribute_damage - (self.previous.attribute_damage if self.previous is not None else 0)

    @property
    def new_gear_banes(self) -> int:
        """Gear banes this push counts (as new_base_banes)."""
        return self.gear_damage - (self.previous.gear_damage if self.previous is not None else 0)

    def rolls(self) -> tuple[YzRoll, ...]:
        """The first roll, then the roll after each push, this one last."""
        chain: tuple[YzRoll, ...] = (self,)
        while chain[0].previous is not None:
            chain = (chain[0].previous, *chain)
        return chain

    def reading_as_dict(self) -> dict:
        """Every reading of this roll, for JSON and rendering."""
        return {
            "successes": self.successes,
            "success": self.success,
            "base_banes": self.base_banes,
            "gear_banes": self.gear_banes,
            "pushed": self.pushed,
            "pushes": self.pushes,
            "pushes_left": self.pushes_left,
            "can_push": self.can_push,
            "reroll_indices": list(self.reroll_indices),
            "rerolled": list(self.rerolled),
            "attribute_damage": self.attribute_damage,
            "gear_damage": self.gear_damage,
            "willpower_gained": self.willpower_gained,
            "new_base_banes": self.new_base_banes,
            "new_gear_banes": self.new_gear_banes,
        }

    def as_dict(self) -> dict:
        """Compact, storable form: the pool and the faces; when pushed, the first roll's faces and those after each
        earlier push. ``pride`` and ``pushes_allowed`` are written only when not their defaults (no Pride, one
        push), so a roll stored before they existed reads back as it was."""
        data: dict = {
            "attribute": self.attribute,
            "skill": self.skill,
            "gear": self.gear,
            "artifacts": list(self.artifacts),
            "faces": _faces(self),
        }
        data |= {"pride": True} if self.pride else {}
        data |= {"pushes_allowed": self.pushes_allowed} if self.pushes_allowed != 1 else {}
        earlier = self.rolls()[:-1]
        if earlier:
            data["first_faces"] = _faces(earlier[0])
        if len(earlier) > 1:
            data["push_faces"] = [_faces(roll) for roll in earlier[1:]]
        return data

    @classmethod
    def from_dict(cls, data: object) -> YzRoll:
        """Rebuild a roll from ``as_dict()``; anything inconsistent raises RulesError."""
        try:
            return _from_dict(data)
        except RulesError as error:
            raise InvalidInput("This stored Year Zero roll cannot be read back: {error}", error=error) from None
        except (KeyError, TypeError, ValueError, AttributeError):
            raise InvalidInput("This stored Year Zero roll cannot be read back: its data is damaged") from None


_KEYS = {"attribute", "skill", "gear", "artifacts", "faces"}
_OPTIONAL_KEYS = {"first_faces", "push_faces", "pride", "pushes_allowed"}


def _faces(roll: YzRoll) -> list[int]:
    return [die.face for die in roll.dice]


def _from_dict(data: object) -> YzRoll:
    if not isinstance(data, dict) or not _KEYS <= data.keys() <= _KEYS | _OPTIONAL_KEYS:
        raise InvalidInput("its fields are not those of a roll")
    if "push_faces" in data and "first_faces" not in data:
        raise InvalidInput("faces after a push are given without the first roll's")
    pride, allowed = data.get("pride", False), data.get("pushes_allowed", 1)
    if not isinstance(pride, bool) or not isinstance(data.get("push_faces", []), list):
        raise InvalidInput("its fields are not those of a roll")
    pool = (data["attribute"], data["skill"], data["gear"], tuple(data["artifacts"]))
    check_pool(*pool, pride)
    steps = [data["first_faces"], *data.get("push_faces", [])] if "first_faces" in data else []
    roll: YzRoll | None = None
    for faces in [*steps, data["faces"]]:
        roll = YzRoll(*pool, _dice_with_faces(*pool, pride, faces), roll, pride, allowed)
    assert roll is not None  # the loop runs at least once, for data["faces"]
    return roll


def _dice_with_faces(attribute, skill, gear, artifacts, pride, faces) -> tuple[Die, ...]:
    roles = pool_kinds(attribute, skill, gear, artifacts, pride)
    if not isinstance(faces, list | tuple) or len(faces) != len(roles):
        raise InvalidInput("the pool needs {count} faces", count=len(roles))
    return tuple(Die(sides, face, role) for (sides, role), face in zip(roles, faces, strict=True))


def _tally(roll: YzRoll) -> Tally:
    faces = [die.face for die in roll.dice]
    return read_faces(faces, roll.attribute + roll.skill, roll.gear, can_push=roll.pushes_left > 0)


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


def roll_yz(
    attribute: int,
    skill: int,
    gear: int = 0,
    artifacts: Sequence[int | str] = (),
    dice: DiceSource | None = None,
    *,
    pride: bool = False,
    pushes: int = 1,
) -> YzRoll:
    """Roll Attribute + Skill base dice, Gear dice, up to three Artifact dice and the Pride die (in that order);
    the roll allows ``pushes`` pushes (0-3)."""
    sides = check_artifacts(artifacts)
    check_ratings(attribute, skill, gear)
    check_range("Pushes allowed", pushes, 0, MAX_PUSHES)
    check_not_empty(attribute + skill + gear + len(sides) + bool(pride))
    source = dice if dice is not None else SystemDice()
    rolled = roll_pool(attribute, skill, gear, sides, source, bool(pride))
    return YzRoll(attribute, skill, gear, sides, rolled, None, bool(pride), pushes)


def push(roll: YzRoll, dice: DiceSource | None = None) -> YzRoll:
    """The pushed roll: every reroll-able die rolled again (in dice order), the rest kept.

    Raises CannotPush when no push is left or nothing can be rerolled.
    """
    check_can_push(roll)
    source = dice if dice is not None else SystemDice()
    new = list(roll.dice)
    for index in roll.reroll_indices:
        new[index] = roll_die(new[index].sides, new[index].role, source)
    pool = (roll.attribute, roll.skill, roll.gear, roll.artifacts)
    return YzRoll(*pool, tuple(new), roll, roll.pride, roll.pushes_allowed)
