"""Year Zero rolls, first and pushed, as embeds."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.render.common import Card, Colour, embed, plural, token, tokens
from bot.render.odds import yz_odds
from rules.dice import Die, Role
from rules.yearzero import ARTIFACT_NAMES, YzRoll, die_successes, is_bane
from rules.yearzero_odds import PushOdds, YzOdds

BANES_NOTE = "Banes (☠) do nothing on the first roll."


def pool_text(roll: YzRoll) -> str:
    parts = [f"Attribute {roll.attribute} + Skill {roll.skill}"]
    if roll.gear:
        parts.append(f"Gear {roll.gear}")
    parts.extend(f"d{sides} {ARTIFACT_NAMES[sides]}" for sides in roll.artifacts)
    return " + ".join(parts)


def _die(die: Die) -> str:
    """One die as shown: its face, ⚔ when it scores (×N for more than one success), ☠ for a bane."""
    label = f"d{die.sides}:" if die.role is Role.ARTIFACT else ""
    text = token(die, success=die_successes(die) > 0, bane=is_bane(die), label=label)
    if die_successes(die) > 1:
        text += f"×{die_successes(die)}"
    return text


def _faces_shown(sides: int, role: Role) -> tuple[str, ...]:
    return ("", *(_die(Die(sides, face, role)) for face in range(1, sides + 1)))


_SHOWN = {6: _faces_shown(6, Role.BASE), **{sides: _faces_shown(sides, Role.ARTIFACT) for sides in ARTIFACT_NAMES}}
"""Every face of every die as shown, by sides and then face: a d6 is a base or gear die (both show alike), the
others are Artifact dice. Rolls show the same few faces over and over, so they are written once here."""


def _shown(die: Die, rerolled: bool) -> str:
    """A die as shown; ↻ marks a die the push rerolled."""
    faces = _SHOWN.get(die.sides) if type(die.sides) is int else None
    text = faces[die.face] if faces is not None else _die(die)
    return f"↻{text}" if rerolled else text


def dice_line(roll: YzRoll) -> str:
    """Base, gear and Artifact dice in groups; ↻ marks a die the push rerolled."""
    rerolled = set(roll.rerolled)
    lines = []
    for name, positions in _groups(roll):
        parts = [_shown(roll.dice[i], i in rerolled) for i in positions]
        if parts:
            lines.append(f"{name}: {tokens(parts)}")
    return "\n".join(lines)


def _groups(roll: YzRoll) -> tuple[tuple[str, range], ...]:
    """Where each group lies in the roll's dice: base dice, then gear dice, then Artifact dice."""
    base = roll.attribute + roll.skill
    d6 = base + roll.gear
    return ("Base", range(base)), ("Gear", range(base, d6)), ("Artifact", range(d6, len(roll.dice)))


def _summary(roll: YzRoll) -> str:
    if not roll.success:
        return "No success"
    return plural(roll.successes, "success", "successes")


@dataclass(frozen=True, slots=True)
class FirstRollOdds:
    """What a first roll's Odds field shows: the pool's odds before rolling, and the odds of pushing this roll."""

    pool: YzOdds
    this_roll: PushOdds


def render_first(
    roll: YzRoll, odds: FirstRollOdds | None, *, roller: discord.abc.User | None = None, note: str | None = None
) -> discord.Embed:
    """A first roll: its dice, successes, and what a push would reroll."""
    if roll.can_push:
        details = f"Push to reroll {plural(len(roll.reroll_indices), 'die', 'dice')} (only the roller, once)."
    else:
        details = "Nothing to push: every die shows 6 or 1."
    if roll.base_banes or roll.gear_banes:
        details += f"\n{BANES_NOTE}"
    card = Card(
        f"Year Zero · {pool_text(roll)}",
        _summary(roll),
        Colour.SUCCESS if roll.success else Colour.FAILURE,
        [("Dice", dice_line(roll))],
        yz_odds(odds.pool, odds.this_roll) if odds is not None else None,
        details,
    )
    return embed(card, roller, note)


@dataclass(frozen=True, slots=True)
class PushedRoll:
    """A pushed roll and the roller's Willpower once its gain was counted: the points after, and those lost
    because Willpower never exceeds 10."""

    roll: YzRoll
    willpower_after: int
    lost: int


def render_pushed(
    push: PushedRoll, odds: YzOdds | None, *, roller: discord.abc.User | None = None, note: str | None = None
) -> discord.Embed:
    """A pushed roll: the first and pushed dice, damage, and the Willpower gained. The odds are the pool's."""
    pushed, willpower_after, lost = push.roll, push.willpower_after, push.lost
    first = pushed.first
    consequences = []
    if pushed.attribute_damage:
        consequences.append(f"☠ Attribute damage: **{pushed.attribute_damage}**")
    if pushed.gear_damage:
        consequences.append(f"☠ Gear bonus −{pushed.gear_damage}")
    gained = pushed.willpower_gained
    willpower = f"Willpower +{gained} (now {willpower_after})" if gained else f"Willpower {willpower_after}"
    if lost:
        willpower += f" — {plural(lost, 'point')} lost: Willpower never exceeds 10"
    consequences.append(willpower)
    fields = [("First roll", dice_line(first) if first else "—"), ("Pushed", dice_line(pushed))]
    card = Card(
        f"Year Zero · pushed · {pool_text(pushed)}",
        f"{_summary(pushed)} after the push",
        Colour.SUCCESS if pushed.success else Colour.FAILURE,
        fields,
        yz_odds(odds),
        "\n".join(consequences),
    )
    return embed(card, roller, note)
