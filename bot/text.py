"""Player text made inert before the bot shows it: what a player typed (a note, a task or a character's name)
must read as they typed it, never as the bot's own formatting, links or layout."""

from __future__ import annotations

import discord


def inert(text: str, limit: int | None = None) -> str:
    """text with every invisible or control character (bidi overrides such as U+202E, zero-width characters,
    line breaks) turned into a space, runs of spaces folded, cut to limit characters, and Markdown escaped, so
    that ``[Push here](https://evil.example)`` shows as typed instead of as a masked link, and ``**Success**``
    is not bold. (Escaping adds a backslash before each Markdown character: the result can be longer.)"""
    return discord.utils.escape_markdown(plain(text, limit))


NAME_SHOWN = 80
"""A player's display name is shown cut to this many characters (Discord allows 32 for a nickname, more for others)."""


def player_name(player: discord.abc.User) -> str:
    """A player's display name as a card or answer shows it: inert, and cut to NAME_SHOWN characters."""
    return inert(player.display_name, NAME_SHOWN)


def plain(text: str, limit: int | None = None) -> str:
    """text as `inert` makes it but without escaping Markdown: for places Discord shows as plain text (the
    choices of an autocomplete), where a backslash would show as typed."""
    visible = "".join(character if character.isprintable() else " " for character in str(text))
    tidy = " ".join(visible.split())
    if limit is not None and len(tidy) > limit:
        tidy = tidy[: limit - 1] + "…"
    return tidy
