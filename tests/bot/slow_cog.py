"""A test-only extension: /slow answers after a pause, to catch the bot closing under a command in flight."""

import asyncio

import discord
from discord import app_commands

PAUSE = 0.3


@app_commands.command(name="slow", description="Answer after a pause")
@app_commands.guild_only()
async def slow(interaction: discord.Interaction) -> None:
    await asyncio.sleep(PAUSE)
    await interaction.response.send_message("done")


async def setup(bot) -> None:
    bot.tree.add_command(slow)
