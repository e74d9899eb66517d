"""Heroic Rolls as embeds.

A Crit or Fumble is named once, in the title with what it brings ("Fumble · drops the weapon"); the details give
the table entry first and the damage once; the die that made it is marked where the dice are shown.
"""

from __future__ import annotations

import discord

from bot.render.common import Card, Tone, Tones, embed, token, tokens
from rules import odds_text
from rules.heroic.odds import HeroicOdds
from rules.heroic.roll import Consequence, HeroicRoll, Outcome, TargetSource

_OUTCOME = {
    Outcome.CRIT: ("Critical success", Tones.CRIT),
    Outcome.SUCCESS: ("Success", Tones.SUCCESS),
    Outcome.SUCCESS_WITH_COMPLICATION: ("Success, with a complication", Tones.PARTIAL),
    Outcome.FAILURE: ("Failure", Tones.FAILURE),
    Outcome.FUMBLE: ("Fumble", Tones.DISASTER),
}

_HEADLINE = {
    Consequence.DOUBLE_DAMAGE: "double damage",
    Consequence.FREE_ACTION: "one free action",
    Consequence.CRITICAL_DAMAGE: "critical damage (double)",
    Consequence.FALLS_OVER: "falls over",
    Consequence.DROPS_WEAPON: "drops the weapon",
    Consequence.INJURES_ALLY: "injures an ally",
    Consequence.INJURES_SELF: "injures themself",
    Consequence.SPELL_MISCAST: "roll on the Spell Miscast Table",
}


def heroic_odds(odds: HeroicOdds | None) -> str | None:
    return None if odds is None else odds_text.heroic_line(odds)


def target_text(roll: HeroicRoll) -> str:
    target = roll.target
    if target.source is TargetSource.DIFFICULTY and target.difficulty is not None:
        return f"TN {target.tn} ({target.difficulty.label})"
    if target.source is TargetSource.VERSUS:
        return f"TN {target.tn} ({roll.variant.versus_base} + opposing Skill {target.versus})"
    return f"TN {target.tn}"


def _kind_text(roll: HeroicRoll) -> str:
    reaction = roll.kind.reaction
    if reaction is not None:
        return f"reaction: {reaction.name}" + (f" ({reaction.skill})" if reaction.skill else "")
    return roll.kind.value.replace("_", " ")


def _outcome(roll: HeroicRoll) -> tuple[str, Tone]:
    outcome, tone = _OUTCOME[roll.outcome]
    if roll.consequence is not None:
        outcome += f" · {_HEADLINE[roll.consequence]}"
    return outcome, tone


def _dice(roll: HeroicRoll) -> str:
    """The dice, those that made a Crit (⭐) or Fumble (💀) marked, the total against the TN."""
    mark = {Outcome.CRIT: "⭐", Outcome.FUMBLE: "💀"}.get(roll.outcome, "")
    faces = tokens(token(die) + mark for die in roll.dice)
    return f"{faces} + Skill {roll.skill} = **{roll.total}** vs TN {roll.tn}"


def _consequence(roll: HeroicRoll) -> str | None:
    """A Combat Fumble's full table entry, its d6 first; other Crits and Fumbles say all in the title."""
    if roll.consequence is None or roll.fumble_table is None:
        return None
    entry = roll.consequence.text.split(": ", 1)[-1]
    return f"Combat Fumble table {token(roll.fumble_table)}: {entry}"


def _damage(roll: HeroicRoll) -> str | None:
    """The damage once: half of it for a Combat Fumble entry, doubled for a Crit or critical damage."""
    if roll.half_damage is not None:
        half = roll.half_damage
        shown = int(half) if half.denominator == 1 else float(half)
        return f"Half damage **{shown}** (half of {roll.damage})"
    doubled = roll.consequence in (Consequence.DOUBLE_DAMAGE, Consequence.CRITICAL_DAMAGE)
    how = f" (2 × {roll.damage})" if doubled else ""
    if roll.damage_dealt:
        return f"Damage dealt **{roll.damage_dealt}**{how}"
    if roll.damage_taken is not None:
        return f"Damage taken **{roll.damage_taken}**{how}"
    return None


def render_roll(
    roll: HeroicRoll, odds: HeroicOdds | None, *, roller: discord.abc.User | None = None, note: str | None = None
) -> discord.Embed:
    """A Heroic Roll: the outcome and what a Crit or Fumble brings, the dice and total against the TN."""
    outcome, tone = _outcome(roll)
    details = [line for line in (_consequence(roll), _damage(roll)) if line]
    card = Card(
        outcome,
        tone,
        f"Heroic · {roll.variant.value} + Skill {roll.skill} · {_kind_text(roll)} · {target_text(roll)}",
        [("Dice", _dice(roll))],
        heroic_odds(odds),
        "\n".join(details) or None,
    )
    return embed(card, roller, note)
