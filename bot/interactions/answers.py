"""Store, then answer in Discord's first callback: what a player is told is what is stored, in one request.

A change (a roll, a push, a Willpower spend, an extended test's progress) is stored first (one transaction), then
shown in the interaction's first callback: a command's message (type 4), or a click's update of its message (type
7). Only when the store has not answered within DEFER_BUDGET is the interaction acknowledged meanwhile (type 5
"thinking...", or 6 for a click: `in_time` in acknowledging.py), and the answer filled in after, as Discord allows
for 15 minutes. When the first callback fails in a way that leaves its fate unknown (a reset connection, a timeout,
a 5xx or 429 discord.py gave up on), Discord is asked whether it took it (the interaction's original response
exists) before anything is decided; a reset is tried again while Discord has not taken it. An answer after a
deferral is retried through transient faults, and looked for before anything is undone (`fill_in`). What was never
shown is withdrawn - a roll, a Willpower spend or set, an extended test's degrees (`withdraw`) - or, for a push,
shown on the roll's own message or on the roller's next click.

Where Discord shows a user-installed app's answers to their player only (places.answers_forced_private), a public
answer is sent ephemeral, saying why (`_as_shown`), rather than left for Discord to hide without a word.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

from bot.interactions.acknowledging import ALREADY_ACKNOWLEDGED, UPDATES
from bot.interactions.language import player_speech
from bot.interactions.places import answers_forced_private
from rules.language import N_

_log = logging.getLogger(__name__)

ANSWER_ATTEMPTS = 4
"""Tries at an answer (a first callback: while resets leave it untaken; an edit: through transient faults)."""
ANSWER_BACKOFF = 0.5
"""Seconds before the second attempt at an answer; doubled for each one after."""

ONLY_YOU_SEE_IT = N_(
    "Only you see this: this server does not let apps added to a player's account answer publicly (its Use External "
    "Apps permission)."
)
"""Put above a public answer that Discord allows only as an ephemeral one."""
NOT_SHOWN = N_("Discord lost this answer on its way to you, so nothing was changed. Try again.")
"""Put in place of an answer whose change was withdrawn, if Discord takes anything at all by then."""

TAKEN, CLOSED = "rollkeeper.taken", "rollkeeper.closed"
"""Keys in `interaction.extras`: Discord has a response for the interaction though discord.py did not see it taken
(a lost reply, a repeat delivery's first); Discord will take no first callback now (it refused one, or discord.py
spent seconds retrying a 5xx or a 429)."""

T = TypeVar("T")
Withdrawal = Callable[[], Awaitable[bool]]
"""Takes a change back; False when it must stay (a later change was shown counting it)."""


async def answer(
    interaction: discord.Interaction, what: str, *, ephemeral: bool = False, **fields: Any
) -> discord.InteractionMessage | None:
    """Show the answer to a change already stored: in the first callback (a command's message, type 4, ephemeral
    if asked; a click's update of its message, type 7, as for the submission of a modal a click opened), or once
    acknowledged meanwhile, in its original response.
    The message shown, or None when Discord never showed it.

    A callback whose fate is unknown (a reset, a timeout, a 5xx or 429 discord.py gave up on) is looked for before
    anything is decided: taken, it is shown; not taken, a reset is tried again (up to ANSWER_ATTEMPTS). A callback
    Discord refused (4xx) was not taken. One already taken (40060: a repeat delivery's first, or a try of ours
    whose reply was lost) is filled in with this answer, the same one."""
    if interaction.response.is_done():
        return await _fill(interaction, what, fields)
    for attempt in range(1, ANSWER_ATTEMPTS + 1):
        try:
            return await _first_callback(interaction, ephemeral, fields)
        except discord.HTTPException as failure:
            if failure.code == ALREADY_ACKNOWLEDGED:
                interaction.extras[TAKEN] = True
                return await _fill(interaction, what, fields)
            if failure.status < 500 and failure.status != 429:
                _log.warning("Discord refused the answer to %s: %s", what, failure)
                interaction.extras[CLOSED] = True
                return None
            interaction.extras[CLOSED] = True  # discord.py retried these already, for seconds
            return await _taken(interaction, what, failure, fields)
        except (TimeoutError, aiohttp.ClientError, OSError) as failure:
            found = await _taken(interaction, what, failure, fields)
            if found is not None:
                return found
            _log.info("The answer to %s was not taken (attempt %d: %r)", what, attempt, failure)
    _log.warning("Could not answer %s after %d attempts", what, ANSWER_ATTEMPTS)
    return None


async def _first_callback(
    interaction: discord.Interaction, ephemeral: bool, fields: dict[str, Any]
) -> discord.InteractionMessage | None:
    if interaction.type in UPDATES:
        response = await interaction.response.edit_message(**fields)
    else:
        ephemeral, fields = _as_shown(interaction, ephemeral, fields)
        response = await interaction.response.send_message(ephemeral=ephemeral, **fields)
    if response is not None and isinstance(response.resource, discord.InteractionMessage):
        return response.resource  # asked ?with_response (discord.py does): the message comes back with it
    return await interaction.original_response()


def _as_shown(interaction: discord.Interaction, ephemeral: bool, fields: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """A command's first answer as it is sent: a public one that Discord would show to its player only
    (places.answers_forced_private) goes ephemeral, ONLY_YOU_SEE_IT above its content (in the player's language)."""
    if ephemeral or not answers_forced_private(interaction):
        return ephemeral, fields
    why = player_speech(interaction)._(ONLY_YOU_SEE_IT)
    content = fields.get("content")
    return True, {**fields, "content": f"{why}\n{content}" if content else why}


async def send_first(interaction: discord.Interaction, *, ephemeral: bool = False, **fields: Any) -> None:
    """Send a command's first answer (type 4) that stores nothing, ephemeral if asked; a public one as `_as_shown`
    says (as `answer` sends its own)."""
    ephemeral, fields = _as_shown(interaction, ephemeral, fields)
    await interaction.response.send_message(ephemeral=ephemeral, **fields)


async def _fill(
    interaction: discord.Interaction, what: str, fields: dict[str, Any]
) -> discord.InteractionMessage | None:
    """Put the answer in a response already taken: a click's message (edited; there is no "thinking..." to tell an
    answer that arrived), or a command's original response (`fill_in`)."""
    if interaction.type in UPDATES:
        return await deliver(lambda: interaction.edit_original_response(**fields), what)
    return await fill_in(interaction, what, **fields)


async def _taken(
    interaction: discord.Interaction, what: str, failure: BaseException, fields: dict[str, Any]
) -> discord.InteractionMessage | None:
    """After a first callback whose fate is unknown: the message it showed if Discord took it (a "thinking..." a
    repeat delivery left is filled in), None if Discord has no response for the interaction."""
    try:
        original = await interaction.original_response()
    except discord.NotFound:
        return None
    except (discord.HTTPException, TimeoutError, aiohttp.ClientError, OSError) as problem:
        _log.warning("Could not ask Discord whether the answer to %s was taken (%r): taken as lost", what, problem)
        return None
    interaction.extras[TAKEN] = True
    if original.flags.loading:
        return await _fill(interaction, what, fields)
    _log.info("The answer to %s was taken; its reply was lost (%r)", what, failure)
    return original


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


async def withdraw(
    interaction: discord.Interaction, what: str, take_back: Withdrawal, *, ephemeral: bool = False
) -> bool:
    """The answer to a change never reached the player: take the change back and put NOT_SHOWN in the answer's
    place if Discord takes it (the original response, when Discord has one; else the first callback, unless
    Discord refused that already). False when the change stays, for a later answer showed a total counting it
    (then the player is not told it was undone)."""
    if not await take_back():
        _log.warning("The answer to %s was lost, but its change stays: a later change counts it", what)
        return False
    _log.warning("The answer to %s was lost: its change is withdrawn", what)
    shown = player_speech(interaction)._(NOT_SHOWN)
    if interaction.response.is_done() or interaction.extras.get(TAKEN):
        await deliver(lambda: interaction.edit_original_response(content=shown, embed=None, view=None), what)
    elif not interaction.extras.get(CLOSED):
        await _say_not_shown(interaction, what, ephemeral, shown)
    return True


async def _say_not_shown(interaction: discord.Interaction, what: str, ephemeral: bool, shown: str) -> None:
    """NOT_SHOWN (said as shown) in the first callback, tried once, as Discord seemed to take none; if it did take one
    after all (40060: Discord could not say so before), it replaces what Discord took."""
    try:
        await interaction.response.send_message(shown, ephemeral=ephemeral)
    except discord.HTTPException as failure:
        if failure.code != ALREADY_ACKNOWLEDGED:
            _log.info("Could not tell the player that %s changed nothing: %s", what, failure)
            return
        await deliver(lambda: interaction.edit_original_response(content=shown, embed=None, view=None), what)
    except (TimeoutError, aiohttp.ClientError, OSError) as failure:
        _log.info("Could not tell the player that %s changed nothing: %r", what, failure)


async def answer_or_withdraw(
    interaction: discord.Interaction, what: str, take_back: Withdrawal, *, ephemeral: bool = False, **fields: Any
) -> bool:
    """Show the answer of a command whose change is stored (`answer`); if it never arrives, withdraw the change
    (`withdraw`), or, when the change must stay, try its answer once more. True when the answer is shown."""
    if await answer(interaction, what, ephemeral=ephemeral, **fields) is not None:
        return True
    if await withdraw(interaction, what, take_back, ephemeral=ephemeral):
        return False
    return await answer(interaction, what, ephemeral=ephemeral, **fields) is not None
