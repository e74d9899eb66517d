"""Pieces for running several sharded bots on one fake Discord: servers on known shards, a bot per process."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import discord

from bot.app.client import RollkeeperBot
from bot.settings import Settings
from bot.shards import ShardPlan
from tests.fakediscord import GUILD_READY_TIMEOUT, FakeGuild

YZ = ("cogs.yearzero.cog", "cogs.willpower.cog")
KEEP = FakeGuild("Even Keep", id=1000 << 22)
"""On shard 0 of 2: (id >> 22) % 2 == 0."""
MARSH = FakeGuild("Odd Marsh", id=1001 << 22)
FEN = FakeGuild("Odd Fen", id=1003 << 22)
"""MARSH and FEN are on shard 1 of 2."""


def shard_bot(
    make_settings: Callable[..., Settings], plan: ShardPlan, *, extensions: tuple[str, ...] = YZ, **environ: str
) -> RollkeeperBot:
    """A bot running plan's shards, as one process of several would (on the test's SQLite file: the settings'
    refusal of a shared SQLite file is about processes on other machines, which one test process is not)."""
    settings = dataclasses.replace(make_settings(**environ), shards=plan)
    return RollkeeperBot(settings, extensions=extensions, guild_ready_timeout=GUILD_READY_TIMEOUT, identify_spacing=0)


def interactions_seen(bot: discord.Client) -> list[int | None]:
    """The guild id of every interaction this bot receives from now on (a public listener)."""
    seen: list[int | None] = []

    async def note(interaction: discord.Interaction) -> None:
        seen.append(interaction.guild_id)

    bot.add_listener(note, "on_interaction")
    return seen
