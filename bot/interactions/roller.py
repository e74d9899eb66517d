"""The check every button that only its roller may press makes first: Push, Keep (a stored roll) and Reveal (a
logged private roll)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

import discord

from bot.interactions.rollkeeper import rollkeeper
from bot.interactions.tree import report_error, send_private
from bot.storage.database import Storage


class Rolled(Protocol):
    """A stored record of a roll, which names its roller."""

    @property
    def user_id(self) -> int: ...


async def only_its_roller(
    interaction: discord.Interaction, read: Callable[[Storage], Awaitable[Rolled | None]], refusal: str
) -> bool:
    """Refuse a click while the bot drains (it is restarting), and privately anyone but the roller of the record
    `read` finds (none found: the callback answers that); a failing read is answered like any other failure."""
    bot = rollkeeper(interaction)
    if await bot.refuse_if_draining(interaction):
        return False
    bot.hold_interaction()
    try:
        record = await read(bot.db)
    except Exception as error:  # a busy database, say
        await report_error(interaction, error)
        return False
    if record is not None and record.user_id != interaction.user.id:
        await send_private(interaction, refusal)
        return False
    return True
