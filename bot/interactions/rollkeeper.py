"""The bot as a feature sees it: the few things a cog, a button or a card may ask of the bot that runs it.

The app's bot class (bot/app/client.py) has all of them; it hands itself to each feature's ``setup`` typed as
`Rollkeeper`, and a button reaches it through ``interaction.client`` (`rollkeeper`). Nothing below the app
imports the bot class, so a feature loads without the app's start-up, shards and chores.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Protocol, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions.webhook_edits import InteractionWebhooks
from bot.settings import Settings
from bot.storage.database import Storage

PurgeHook = Callable[[], Awaitable[object]]
"""A chore a feature runs just before each purge of expired rolls (Year Zero: marking expiring rolls ended)."""


class Rollkeeper(Protocol):
    """What features use of the bot: its database, settings and clock, its tree, its registries."""

    @property
    def db(self) -> Storage: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    def now(self) -> datetime: ...

    @property
    def webhooks(self) -> InteractionWebhooks:
        """The interactions' webhooks that may still edit messages shown where the bot is absent (in memory)."""

    def hold_interaction(self, interaction: discord.Interaction) -> None:
        """Count the running task as handling interaction: the bot waits for it when it closes, and the answer's
        budget (acknowledging.in_time) counts from now."""

    async def refuse_if_draining(self, interaction: discord.Interaction) -> bool:
        """True (and the player told the bot is restarting) while the bot closes."""

    async def add_cog(self, cog: commands.Cog, /) -> None: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def add_purge_hook(self, hook: PurgeHook) -> None:
        """Run hook before each purge of expired rolls, for as long as the bot runs (or until removed)."""

    def remove_purge_hook(self, hook: PurgeHook) -> None: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None  # noqa: A002
    ) -> discord.PartialMessageable: ...


def rollkeeper(interaction: discord.Interaction) -> Rollkeeper:
    """The bot that received interaction, as features see it (discord.py types a button's interaction for any
    client; every client that loads rollkeeper's features is a `Rollkeeper`)."""
    return cast(Rollkeeper, interaction.client)
