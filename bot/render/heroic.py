"""Heroic Rolls as embeds."""

from __future__ import annotations

import discord

from bot.render.common import Card, Colour, embed, token, tokens
from bot.render.odds import heroic_odds
from rules.heroic import HeroicRoll, Outcome, TargetSource
from rules.heroic_odds import HeroicOdds

_OUTCOME = {
    Outcome.CRIT: ("Critical success!", Colour.SUCCESS),
    Outcome.SUCCESS: ("Success", Colour.SUCCESS),
    Outcome.SUCCESS_WITH_COMPLICATION: ("Success, with a complication", Colour.PARTIAL),
    Outcome.FAILURE: ("Failure", Colour.FAILURE),
    Outcome.FUMBLE: ("Fumble!", Colour.DISASTER),
}


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


def render_roll(
    roll: HeroicRoll, odds: HeroicOdds | None, *, roller: discord.abc.User | None = None, note: str | None = None
) -> discord.Embed:
    """A Heroic Roll: the dice and total against the TN, the outcome and what a Crit or Fumble brings."""
    outcome, colour = _OUTCOME[roll.outcome]
    faces = tokens(token(die) for die in roll.dice)
    dice = f"{faces} + Skill {roll.skill} = **{roll.total}** vs {target_text(roll)}"
    details = []
    if roll.consequence_text:
        details.append(roll.consequence_text)
    if roll.fumble_table is not None:
        details.append(f"Combat Fumble table: {token(roll.fumble_table)}")
    if roll.damage_dealt is not None:
        details.append(f"Damage dealt: **{roll.damage_dealt}** (damage {roll.damage})")
    if roll.damage_taken is not None:
        details.append(f"Damage taken: **{roll.damage_taken}** (damage {roll.damage})")
    card = Card(
        f"Heroic Roll · {roll.variant.value} + Skill {roll.skill} · {_kind_text(roll)}",
        outcome,
        colour,
        [("Dice", dice)],
        heroic_odds(odds),
        "\n".join(details) or None,
    )
    return embed(card, roller, note)
