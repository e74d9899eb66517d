"""The check every button that only its roller may press makes first: Push, Keep (a stored roll) and Reveal (a
logged private roll).

A button's custom_id names its record, and a custom_id can be sent from anywhere: a crafted click, or the roller's
own click on a copy of the message in another server, another channel or a DM. So the click must come from the
record's own server and channel, as well as from its roller; a click from elsewhere is refused privately, and
nothing is stored or edited."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

import discord

from bot.interactions.language import player_speech
from bot.interactions.places import place_channel
from bot.interactions.rollkeeper import rollkeeper
from bot.interactions.tree import report_error, send_private
from bot.storage.database import Storage
from rules.language import N_

NOT_HERE = N_("This button belongs to a roll in another channel: nothing was done. Use the button on the roll itself.")


class Rolled(Protocol):
    """A stored record of a roll, which names its roller and where it was rolled."""

    @property
    def user_id(self) -> int: ...

    @property
    def guild_id(self) -> int: ...

    @property
    def channel_id(self) -> int: ...


def rolled_here(interaction: discord.Interaction, record: Rolled) -> bool:
    """Whether the click comes from the place and channel the record was rolled in (`places.place_channel`)."""
    if interaction.channel_id is None:
        return False
    return place_channel(interaction) == (record.guild_id, record.channel_id)


async def only_its_roller(
    interaction: discord.Interaction, read: Callable[[Storage], Awaitable[Rolled | None]], refusal: str
) -> bool:
    """Refuse a click while the bot drains (it is restarting), privately anyone but the roller of the record `read`
    finds, and the roller's click from anywhere but the record's channel (none found: the callback answers that); a
    failing read is answered like any other failure."""
    return await from_its_place(interaction, read, elsewhere=NOT_HERE, not_yours=refusal)


async def from_its_place(
    interaction: discord.Interaction,
    read: Callable[[Storage], Awaitable[Rolled | None]],
    *,
    elsewhere: str,
    not_yours: str | None = None,
) -> bool:
    """The check a button naming a record makes first: refuse a click while the bot drains, then (when
    `not_yours` is given) anyone but the record's roller, then a click from anywhere but the record's server and
    channel (answered `elsewhere`); a record no longer found passes (the callback answers that). Both refusals are
    English templates (marked with N_), said in the clicking player's language."""
    bot = rollkeeper(interaction)
    if await bot.refuse_if_draining(interaction):
        return False
    bot.hold_interaction(interaction)
    try:
        record = await read(bot.db)
    except Exception as error:  # a busy database, say
        await report_error(interaction, error)
        return False
    if record is not None and not_yours is not None and record.user_id != interaction.user.id:
        await send_private(interaction, player_speech(interaction)._(not_yours))
        return False
    if record is not None and not rolled_here(interaction, record):
        await send_private(interaction, player_speech(interaction)._(elsewhere))
        return False
    return True
