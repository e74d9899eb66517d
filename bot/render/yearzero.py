"""Year Zero rolls, first and pushed, as embeds."""

from __future__ import annotations

import discord

from bot.render.common import Card, Colour, embed, percent, plural, token, tokens
from rules.dice import Die, Role
from rules.yearzero import YzRoll, die_successes, is_bane
from rules.yearzero_odds import PushOdds, YzOdds

_ARTIFACT_NAMES = {8: "Mighty", 10: "Epic", 12: "Legendary"}
BANES_NOTE = "Banes (☠) do nothing on the first roll."


def pool_text(roll: YzRoll) -> str:
    parts = [f"Attribute {roll.attribute} + Skill {roll.skill}"]
    if roll.gear:
        parts.append(f"Gear {roll.gear}")
    parts.extend(f"d{sides} {_ARTIFACT_NAMES[sides]}" for sides in roll.artifacts)
    return " + ".join(parts)


def _die(die: Die, rerolled: bool) -> str:
    label = f"d{die.sides}:" if die.role is Role.ARTIFACT else ""
    text = token(die, success=die_successes(die) > 0, bane=is_bane(die), label=label)
    if die_successes(die) > 1:
        text += f"×{die_successes(die)}"
    return f"↻{text}" if rerolled else text


def dice_line(roll: YzRoll) -> str:
    """Base, gear and Artifact dice in groups; ↻ marks a die the push rerolled."""
    rerolled = set(roll.rerolled)
    groups = {Role.BASE: "Base", Role.GEAR: "Gear", Role.ARTIFACT: "Artifact"}
    lines = []
    for role, name in groups.items():
        parts = [_die(die, i in rerolled) for i, die in enumerate(roll.dice) if die.role is role]
        if parts:
            lines.append(f"{name}: {tokens(parts)}")
    return "\n".join(lines)


def _summary(roll: YzRoll) -> str:
    if not roll.success:
        return "No success"
    return plural(roll.successes, "success", "successes")


def odds_line(before: YzOdds, this_roll: PushOdds | None = None) -> str:
    first, pushed = percent(before.success_first_roll), percent(before.success_after_push)
    text = f"Chance: {first} · after a push: {pushed}"
    if this_roll is not None and this_roll.can_push:
        text += f"\nPushing this roll: {percent(this_roll.success_after_push)} to succeed"
        text += f", {float(this_roll.expected_willpower):.1f} WP expected"
    return text


def render_first(roll: YzRoll, odds: str, roller=None, note=None) -> discord.Embed:
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
        odds,
        details,
    )
    return embed(card, roller, note)


def render_pushed(pushed: YzRoll, willpower_after: int, lost: int, odds: str, roller=None,
                  note=None) -> discord.Embed:
    """A pushed roll: the first and pushed dice, damage, and the Willpower gained."""
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
        odds,
        "\n".join(consequences),
    )
    return embed(card, roller, note)
