"""/willpower: each player's Willpower Points in this place (a server, or a DM or group DM: places.py), 0-10, each
change atomic in the store and withdrawn if its answer never reaches the player (bot.interactions.answers).

In a server that added rollkeeper a game master sets a player's Willpower (/willpower-set, Manage Server); where
there is no such server (a DM, a group DM, a server where the app came with a player's account) each player sets
their own (/willpower set)."""

from __future__ import annotations

from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import PlayerError
from bot.interactions.acknowledging import in_time
from bot.interactions.answers import answer_or_withdraw
from bot.interactions.common_options import Player, describe
from bot.interactions.language import player_speech, table_speech
from bot.interactions.places import anywhere, bot_present, may_see_others, place_channel, server_of, server_only
from bot.interactions.rollkeeper import Rollkeeper
from bot.text import player_name
from rules.language import N_
from rules.yearzero.willpower import MAX_WILLPOWER

ONLY_YOUR_OWN = N_("You can see only your own Willpower; a game master (Manage Server) can see anyone's.")
GAME_MASTER_SETS = N_("In this server a game master sets Willpower, with /willpower-set.")


@anywhere
class WillpowerCommands(
    commands.GroupCog, group_name="willpower",
    # Translators: a command description (at most 100 characters): the /willpower group of commands.
    group_description=N_("See, spend or set Willpower Points (Year Zero)."),
):
    """See, spend or set Willpower Points (Year Zero)."""

    def __init__(self, bot: Rollkeeper) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="show", description=N_("See your Willpower Points (a game master may look at anyone's).")
    )
    @describe(player=N_("Whose Willpower to see (game masters only; default yourself)."))
    async def show(self, interaction: discord.Interaction, player: Player | None = None) -> None:
        """See your Willpower Points (a game master may look at anyone's)."""
        who = player or interaction.user
        if who.id != interaction.user.id and not may_see_others(interaction):
            raise PlayerError(ONLY_YOUR_OWN)
        points = await self.bot.db.willpower.get(place_channel(interaction)[0], who.id)
        speech = player_speech(interaction)
        if who.id == interaction.user.id:
            text = speech._("You have **{points}** Willpower (at most {most}).", points=points, most=MAX_WILLPOWER)
        else:
            text = speech._("{name} has **{points}** Willpower (at most {most}).",
                            name=player_name(who), points=points, most=MAX_WILLPOWER)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="spend", description=N_("Spend your Willpower Points, for a talent say."))
    @describe(points=N_("How many Willpower Points to spend (1-10)."))
    async def spend(
        self, interaction: discord.Interaction, points: app_commands.Range[int, 1, MAX_WILLPOWER] = 1
    ) -> None:
        """Spend your Willpower Points, for a talent say."""
        guild_id = place_channel(interaction)[0]
        willpower, user_id = self.bot.db.willpower, interaction.user.id  # one trip: the spend refuses what you lack
        change = await in_time(interaction, willpower.spend(guild_id, user_id, points, interaction_id=interaction.id))
        speech = await table_speech(interaction, self.bot.db.languages)
        # Translators: {player} is a mention of the player; {before} → {after} their Willpower.
        text = speech._("{player} spends **{points}** Willpower: {before} → **{after}**.",
                        player=interaction.user.mention, points=points, before=change.before, after=change.after)
        refund = partial(willpower.withdraw_spend, guild_id, user_id, points, interaction_id=interaction.id)
        await answer_or_withdraw(interaction, "/willpower spend", refund, content=text)

    @app_commands.command(
        name="set", description=N_("Set your own Willpower (in DMs, group DMs and servers without the bot).")
    )
    @describe(points=N_("Your new Willpower (0-10)."))
    async def set_own(
        self, interaction: discord.Interaction, points: app_commands.Range[int, 0, MAX_WILLPOWER]
    ) -> None:
        """Set your own Willpower Points where no game master can (see the module's docstring)."""
        if bot_present(interaction):
            raise PlayerError(GAME_MASTER_SETS)
        place, user_id = place_channel(interaction)[0], interaction.user.id
        willpower = self.bot.db.willpower
        change = await in_time(interaction, willpower.set(place, user_id, points, interaction_id=interaction.id))
        speech = await table_speech(interaction, self.bot.db.languages)
        # Translators: {player} is a mention of the player, who set their own Willpower.
        text = speech._("{player} sets their Willpower to **{after}** (was {before}).", player=interaction.user.mention,
                        after=change.after, before=change.before)
        unset = partial(willpower.withdraw_set, place, user_id, change, interaction_id=interaction.id)
        await answer_or_withdraw(interaction, "/willpower set", unset, content=text)


class WillpowerSetting(commands.Cog):
    """/willpower-set: a top-level command of its own, because Discord applies default_member_permissions to
    top-level commands only: members without Manage Server do not see it (a server's admins can change that
    under Integrations), while every player keeps /willpower show and spend. The bot still checks itself."""

    def __init__(self, bot: Rollkeeper) -> None:
        self.bot = bot

    @app_commands.command(
        name="willpower-set",
        description=N_("In a server that added rollkeeper: set a player's Willpower (game masters: Manage Server)."),
    )
    @server_only
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @describe(player=N_("The player whose Willpower to set."), points=N_("Their new Willpower (0-10)."))
    async def set_points(
        self, interaction: discord.Interaction, player: discord.Member,
        points: app_commands.Range[int, 0, MAX_WILLPOWER],
    ) -> None:
        """Set a player's Willpower Points (game masters: Manage Server)."""
        guild_id = server_of(interaction)
        willpower = self.bot.db.willpower
        change = await in_time(interaction, willpower.set(guild_id, player.id, points, interaction_id=interaction.id))
        speech = await table_speech(interaction, self.bot.db.languages)
        # Translators: {player} is a mention of the player, {gm} of the game master who set it.
        text = speech._("{player}'s Willpower is now **{after}** (was {before}), set by {gm}.", player=player.mention,
                        after=change.after, before=change.before, gm=interaction.user.mention)
        unset = partial(willpower.withdraw_set, guild_id, player.id, change, interaction_id=interaction.id)
        await answer_or_withdraw(interaction, "/willpower-set", unset, content=text)


async def setup(bot: Rollkeeper) -> None:
    await bot.add_cog(WillpowerCommands(bot))
    await bot.add_cog(WillpowerSetting(bot))
