"""What a roll's message carries besides its card: its own buttons, and for a private roll the Reveal button.

The Reveal button's custom_id names the roll's log entry (``rk:reveal:<id>``); the log feature
(cogs/log/reveal.py) registers the DynamicItem that takes its clicks, so a message keeps it whoever draws it: the
logbook when the roll is answered, a Year Zero ending when its message is redrawn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.storage.roll_log import LogEntry
from rules.language import Speech

Buttons = Callable[[int, Speech], Sequence[discord.ui.Item[Any]]]
"""A roll's own buttons, by its id and the language of its card."""
"""A roll's own buttons (Year Zero: Push and Keep), given the id they name."""

REVEAL_PATTERN = re.compile(r"rk:reveal:(?P<entry>[0-9]{1,19})")


def roll_view(entry_id: int, private: bool, speech: Speech, buttons: Buttons | None = None) -> discord.ui.View | None:
    """The buttons of a roll's message (its own, then Reveal when private), or None when it has none.

    Clicks are taken by the DynamicItems registered at start-up, so the view is stopped at once."""
    items = list(buttons(entry_id, speech)) if buttons else []
    if private:
        items.append(reveal_button(entry_id, speech))
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def reveal_button(entry_id: int, speech: Speech) -> discord.ui.Button[discord.ui.View]:
    """The Reveal button of a private roll, naming its log entry (REVEAL_PATTERN)."""
    return discord.ui.Button(
        # Translators: a button label (at most 80 characters): shows a private roll to the whole channel.
        label=speech._("Reveal"), emoji="👁️", style=discord.ButtonStyle.secondary, custom_id=f"rk:reveal:{entry_id}"
    )


def _buttons(message: discord.Message) -> list[discord.Button]:
    rows = [row for row in message.components if isinstance(row, discord.ActionRow)]
    return [item for row in rows for item in row.children if isinstance(item, discord.Button)]


def reveal_on(message: discord.Message | None) -> int | None:
    """The log entry that a message's Reveal button names, or None when the message carries no Reveal button."""
    for button in _buttons(message) if message is not None else []:
        found = REVEAL_PATTERN.fullmatch(button.custom_id or "")
        if found is not None:
            return int(found["entry"])
    return None


def still_to_reveal(entry: LogEntry | None) -> bool:
    """True while a logged roll can still be revealed: it is kept, private and not revealed yet."""
    return entry is not None and entry.private and entry.revealed_at is None
