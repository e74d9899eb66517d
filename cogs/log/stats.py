"""``/stats`` (honest luck from the roll log) and ``/session start`` (a GM's marker for "this evening").

/stats sums the log's entries of this channel over a period: `since` hours, else since the GM's last
``/session start`` here, else the last DEFAULT_HOURS. A player sees their own; a GM (Manage Server) may ask for
another player or the whole channel. Private rolls count only in their roller's own stats.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import PlayerError
from bot.interactions.common_options import Player
from bot.interactions.language import player_speech, table_speech
from bot.interactions.places import anywhere, may_see_others, place_channel, server_contexts, server_install, server_of
from bot.interactions.rollkeeper import Rollkeeper
from bot.text import inert
from cogs.log.cards import render_stats
from cogs.log.tallies import IN_TOTAL, events_of, per_system, sparkline, tally
from rules.language import N_, Speech

DEFAULT_HOURS = 24
MAX_HOURS = 24 * 366
GM_ONLY = N_("Only a game master (Manage Server permission) can see another player's or the whole channel's stats.")
SESSION_STARTED = N_("A new session starts now in this channel: /stats counts from here by default.")


def session_key(guild_id: int, channel_id: int) -> str:
    return f"session:{guild_id}:{channel_id}"


class Stats(commands.Cog):
    """Honest luck: rolls, successes against the exact expectation, and how unusual that is."""

    session_group = app_commands.Group(
        name="session", description=N_("Game sessions of this channel"), guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
        allowed_contexts=server_contexts(), allowed_installs=server_install(),
    )

    def __init__(self, bot: Rollkeeper) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description=N_("Your luck from the exact odds of your rolls in this channel"))
    @anywhere
    @app_commands.describe(
        player=N_("Game masters: another player's stats"),
        everyone=N_("Game masters: the whole channel's stats"),
        since=N_("Hours to look back, e.g. 3 (default: since the session started, else 24 hours)"),
    )
    async def stats(
        self, interaction: discord.Interaction, player: Player | None = None, everyone: bool = False,
        since: app_commands.Range[int, 1, MAX_HOURS] | None = None,
    ) -> None:
        """Rolls, successes, expected successes, luck percentile and 'at least this good', per system."""
        guild_id, channel_id = place_channel(interaction)
        someone_else = everyone or (player is not None and player.id != interaction.user.id)
        if someone_else and not may_see_others(interaction):
            raise PlayerError(GM_ONLY)
        speech = player_speech(interaction)
        start, period = await self._period(guild_id, channel_id, since, speech)
        who = None if everyone else (player or interaction.user).id
        entries = await self.bot.db.log.since(guild_id, channel_id, interaction.user.id, start, user_id=who)
        whose = speech._("this channel") if everyone else inert((player or interaction.user).display_name, 100)
        embed = render_stats(
            whose, period, tally(IN_TOTAL, entries), per_system(entries), sparkline(events_of(entries)), speech
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _period(self, guild_id: int, channel_id: int, hours: int | None, speech: Speech
                      ) -> tuple[datetime, str]:
        """When the period starts, and how the card says it."""
        now = self.bot.now()
        if hours is not None:
            return now - timedelta(hours=hours), speech.ngettext("The last hour", "The last {count} hours", hours)
        marker = await self.bot.db.meta.get(session_key(guild_id, channel_id))
        if marker is not None:
            started = datetime.fromisoformat(marker)
            # Translators: {when} is a Discord timestamp shown as "2 hours ago" in the reader's language.
            return started, speech._("Since the session started {when}", when=f"<t:{int(started.timestamp())}:R>")
        hours = DEFAULT_HOURS
        return now - timedelta(hours=hours), speech.ngettext("The last hour", "The last {count} hours", hours)

    @session_group.command(name="start", description=N_("Game masters: start a session here (/stats counts from now)"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def start(self, interaction: discord.Interaction) -> None:
        guild_id, channel_id = server_of(interaction), place_channel(interaction)[1]
        await self.bot.db.meta.set(session_key(guild_id, channel_id), self.bot.now().isoformat())
        speech = await table_speech(interaction, self.bot.db.languages)
        await interaction.response.send_message(speech._(SESSION_STARTED))
