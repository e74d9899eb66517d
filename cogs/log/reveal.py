"""The Reveal button of a private roll: its roller posts the same card publicly, exactly once.

The button's custom_id names the roll's log entry (``rk:reveal:<id>``); the entry keeps the card as it was sent,
so the revealed card shows the same dice, never a new roll. The reveal is claimed in the store by one
conditional UPDATE, so it happens once whatever clicks race, and it works after a restart (DynamicItem). Every
private roll's message gets the button from the logbook (bot/interactions/logbook.py); this feature takes its
clicks.
"""

from __future__ import annotations

import re
from datetime import datetime

import discord

from bot.errors import PlayerError
from bot.interactions.answers import send_first
from bot.interactions.language import player_speech
from bot.interactions.private_rolls import REVEAL_PATTERN, reveal_button
from bot.interactions.roller import only_its_roller
from bot.interactions.rollkeeper import rollkeeper
from bot.interactions.tree import reports_errors
from bot.storage.roll_log import LogEntry, RevealRefusal
from rules.language import ENGLISH, N_, Speech, speak

MAX_DESCRIPTION = 4096

REFUSED = {
    RevealRefusal.UNKNOWN: N_("I cannot find that roll any more; it may be older than the roll log keeps."),
    RevealRefusal.NOT_YOURS: N_("Only the player who rolled can reveal this roll."),
    RevealRefusal.NOT_PRIVATE: N_("This roll was not private: everyone saw it already."),
    RevealRefusal.ALREADY_REVEALED: N_("This roll has already been revealed."),
}
"""What a player is told when a Reveal is refused."""


def revealed_line(rolled_at: datetime, speech: Speech) -> str:
    """The mark on a revealed card: when it was rolled privately (Discord shows the time in each reader's zone)."""
    # Translators: {when} is a Discord timestamp, shown as a date and time in each reader's language.
    return speech._("*Rolled privately at {when}, revealed.*", when=f"<t:{int(rolled_at.timestamp())}:f>")


def revealed_card(entry: LogEntry, speech: Speech) -> discord.Embed:
    """The card of a private roll as it was sent, marked as revealed."""
    if entry.card is None:
        raise RuntimeError(f"log entry {entry.id} has no card to reveal")
    embed = discord.Embed.from_dict(entry.card)
    text = revealed_line(entry.created_at, speech)
    embed.description = f"{text}\n{embed.description}" if embed.description else text
    if len(embed.description) > MAX_DESCRIPTION:
        embed.description = embed.description[: MAX_DESCRIPTION - 1] + "…"
    embed.timestamp = entry.created_at
    return embed


class RevealButton(discord.ui.DynamicItem[discord.ui.Button], template=REVEAL_PATTERN):
    """The Reveal button of one private roll: only its roller may press it, and only once."""

    pattern = REVEAL_PATTERN
    """The template again, for the bot to tell clicks it takes from stale ones (see RollkeeperBot)."""

    def __init__(self, entry_id: int) -> None:
        super().__init__(reveal_button(entry_id, speak(ENGLISH)))  # only its callback is used: no label shown
        self.entry_id = entry_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> RevealButton:
        return cls(int(match["entry"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse anyone but the roller, privately, before anything is claimed."""
        entry_id = self.entry_id
        return await only_its_roller(interaction, lambda db: db.log.get(entry_id), REFUSED[RevealRefusal.NOT_YOURS])

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = rollkeeper(interaction)
        claim = await bot.db.log.claim_reveal(self.entry_id, interaction.user.id, bot.now())
        if claim.refusal is not None or claim.entry is None:
            raise PlayerError(REFUSED[claim.refusal or RevealRefusal.UNKNOWN])
        # the card speaks the language it was rolled in: its roller's, who reveals it
        await send_first(interaction, embed=revealed_card(claim.entry, player_speech(interaction)))
