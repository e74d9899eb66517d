"""Rolls made with physical dice: the ``faces`` option of every roll command, and how the card and the log say
that the dice were rolled by hand (the card's mark is bot/render/by_hand.py's).

The faces are read exactly as the command line reads ``--faces`` (``rules.dice.rolled_with``): a wrong one is a
FacesError, which the tree answers privately before anything is stored. Everything else (the reading, the odds,
Willpower, luck) is what a bot roll of the same faces gives: only the dice source differs.
"""

from __future__ import annotations

import dataclasses

import discord
from discord import app_commands

from bot.interactions.logbook import Rolled
from bot.render.by_hand import mark_card
from rules.language import N_, Speech

FACES_LENGTH = 200
Faces = app_commands.Range[str, 1, FACES_LENGTH]
"""The faces a player rolled by hand, e.g. ``6 3 1 4 2`` or ``6,3,1,4,2``: declare it ``faces: Faces | None = None``."""

LOG_FLAG = "by_hand"
"""The log entry's extra that marks a roll made by hand (1)."""

# Translators: option descriptions (at most 100 characters): the order in which to type the faces of real dice.
YZ_FACES = N_("Dice rolled by hand, in order: base, gear, Artifact, Pride (e.g. 6 3 1 4)")
HEX_FACES = N_("Dice rolled by hand: the Hazard Dice first, then the rest of the pool (e.g. 6 3 1 4)")
HEX_CONTEST_FACES = N_("Dice rolled by hand: your pool (Hazard Dice first), then the opposing pool likewise")
HEX_CAST_FACES = N_("Dice rolled by hand: Affinity die, Control dice, the rest; then any opposing pool")
HEX_PLAIN_FACES = N_("Dice rolled by hand, in any order (e.g. 6 3 1 4)")
HEROIC_FACES = N_("Dice rolled by hand: the roll's dice (e.g. 6 3), then the Fumble d6 if an attack fumbles")
SK_FACES = N_("Dice rolled by hand: the test dice, then the bonus dice, the aid die last (e.g. 6 3 1)")
SK_COMPETITION_FACES = N_("Dice rolled by hand: each participant in the order named, test dice then bonus dice")


def mark_log(rolled: Rolled) -> Rolled:
    """The log entry of a roll made by hand: flagged in its extras."""
    return dataclasses.replace(rolled, extras={**rolled.extras, LOG_FLAG: 1})


def by_hand(embed: discord.Embed, rolled: Rolled, speech: Speech, faces: str | None) -> tuple[discord.Embed, Rolled]:
    """The card and the log entry of a roll, both marked when the player typed its faces."""
    if faces is None:
        return embed, rolled
    return mark_card(embed, speech), mark_log(rolled)
