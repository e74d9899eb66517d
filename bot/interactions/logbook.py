"""The one call a roll command makes to answer: log the roll, give a private roll its Reveal button, send.

Every roll of every system goes through `answer_roll` or `deliver_roll`, logged once under its interaction's id
(a repeated delivery logs nothing more): the log entry is written first (one INSERT, which for a
pushable Year Zero roll also stores the roll itself), so the buttons can name it; then the card is sent. A
Year Zero push updates its entry with `record_push`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import discord

from bot.interactions.answers import answer, send_first
from bot.interactions.places import answers_forced_private, place_channel
from bot.interactions.private_rolls import Buttons, roll_view
from bot.interactions.rollkeeper import rollkeeper
from bot.storage.errors import StorageBusy
from bot.storage.roll_log import NewEntry
from rules.language import Speech
from rules.luck import LuckEvent

T = TypeVar("T")

_log = logging.getLogger(__name__)
LATE_LOG_TRIES = 3
"""How often a log write made after the answer is tried while the database stays busy (each try waits for the lock
up to the store's busy timeout), LATE_LOG_PAUSE seconds apart: the player has their roll, and the log should too."""
LATE_LOG_PAUSE = 1.0


@dataclass(frozen=True, slots=True)
class Rolled:
    """What the log keeps of a roll besides its card: its system and kind, luck events and extra figures."""

    system: str
    kind: str
    events: tuple[LuckEvent, ...] = ()
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def events_text(self) -> str:
        return " ".join(event.as_text() for event in self.events)


def reading_of(embed: discord.Embed) -> str:
    """The card's short reading for the log: its title (the outcome) and the line below it (system and pool),
    unless that line is the player's note."""
    below = (embed.description or "").split("\n", 1)[0]
    parts = [part for part in (embed.title, below) if part and not part.startswith(">")]
    return " — ".join(parts)


def card_of(embed: discord.Embed) -> dict[str, Any]:
    """The card as sent, as the log keeps it for Reveal."""
    return dict(embed.to_dict())


def new_entry(interaction: discord.Interaction, embed: discord.Embed, rolled: Rolled, private: bool) -> NewEntry:
    """What the log keeps of a roll (a pushable Year Zero roll's is stored with the roll: rolls.create_superseding).
    A public roll that Discord shows to its player only (places.answers_forced_private) is logged as private: the
    table never saw it, so /log show lists it to its roller alone."""
    guild_id, channel_id = place_channel(interaction)
    private = private or answers_forced_private(interaction)
    return NewEntry(
        guild_id, channel_id, interaction.user.id, rolled.system, rolled.kind, reading_of(embed),
        rolled.events_text, rolled.extras, private, card_of(embed) if private else None,
    )


async def answer_roll(
    interaction: discord.Interaction, embed: discord.Embed, rolled: Rolled, *, private: bool, speech: Speech
) -> None:
    """Send a roll's card and log it. A private roll is logged first, for its Reveal button to name the entry;
    a public one once answered, so that its answer waits for no write. speech is the card's (its buttons')."""
    bot = rollkeeper(interaction)
    entry, now = new_entry(interaction, embed, rolled, private), bot.now()
    if not private:
        await send_first(interaction, embed=embed)
        await _logged_late(partial(bot.db.log.write, entry, now, interaction_id=interaction.id))
        return
    entry_id = await bot.db.log.write(entry, now, interaction_id=interaction.id)
    await interaction.response.send_message(embed=embed, ephemeral=True, **_with(roll_view(entry_id, True, speech)))


async def deliver_roll(
    interaction: discord.Interaction, embed: discord.Embed, rolled: Rolled, *, private: bool, speech: Speech,
    entry_id: int | None = None, buttons: Buttons | None = None, logged: bool = False,
) -> discord.InteractionMessage | None:
    """For a command whose change is stored (answers.py): answer it with the roll's card (in the first callback,
    or filled in when it was acknowledged meanwhile) and log the roll; the message, or None if it never arrived.
    A pushable Year Zero roll passes its stored id as entry_id, logged=True (its entry was stored with it, under
    the same id) and its own buttons; a private roll gets Reveal. A private roll is logged before it is shown (the
    button names the entry), a public one once shown; a roll never shown is not logged."""
    bot = rollkeeper(interaction)
    entry, now = (new_entry(interaction, embed, rolled, private) if not logged else None), bot.now()
    if entry is not None and private:
        entry_id = await bot.db.log.write(entry, now, entry_id=entry_id, interaction_id=interaction.id)
    view = roll_view(entry_id, private, speech, buttons) if entry_id is not None else None
    shown = await answer(interaction, "a roll", ephemeral=private, embed=embed, **_with(view))
    if shown is None:  # never shown: not logged either (the stored roll's own entry goes with it)
        if private and entry is not None and entry_id is not None:
            await bot.db.log.withdraw(entry_id)
        return None
    if entry is not None and not private:
        await _logged_late(partial(bot.db.log.write, entry, now, entry_id=entry_id, interaction_id=interaction.id))
    return shown


def _with(view: discord.ui.View | None) -> dict[str, Any]:
    return {"view": view} if view is not None else {}


async def _logged_late(write: Callable[[], Awaitable[T]]) -> T | None:
    """A log write made after the answer, tried again while the database is busy (each write is once-only: a
    repeat changes nothing); past LATE_LOG_TRIES it is logged, not told to a player who has their roll."""
    for attempt in range(1, LATE_LOG_TRIES + 1):
        try:
            return await write()
        except StorageBusy:
            if attempt == LATE_LOG_TRIES:
                _log.warning("A roll was answered but not logged: the database stayed busy %d times", attempt)
                return None
            await asyncio.sleep(LATE_LOG_PAUSE)
    return None


async def record_push(
    interaction: discord.Interaction, entry_id: int, pushes: int, embed: discord.Embed, rolled: Rolled,
    private: bool,
) -> None:
    """Log push number `pushes` of a Year Zero roll on its entry, once (a repeated delivery changes nothing): the
    pushed card (kept for Reveal when private), its luck events, the push and the Willpower it gained."""
    card = card_of(embed) if private else None
    log = rollkeeper(interaction).db.log
    await _logged_late(partial(log.record_push, entry_id, pushes, reading_of(embed), rolled.events_text, rolled.extras,
                               card))
