"""Acknowledging an interaction: at once when asked (`acknowledge`), or meanwhile, only when the store has not
answered within DEFER_BUDGET of the bot taking the interaction in hand (`in_time`). answers.py then shows the answer,
in the first callback or filling in the acknowledged one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

import aiohttp
import discord

_log = logging.getLogger(__name__)

ALREADY_ACKNOWLEDGED = 40060
"""Discord's error code for a second acknowledgement of one interaction."""
IN_HAND_SINCE = "rollkeeper.in_hand_since"
"""Where ``interaction.extras`` (a dict discord.py leaves to the bot) keeps the event loop's time at which the bot took
the interaction in hand (`Rollkeeper.hold_interaction`): in_time's budget counts from then."""

DEFER_BUDGET = 1.5
"""Seconds the store has to answer before the interaction is acknowledged meanwhile (`in_time`): under SQLite's
2 s busy wait, leaving room in Discord's 3 s for the first callback."""
UPDATES = (discord.InteractionType.component, discord.InteractionType.modal_submit)
"""The interactions whose first callback updates the message they came from (a click, a modal a click opened)."""

T = TypeVar("T")


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
            if interaction.type in UPDATES:  # a click, or a modal a click opened: its message is updated
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


async def in_time(
    interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = False, budget: float = DEFER_BUDGET
) -> T:
    """What the store's `work` gives; when it has not answered within `budget` of the interaction being taken in hand
    (what was awaited before, such as a read of the server's language or of a button's record, counts), the
    interaction is acknowledged meanwhile (`acknowledge`: "thinking...", ephemeral if asked; nothing for a click),
    for its answer to be filled in later. An acknowledgement Discord did not take is only logged: the answer then
    finds the interaction unanswered, and what the work stored is withdrawn. (A timer, not a task: a healthy store
    costs no more.)"""
    meanwhile: list[asyncio.Task[None]] = []

    def acknowledge_meanwhile() -> None:
        meanwhile.append(asyncio.ensure_future(_acknowledge_late(interaction, ephemeral, budget)))

    loop = asyncio.get_running_loop()
    spent = loop.time() - interaction.extras.get(IN_HAND_SINCE, loop.time())
    timer = loop.call_later(max(0.0, budget - spent), acknowledge_meanwhile)
    try:
        return await work
    finally:
        timer.cancel()
        if meanwhile:  # the answer follows the acknowledgement
            await meanwhile[0]


async def _acknowledge_late(interaction: discord.Interaction, ephemeral: bool, budget: float) -> None:
    _log.info("Interaction %s not answered within %.1f s: acknowledged meanwhile", interaction.id, budget)
    try:
        await acknowledge(interaction, ephemeral=ephemeral)
    except NotAcknowledged as failure:
        _log.warning("Could not acknowledge interaction %s meanwhile: %s", interaction.id, failure)
