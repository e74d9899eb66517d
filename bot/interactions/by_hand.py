"""Rolls made with physical dice: the ``faces`` option of every roll command, and how the card and the log say
that the dice were rolled by hand.

The faces are read exactly as the command line reads ``--faces`` (``rules.dice.roll_by_hand``): a wrong one is a
FacesError, which the tree answers privately before anything is stored. Everything else (the reading, the odds,
Willpower, luck) is what a bot roll of the same faces gives: only the dice source differs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

from bot.interactions.logbook import Rolled
from bot.render.common import EMBED_TOTAL, FOOTER, clip, shrink
from rules.dice import DiceSource, roll_by_hand
from rules.language import N_, Speech

T = TypeVar("T")

FACES_LENGTH = 200
Faces = app_commands.Range[str, 1, FACES_LENGTH]
"""The faces a player rolled by hand, e.g. ``6 3 1 4 2`` or ``6,3,1,4,2``: declare it ``faces: Faces | None = None``."""

# Translators: said on the card of a roll made with physical dice whose faces the player typed in.
BY_HAND = N_("🖐 Rolled by hand")
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


def rolled_with(faces: str | None, dice: DiceSource, roll: Callable[[DiceSource], T]) -> T:
    """``roll`` made with the bot's dice, or, when the player typed faces, with those faces (all of them used)."""
    return roll(dice) if faces is None else roll_by_hand(faces, roll)


def mark_card(embed: discord.Embed, speech: Speech) -> discord.Embed:
    """Say on the card, as the last line of its footer (below the odds), that the dice were rolled by hand."""
    mark = speech._(BY_HAND)
    odds = embed.footer.text
    room = FOOTER - len(mark) - 1
    embed.set_footer(text=f"{clip(odds, room)}\n{mark}" if odds else mark)
    return shrink(embed, speech) if len(embed) > EMBED_TOTAL else embed


def mark_log(rolled: Rolled) -> Rolled:
    """The log entry of a roll made by hand: flagged in its extras."""
    return dataclasses.replace(rolled, extras={**rolled.extras, LOG_FLAG: 1})


def by_hand(embed: discord.Embed, rolled: Rolled, speech: Speech, faces: str | None) -> tuple[discord.Embed, Rolled]:
    """The card and the log entry of a roll, both marked when the player typed its faces."""
    if faces is None:
        return embed, rolled
    return mark_card(embed, speech), mark_log(rolled)
