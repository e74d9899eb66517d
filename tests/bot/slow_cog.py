"""A test-only extension: /slow answers after a pause, and so does the Slow button it posts, to catch the bot
closing under a command or a click in flight."""

import asyncio
import re

import discord
from discord import app_commands

PAUSE = 0.3
SLOW_PATTERN = re.compile(r"rk:slow:(?P<n>[0-9]+)")


class SlowButton(discord.ui.DynamicItem[discord.ui.Button], template=SLOW_PATTERN):
    pattern = SLOW_PATTERN

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Slow", custom_id=f"rk:slow:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        interaction.client.hold_interaction(interaction)
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(PAUSE)
        await interaction.response.send_message("clicked")


@app_commands.command(name="slow", description="Answer after a pause")
@app_commands.guild_only()
async def slow(interaction: discord.Interaction, button: bool = False) -> None:
    if button:
        view = discord.ui.View(timeout=None)
        view.add_item(SlowButton(1))
        view.stop()
        await interaction.response.send_message("press", view=view)
        return
    await asyncio.sleep(PAUSE)
    await interaction.response.send_message("done")


async def setup(bot) -> None:
    bot.tree.add_command(slow)
    bot.add_dynamic_items(SlowButton)
