"""The card of a Forbidden Lands resource roll (RULES.md section 7): what became of the resource in the title, the
die's face (a 1 or 2 marked as the bane that steps it down), the rating before → after, and in the footer the
exact chance of stepping down and the rolls expected before the resource runs out."""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.render.common import Card, Tones, embed, token
from rules import odds_text
from rules.language import N_, Speech
from rules.yearzero.resources import NONE, Resource, ResourceRoll

# Translators: Forbidden Lands' four resources (the published edition's words: see the glossary).
RESOURCE_NAMES = {Resource.FOOD: N_("Food"), Resource.WATER: N_("Water"), Resource.ARROWS: N_("Arrows"),
                  Resource.TORCHES: N_("Torches")}
# Translators: a resource's die, {sides} its number of sides (D6 to D12; the letter as your edition writes dice).
DIE = N_("D{sides}")
# Translators: a resource rating: nothing left (or never had any).
NO_DIE = N_("none")


def rating_text(rating: int, speech: Speech) -> str:
    """A rating as a player reads it: D6 to D12, or none."""
    return speech._(NO_DIE) if rating == NONE else speech._(DIE, sides=rating)


def render_resource(
    roll: ResourceRoll, odds: Fraction, *, speech: Speech, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """A resource roll; odds is the chance the die had of stepping down (2/n)."""
    name, before, after = speech._(RESOURCE_NAMES[roll.resource]), roll.before, roll.after
    if roll.ran_out:
        # Translators: a resource card's title; {resource} is Food, Water, Arrows or Torches.
        outcome, tone = speech._("{resource} ran out", resource=name), Tones.DISASTER
    elif roll.stepped_down:
        outcome = speech._("{resource} steps down · {rating}", resource=name, rating=rating_text(after, speech))
        tone = Tones.FAILURE
    else:
        outcome = speech._("{resource} holds · {rating}", resource=name, rating=rating_text(after, speech))
        tone = Tones.SUCCESS
    card = Card(
        outcome, tone,
        # Translators: a resource card's first line: "Resource die · Food · D8".
        speech._("Resource die · {resource} · {rating}", resource=name, rating=rating_text(before, speech)),
        fields=[(speech._("Dice"), token(roll.die, bane=roll.stepped_down))],
        odds=odds_text.resource_line(odds, before, roll.expected_rolls_left, speech),
        details=f"{rating_text(before, speech)} → **{rating_text(after, speech)}**",
    )
    return embed(card, speech, roller, note)
