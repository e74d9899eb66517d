"""Heroic Rolls: 2d6 (or 1d12, or 1d20) + Skill against a Target Number.

A double 6 / natural 12 / natural 20 is a Crit and a double 1 / natural 1 a Fumble, whatever the TN.
Otherwise a total above the TN succeeds, a total equal to it succeeds with a complication (in every variant),
and a total below it fails. The kind of roll (task, attack, one of the five reactions, spell) decides what a
Crit or a Fumble means; a Fumbled attack rolls the d6 Combat Fumble table from the same dice source, after the
roll's dice. Exact odds are in ``rules.heroic.odds``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from rules.dice import DiceSource, Die, Role, roll_dice
from rules.errors import InvalidInput, Term, check_range
from rules.heroic.tables import Difficulty, Kind, Variant

SKILL_MAX = 30
TN_MIN, TN_MAX = 1, 60
DAMAGE_MAX = 9999


class Outcome(StrEnum):
    CRIT = "crit"
    SUCCESS = "success"
    SUCCESS_WITH_COMPLICATION = "success_with_complication"
    FAILURE = "failure"
    FUMBLE = "fumble"

    @property
    def succeeded(self) -> bool:
        return self in (Outcome.CRIT, Outcome.SUCCESS, Outcome.SUCCESS_WITH_COMPLICATION)


class TargetSource(StrEnum):
    DIFFICULTY = "difficulty"
    TN = "tn"
    VERSUS = "versus"


@dataclass(frozen=True, slots=True)
class Target:
    """The Target Number and where it came from (a named difficulty, a number, or an opposing Skill)."""

    tn: int
    source: TargetSource
    difficulty: Difficulty | None = None
    versus: int | None = None

    def as_dict(self) -> dict:
        difficulty = self.difficulty.value if self.difficulty is not None else None
        return {"tn": self.tn, "source": self.source.value, "difficulty": difficulty, "versus": self.versus}


def resolve_target(
    variant: Variant | str,
    *,
    difficulty: Difficulty | str | None = None,
    tn: int | None = None,
    versus: int | None = None,
) -> Target:
    """The Target from exactly one of a named difficulty, a TN, or the opposing Skill."""
    variant = Variant.parse(variant)
    options = (("difficulty", difficulty), ("tn", tn), ("versus", versus))
    given = [name for name, value in options if value is not None]
    if len(given) > 1:
        raise InvalidInput("Give only one target, not {given}: a difficulty, a TN or versus", given=" and ".join(given))
    if difficulty is not None:
        named = Difficulty.parse(difficulty)
        return Target(named.tn(variant), TargetSource.DIFFICULTY, difficulty=named)
    if versus is not None:
        check_range("Opposing Skill", versus, 0, SKILL_MAX)
        return Target(variant.versus_base + versus, TargetSource.VERSUS, versus=versus)
    if tn is None:
        raise InvalidInput("Give a target: a difficulty, a TN, or the opposing Skill (versus)")
    return Target(check_range("TN", tn, TN_MIN, TN_MAX), TargetSource.TN)


def read_outcome(variant: Variant, natural: int, skill: int, tn: int) -> Outcome:
    """Read a natural roll: its highest value (double 6, natural 12, natural 20) is a Crit and its lowest
    (double 1, natural 1) a Fumble, whatever the TN; otherwise natural + Skill is compared with the TN."""
    count, sides = variant.dice
    if natural == count * sides:
        return Outcome.CRIT
    if natural == count:
        return Outcome.FUMBLE
    total = natural + skill
    if total > tn:
        return Outcome.SUCCESS
    return Outcome.SUCCESS_WITH_COMPLICATION if total == tn else Outcome.FAILURE


class Consequence(StrEnum):
    """What a Crit or a Fumble means for this kind of roll (an attack's Fumble: its Combat Fumble entry)."""

    DOUBLE_DAMAGE = "double_damage"
    FREE_ACTION = "free_action"
    CRITICAL_DAMAGE = "critical_damage"
    FALLS_OVER = "falls_over"
    DROPS_WEAPON = "drops_weapon"
    INJURES_ALLY = "injures_ally"
    INJURES_SELF = "injures_self"
    SPELL_MISCAST = "spell_miscast"

    @property
    def text(self) -> str:
        return _CONSEQUENCE_TEXT[self]


# Translators: keep the heading before ": " (Critical hit, Combat Fumble, ...): cards show only what follows it.
_CONSEQUENCE_TEXT = {
    Consequence.DOUBLE_DAMAGE: Term("Critical hit: the attack inflicts double damage."),
    Consequence.FREE_ACTION: Term("Critical success: the Hero may take one free action."),
    Consequence.CRITICAL_DAMAGE: Term("Critical damage: the Hero takes double the damage of the hit."),
    Consequence.FALLS_OVER: Term(
        "Combat Fumble: the Hero loses their balance, slips and falls over, "
        "ending their turn looking like a fool."
    ),
    Consequence.DROPS_WEAPON: Term(
        "Combat Fumble: the Hero fumbles and drops their weapon "
        "(or inflicts half damage on themself if they are armed)."
    ),
    Consequence.INJURES_ALLY: Term("Combat Fumble: the Hero accidentally injures an ally nearby for half damage."),
    Consequence.INJURES_SELF: Term("Combat Fumble: the Hero accidentally injures themself for half damage."),
    Consequence.SPELL_MISCAST: Term("Spell fumble: roll on the Spell Miscast Table."),
}
_DOUBLING = (Consequence.DOUBLE_DAMAGE, Consequence.CRITICAL_DAMAGE)
_HALVING = (Consequence.DROPS_WEAPON, Consequence.INJURES_ALLY, Consequence.INJURES_SELF)


def combat_fumble_entry(face: int) -> Consequence:
    """The d6 Combat Fumble table: 5-6 falls over, 3-4 drops the weapon, 2 hurts an ally, 1 hurts self."""
    check_range("Combat Fumble roll", face, 1, 6)
    if face >= 5:
        return Consequence.FALLS_OVER
    if face >= 3:
        return Consequence.DROPS_WEAPON
    return Consequence.INJURES_ALLY if face == 2 else Consequence.INJURES_SELF


def consequence_of(kind: Kind, outcome: Outcome, fumble_table: int | None = None) -> Consequence | None:
    """What a Crit or Fumble means for a kind of roll; fumble_table is the Combat Fumble d6 of an attack."""
    crit, fumble = outcome is Outcome.CRIT, outcome is Outcome.FUMBLE
    if kind is Kind.ATTACK and (crit or fumble):
        if crit:
            return Consequence.DOUBLE_DAMAGE
        if fumble_table is None:
            raise InvalidInput("A Fumbled attack needs its Combat Fumble roll (a d6)")
        return combat_fumble_entry(fumble_table)
    if kind.is_reaction and (crit or fumble):
        return Consequence.FREE_ACTION if crit else Consequence.CRITICAL_DAMAGE
    return Consequence.SPELL_MISCAST if kind is Kind.SPELL and fumble else None


def _damage(kind: Kind, outcome: Outcome, damage: int | None) -> tuple[int | None, int | None]:
    """(damage_dealt, damage_taken): an attack deals double on a Crit, nothing on a miss; a reaction that
    fails takes the hit, a Fumbled one takes double, a successful one nothing."""
    if damage is None:
        return None, None
    if kind is Kind.ATTACK:
        return (2 * damage if outcome is Outcome.CRIT else damage if outcome.succeeded else 0), None
    if kind.is_reaction:
        return None, (2 * damage if outcome is Outcome.FUMBLE else 0 if outcome.succeeded else damage)
    return None, None


def _plain(value: Fraction) -> int | float:
    """A halved damage as a plain, unrounded number: 3 or 3.5."""
    return int(value) if value.denominator == 1 else float(value)


def _describe(consequence: Consequence | None, damage: int | None, doubled: int | None) -> str | None:
    if consequence is None or damage is None:
        return consequence.text if consequence else None
    if consequence in _DOUBLING:
        return f"{consequence.text} 2 × {damage} = {doubled}."
    if consequence in _HALVING:
        return f"{consequence.text} Half of {damage} is {_plain(Fraction(damage, 2))}."
    return consequence.text


@dataclass(frozen=True, slots=True)
class HeroicRoll:
    """A Heroic Roll read: the dice, the total against the TN, the outcome and what it means.

    ``dice`` are the roll's own dice (Role.BASE); ``fumble_table`` the Combat Fumble d6 of a Fumbled attack.
    With a damage value: ``damage_dealt`` (attacks: doubled on a Crit, 0 on a miss), ``damage_taken``
    (reactions: doubled on a Fumble, 0 when the reaction succeeds) and ``half_damage`` (the unrounded half a
    Combat Fumble entry speaks of) are set; otherwise they are None.
    """

    skill: int
    variant: Variant
    kind: Kind
    target: Target
    dice: tuple[Die, ...]
    outcome: Outcome
    fumble_table: Die | None
    consequence: Consequence | None
    consequence_text: str | None
    damage: int | None
    damage_dealt: int | None
    damage_taken: int | None
    half_damage: Fraction | None

    @property
    def tn(self) -> int:
        return self.target.tn

    @property
    def natural(self) -> int:
        return sum(die.face for die in self.dice)

    @property
    def total(self) -> int:
        return self.natural + self.skill

    @property
    def succeeded(self) -> bool:
        return self.outcome.succeeded

    @property
    def all_dice(self) -> tuple[Die, ...]:
        """Every die rolled, in the order rolled: the roll's dice, then any Combat Fumble d6."""
        return self.dice + ((self.fumble_table,) if self.fumble_table else ())

    def as_dict(self) -> dict:
        reaction = self.kind.reaction
        return {
            "skill": self.skill,
            "variant": self.variant.value,
            "kind": self.kind.value,
            "reaction": reaction.name if reaction else None,
            "governing_skill": self.kind.governing_skill,
            "target": self.target.as_dict(),
            "dice": [die.as_dict() for die in self.dice],
            "fumble_table": self.fumble_table.as_dict() if self.fumble_table else None,
            "natural": self.natural,
            "total": self.total,
            "tn": self.tn,
            "outcome": self.outcome.value,
            "success": self.succeeded,
            "complication": self.outcome is Outcome.SUCCESS_WITH_COMPLICATION,
            "consequence": self.consequence.value if self.consequence else None,
            "consequence_text": self.consequence_text,
            "damage": self.damage,
            "damage_dealt": self.damage_dealt,
            "damage_taken": self.damage_taken,
            "half_damage": _plain(self.half_damage) if self.half_damage is not None else None,
        }


def roll_heroic(
    skill: int,
    dice: DiceSource,
    *,
    difficulty: Difficulty | str | None = None,
    tn: int | None = None,
    versus: int | None = None,
    variant: Variant | str = Variant.TWO_D6,
    kind: Kind | str = Kind.TASK,
    damage: int | None = None,
) -> HeroicRoll:
    """Roll a Heroic Roll and read it; a Fumbled attack then rolls the Combat Fumble d6 from ``dice``."""
    check_range("Skill", skill, 0, SKILL_MAX)
    variant, kind = Variant.parse(variant), Kind.parse(kind)
    target = resolve_target(variant, difficulty=difficulty, tn=tn, versus=versus)
    if damage is not None:
        check_range("Damage", damage, 0, DAMAGE_MAX)
        if kind is not Kind.ATTACK and not kind.is_reaction:
            raise InvalidInput("Damage counts only for an attack or a reaction, not for a task or a spell")
    count, sides = variant.dice
    rolled = roll_dice(dice, count, sides, Role.BASE)
    outcome = read_outcome(variant, sum(die.face for die in rolled), skill, target.tn)
    table = None
    if kind is Kind.ATTACK and outcome is Outcome.FUMBLE:
        table = Die(6, dice.roll(6), Role.FUMBLE_TABLE)
    consequence = consequence_of(kind, outcome, table.face if table else None)
    dealt, taken = _damage(kind, outcome, damage)
    half = Fraction(damage, 2) if damage is not None and consequence in _HALVING else None
    text = _describe(consequence, damage, dealt if kind is Kind.ATTACK else taken)
    return HeroicRoll(
        skill, variant, kind, target, rolled, outcome, table, consequence, text, damage, dealt, taken, half
    )
