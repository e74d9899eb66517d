"""Pieces every renderer uses: dice tokens, outcome tones, and the embed frame.

A card reads outcome first: the title is a symbol that does not depend on colour and the outcome in words; the
description's first line says which system and pool; then the player's note, inert, and the details; the dice
go in fields and the odds in the footer. Discord already shows who used the command, so there is no author line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord

from bot.text import inert
from rules.dice import Die
from rules.language import N_, Speech

SUCCESS_MARK = "⚔"
BANE_MARK = "☠"
COMPLICATION_MARK = "⚠"
"""The Seven Kingdoms 1 that brings a complication (its cards and the help's symbols page)."""

# Discord's limits for one embed (the spec cannot express them; tests check them too).
EMBED_TOTAL = 6000
FIELD_VALUE = 1024
DESCRIPTION = 4096
TITLE = 256
FOOTER = 2048
MAX_FIELDS = 25
LEFT_OUT = N_("Some details were left out to fit Discord's limits.")

# Discord's embed backgrounds: every tone's colour contrasts at least 3:1 with both (tests check it).
DARK_EMBED = 0x2B2D31
LIGHT_EMBED = 0xF2F3F5


@dataclass(frozen=True)
class Tone:
    """How an outcome looks: a symbol that reads without colour, and a colour that reads on both themes."""

    symbol: str
    colour: discord.Colour


class Tones:
    SUCCESS = Tone("✅", discord.Colour(0x1F9D55))
    CRIT = Tone("⭐", discord.Colour(0x1F9D55))
    PARTIAL = Tone("⚠️", discord.Colour(0xC27C0E))
    FAILURE = Tone("❌", discord.Colour(0xE5484D))
    DISASTER = Tone("💀", discord.Colour(0xA855F7))  # Mishap, loss of control, fumble, critical failure
    TIE = Tone("⚖️", discord.Colour(0xC27C0E))
    WINNER = Tone("🏆", discord.Colour(0x5C7CFA))
    NEUTRAL = Tone("🎲", discord.Colour(0x5C7CFA))
    PROGRESS = Tone("📋", discord.Colour(0x5C7CFA))

    @classmethod
    def all(cls) -> tuple[Tone, ...]:
        return tuple(value for value in vars(cls).values() if isinstance(value, Tone))


def token(die: Die | int, *, success: bool = False, bane: bool = False, struck: bool = False,
          label: str = "") -> str:
    """One die as text: `6`⚔ for a success, `1`☠ for a bane, ~~`6`~~ when discarded."""
    face = die.face if isinstance(die, Die) else die
    text = f"`{label}{face}`"
    if struck:
        text = f"~~{text}~~"
    if success:
        text += SUCCESS_MARK
    if bane:
        text += BANE_MARK
    return text


def tokens(parts: Iterable[str]) -> str:
    return " ".join(parts) or "—"


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Card:
    """What a roll shows: the outcome and its tone, the system and pool below, fields, odds and details."""

    outcome: str
    tone: Tone
    pool: str
    fields: Sequence[tuple[str, str]] = ()
    odds: str | None = None
    details: str | None = None

    @property
    def title(self) -> str:
        return f"{self.tone.symbol} {self.outcome}"


def embed(card: Card, speech: Speech, roller: discord.abc.User | None = None, note: str | None = None
          ) -> discord.Embed:
    """Build the embed of a card, keeping every part inside Discord's limits. The roller is not shown: Discord
    shows who used the command above the card."""
    lines = [card.pool]
    if note:
        lines.append(f"> {inert(note, 300)}")
    if card.details:
        lines.append(card.details)
    title, description = clip(card.title, TITLE), clip("\n".join(lines), DESCRIPTION)
    result = discord.Embed(title=title, description=description, colour=card.tone.colour)
    fields = [(clip(name, 256), clip(value, FIELD_VALUE)) for name, value in card.fields[:MAX_FIELDS]]
    for name, value in fields:
        result.add_field(name=name, value=value, inline=False)
    footer = [card.odds] if card.odds else []
    if len(card.fields) > MAX_FIELDS:
        footer.append(speech._(LEFT_OUT))
    if footer:
        result.set_footer(text=clip("\n".join(footer), FOOTER))
    size = len(title) + len(description) + sum(len(n) + len(v) for n, v in fields) + len(result.footer.text or "")
    return shrink(result, speech) if size > EMBED_TOTAL else result  # counted as Embed.__len__ does, without its walk


def shrink(result: discord.Embed, speech: Speech) -> discord.Embed:
    """Drop fields from the end (saying so in the footer) until the embed fits Discord's 6000 characters."""
    odds = result.footer.text or ""
    left_out = speech._(LEFT_OUT)
    while len(result) > EMBED_TOTAL and result.fields:
        result.remove_field(len(result.fields) - 1)
        kept = odds if odds.endswith(left_out) else "\n".join(filter(None, [odds, left_out]))
        result.set_footer(text=clip(kept, FOOTER))
    return result
