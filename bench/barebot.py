"""The floor the bot is measured against: a bare discord.py bot whose one slash command answers a constant embed.

Its `/yz` takes the options the benchmark sends (attribute, skill, gear, artifact), so discord.py parses the very
same INTERACTION_CREATE for it as for rollkeeper; it ignores them and answers at once. Importing this module
imports discord.py and nothing else: it is also the `import discord` floor of the start-up benchmark.

No ``from __future__ import annotations`` here: discord.py reads the command's annotations at definition time.
"""

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

CONSTANT = discord.Embed(title="A roll", description="The same answer every time.", colour=0x5865F2)
CONSTANT.add_field(name="Result", value="1 success")


async def yz(
    interaction: discord.Interaction,
    attribute: app_commands.Range[int, 0, 10],
    skill: app_commands.Range[int, 0, 10],
    gear: app_commands.Range[int, 0, 10] = 0,
    artifact: Literal["d8", "d10", "d12"] | None = None,
) -> None:
    """Answer with the constant embed: at once, or (a bot built with defer=True) acknowledged first, as rollkeeper
    answers, and then filled in by editing the original response (two HTTP requests, like rollkeeper's).

    Parameters
    ----------
    attribute: Base dice from the attribute.
    skill: Base dice from the skill.
    gear: Gear dice.
    artifact: An Artifact Die.
    """
    if isinstance(interaction.client, BareBot) and interaction.client.defer_first:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(embed=CONSTANT)
    else:
        await interaction.response.send_message(embed=CONSTANT)


class BareBot(commands.Bot):
    """A commands.Bot with default options and `/yz`; syncs it in setup_hook only when asked to; answers at once,
    or acknowledges first when built with defer=True."""

    def __init__(self, *, sync: bool, defer: bool = False, **options) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **options)
        self.sync_at_start = sync
        self.defer_first = defer
        command = app_commands.Command(name="yz", description="Answer a constant embed.", callback=yz)
        self.tree.add_command(app_commands.guild_only(command))

    async def setup_hook(self) -> None:
        if self.sync_at_start:
            await self.tree.sync()
