"""The mark on the card of a roll made with physical dice: "🖐 Rolled by hand", the footer's last line (below the
odds, which are the same as for the bot's roll of the same faces)."""

from __future__ import annotations

import discord

from bot.render.common import EMBED_TOTAL, FOOTER, clip, shrink
from rules.language import N_, Speech

# Translators: said on the card of a roll made with physical dice whose faces the player typed in.
BY_HAND = N_("🖐 Rolled by hand")


def mark_card(embed: discord.Embed, speech: Speech) -> discord.Embed:
    """Say on the card, as the last line of its footer (below the odds), that the dice were rolled by hand."""
    mark = speech._(BY_HAND)
    odds = embed.footer.text
    room = FOOTER - len(mark) - 1
    embed.set_footer(text=f"{clip(odds, room)}\n{mark}" if odds else mark)
    return shrink(embed, speech) if len(embed) > EMBED_TOTAL else embed
