"""Acknowledge first, change the store, then answer: what a player is told is what is stored.

A change (a roll, a push, a Willpower spend, an extended test's progress) is committed only once Discord has
acknowledged the interaction: the player then sees "thinking..." (or nothing, for a click) and the bot has 15
minutes to fill in the answer instead of 3 seconds. If the acknowledgement fails, nothing is changed (Discord
shows the player that the interaction failed, which is true). The answer after the commit is retried through
transient faults (a reset, a 5xx: discord.py itself waits out 429s), so a change is not left unshown because
one request failed. A command's answer that still seems lost is looked for before anything is undone (Discord
may have taken an edit whose reply was lost: `fill_in`). What cannot be shown is withdrawn - a roll, a Willpower
spend or set, an extended test's degrees (`withdraw`) - or, for a push, shown on the roll's own message or on the
roller's next click.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

from bot.interactions.language import player_speech
from rules.language import N_

_log = logging.getLogger(__name__)

ALREADY_ACKNOWLEDGED = 40060
"""Discord's error code for a second acknowledgement of one interaction."""

ANSWER_ATTEMPTS = 4
ANSWER_BACKOFF = 0.5
"""Seconds before the second attempt at an answer; doubled for each one after."""

NOT_SHOWN = N_("Discord lost this answer on its way to you, so nothing was changed. Try again.")
"""Put in place of an answer whose change was withdrawn, if Discord takes anything at all by then."""

T = TypeVar("T")
Withdrawal = Callable[[], Awaitable[bool]]
"""Takes a change back; False when it must stay (a later change was shown counting it)."""


_UPDATES = (discord.InteractionType.component, discord.InteractionType.modal_submit)


class NotAcknowledged(Exception):  # noqa: N818 - the name says what happened
    """Discord did not take the acknowledgement: the interaction is lost, and nothing was changed for it."""


async def acknowledge(interaction: discord.Interaction, *, ephemeral: bool = False) -> bool:
    """Defer the interaction (a click, or a modal's submission: a silent deferred update; a command: "thinking...",
    ephemeral if asked).
    True when this delivery acknowledged it, False for a repeat that found it acknowledged already.

    A repeat delivery finds it acknowledged by the first (Discord's 40060) and carries on: the store answers the
    repeat from what the first applied (what the store does not keep, the caller must not redo: see /yz). A reset
    connection is tried once more, since Discord may have taken the first try. Raises NotAcknowledged when
    Discord refused or could not be reached."""
    if interaction.response.is_done():
        return True
    for attempt in (1, 2):
        try:
            if interaction.type in _UPDATES:  # a click, or a modal a click opened: its message is updated
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            return True
        except discord.HTTPException as failure:
            if failure.code == ALREADY_ACKNOWLEDGED:
                return False
            raise NotAcknowledged(str(failure)) from failure
        except (TimeoutError, aiohttp.ClientError, OSError) as failure:
            if attempt == 2:
                raise NotAcknowledged(repr(failure)) from failure
            _log.info("Acknowledging interaction %s failed (%r); trying once more", interaction.id, failure)
    raise AssertionError("unreachable: the second attempt returns or raises")


async def deliver(send: Callable[[], Awaitable[T]], what: str) -> T | None:
    """Send an answer whose change is already stored, retrying transient failures; None if it never arrived
    (logged). A 4xx other than a rate limit is not retried: Discord will not take that body or token."""
    delay = ANSWER_BACKOFF
    for attempt in range(1, ANSWER_ATTEMPTS + 1):
        try:
            return await send()
        except discord.HTTPException as failure:
            if failure.status < 500 and failure.status != 429:
                _log.warning("Discord refused the answer to %s: %s", what, failure)
                return None
            problem: object = failure
        except (TimeoutError, aiohttp.ClientError, OSError) as failure:
            problem = failure
        if attempt < ANSWER_ATTEMPTS:
            _log.info("Answer to %s failed (%r); retrying in %.1f s", what, problem, delay)
            await asyncio.sleep(delay)
            delay *= 2
    _log.warning("Could not deliver the answer to %s after %d attempts", what, ANSWER_ATTEMPTS)
    return None


async def fill_in(interaction: discord.Interaction, what: str, **fields: Any) -> discord.InteractionMessage | None:
    """Fill in the answer of a command acknowledged with "thinking..." (its original response), retried as
    `deliver` does; the message, or None if it never arrived. When every try seemed to fail, Discord is asked
    whether one arrived after all (it may take an edit whose reply is lost): it did once the original no longer
    shows "thinking...". A repeat delivery's answer, the same one, counts too."""
    answer = await deliver(lambda: interaction.edit_original_response(**fields), what)
    return answer if answer is not None else await _arrived(interaction, what)


async def _arrived(interaction: discord.Interaction, what: str) -> discord.InteractionMessage | None:
    try:
        original = await interaction.original_response()  # asked once: discord.py caches what it returns
    except (discord.HTTPException, TimeoutError, aiohttp.ClientError, OSError) as failure:
        _log.warning("Could not ask Discord whether the answer to %s arrived (%r): taken as lost", what, failure)
        return None
    if original.flags.loading:
        return None
    _log.info("The answer to %s arrived after all (its reply was lost)", what)
    return original


async def withdraw(interaction: discord.Interaction, what: str, take_back: Withdrawal) -> bool:
    """The answer to a change never reached the player: take the change back and, if Discord takes anything by
    now, put NOT_SHOWN in the answer's place. False when the change stays, for a later answer showed a total
    counting it (then the player is not told it was undone)."""
    if not await take_back():
        _log.warning("The answer to %s was lost, but its change stays: a later change counts it", what)
        return False
    _log.warning("The answer to %s was lost: its change is withdrawn", what)
    shown = player_speech(interaction)._(NOT_SHOWN)
    await deliver(lambda: interaction.edit_original_response(content=shown, embed=None, view=None), what)
    return True


async def answer_or_withdraw(
    interaction: discord.Interaction, what: str, take_back: Withdrawal, **fields: Any
) -> bool:
    """Fill in the answer of a command whose change is stored (`fill_in`); if it never arrives, withdraw the
    change (`withdraw`), or, when the change must stay, try its answer once more. True when the answer is shown."""
    if await fill_in(interaction, what, **fields) is not None:
        return True
    if await withdraw(interaction, what, take_back):
        return False
    return await deliver(lambda: interaction.edit_original_response(**fields), what) is not None
