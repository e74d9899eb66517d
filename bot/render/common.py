"""Pieces every renderer uses: dice tokens, percentages, colours and the embed frame."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import discord

from bot.text import inert
from rules.dice import Die

SUCCESS_MARK = "⚔"
BANE_MARK = "☠"

# Discord's limits for one embed (the spec cannot express them; tests check them too).
EMBED_TOTAL = 6000
FIELD_VALUE = 1024
DESCRIPTION = 4096
TITLE = 256
MAX_FIELDS = 25
LEFT_OUT = "Some details were left out to fit Discord's limits."


class Colour:
    SUCCESS = discord.Colour(0x2E8B57)
    PARTIAL = discord.Colour(0xDAA520)
    FAILURE = discord.Colour(0xB22222)
    DISASTER = discord.Colour(0x5B0A0A)
    NEUTRAL = discord.Colour(0x5865F2)


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


def percent(value: Fraction) -> str:
    """A chance in whole percent, never rounding a possible outcome to 0% or an uncertain one to 100%."""
    if value <= 0:
        return "0%"
    if value >= 1:
        return "100%"
    shown = round(float(value) * 100)
    if shown == 0:
        return "<1%"
    if shown == 100:
        return ">99%"
    return f"{shown}%"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``plural(2, "success", "successes")`` -> "2 successes"."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Card:
    """What a roll shows: title, the bold outcome line, fields, odds line and colour."""

    title: str
    outcome: str
    colour: discord.Colour
    fields: Sequence[tuple[str, str]] = ()
    odds: str | None = None
    details: str | None = None


def embed(card: Card, roller: discord.abc.User | None = None, note: str | None = None) -> discord.Embed:
    """Build the embed of a card, keeping every part inside Discord's limits."""
    lines = []
    if note:
        lines.append(f"> {inert(note, 300)}")
    lines.append(f"**{card.outcome}**")
    if card.details:
        lines.append(card.details)
    title, description = clip(card.title, TITLE), clip("\n".join(lines), DESCRIPTION)
    result = discord.Embed(title=title, description=description, colour=card.colour)
    size = len(title) + len(description)  # what Discord counts against EMBED_TOTAL, as Embed.__len__ does
    if roller is not None:
        author = clip(roller.display_name, 256)
        result.set_author(name=author, icon_url=roller.display_avatar.url)
        size += len(author)
    room = MAX_FIELDS - (1 if card.odds else 0)
    fields = [(clip(name, 256), clip(value, FIELD_VALUE)) for name, value in card.fields[:room]]
    if card.odds:
        fields.append(("Odds", clip(card.odds, FIELD_VALUE)))
    for name, value in fields:
        result.add_field(name=name, value=value, inline=False)
        size += len(name) + len(value)
    if len(card.fields) > room:
        result.set_footer(text=LEFT_OUT)
        size += len(LEFT_OUT)
    return shrink(result) if size > EMBED_TOTAL else result


def shrink(result: discord.Embed) -> discord.Embed:
    """Drop fields from the end (saying so) until the embed fits Discord's 6000-character total."""
    while len(result) > EMBED_TOTAL and result.fields:
        result.remove_field(len(result.fields) - 1)
        result.set_footer(text=LEFT_OUT)
    return result
