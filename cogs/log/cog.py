"""``/log show`` (the channel's last rolls, paged) and ``/log export`` (a GM's CSV of a date range).

The log is answered privately: each reader sees the channel's public rolls and their own private ones. The
page buttons name the entry the next page starts from (``rk:log:older:<id>``), so they work after a restart.
The cog also registers the Reveal button of private rolls (cogs.log.reveal).
"""

from __future__ import annotations

import functools
import io
import re
from datetime import UTC, date, datetime, timedelta

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import PlayerError
from bot.interactions.language import player_speech
from bot.interactions.places import both_installs, everywhere_contexts, game_master, place_channel, server_of
from bot.interactions.roller import from_its_place
from bot.interactions.rollkeeper import Rollkeeper, rollkeeper
from bot.interactions.tree import reports_errors
from bot.storage.roll_log import LogEntry
from cogs.log.cards import log_csv, render_log_page
from cogs.log.reveal import RevealButton
from cogs.log.stats import Stats
from rules.errors import Term
from rules.language import ENGLISH, N_, Speech, speak

PAGE_SIZE = 10
PAGE_PATTERN = re.compile(r"rk:log:(?P<direction>older|newer):(?P<entry>[0-9]{1,19})")
NEEDS_MANAGE_SERVER = N_("Only a game master (Manage Server permission) can export the roll log.")
DATE_HELP = N_("Dates are written YYYY-MM-DD (UTC), e.g. 2026-03-14.")
MAX_EXPORT_DAYS = 3660
ANOTHER_CHANNELS_LOG = N_(
    "These buttons turn the pages of another channel's log: nothing was done. Use /log show here."
)


def read_date(text: str | None, default: date) -> date:
    """A date option as a date; a clear error for anything else."""
    if text is None:
        return default
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise PlayerError("{text!r} is not a date. {help}", text=text, help=Term(DATE_HELP)) from None


def export_range(start: str | None, end: str | None, today: date) -> tuple[datetime, datetime]:
    """From the start of `start` to the end of `end` (UTC), by default the last 30 days up to today."""
    last = read_date(end, today)
    first = read_date(start, last - timedelta(days=29))
    if first > last:
        raise PlayerError("The export's start is after its end.")
    if (last - first).days >= MAX_EXPORT_DAYS:
        raise PlayerError("An export covers at most {count} days.", count=MAX_EXPORT_DAYS)
    begin = datetime.combine(first, datetime.min.time(), UTC)
    return begin, datetime.combine(last + timedelta(days=1), datetime.min.time(), UTC)


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_PATTERN):
    """Older or Newer on a page of the log: shows the next page to whoever clicks (their own view of it)."""

    pattern = PAGE_PATTERN

    def __init__(self, direction: str, entry_id: int, *, enabled: bool = True, speech: Speech | None = None) -> None:
        speech = speech or speak(ENGLISH)  # a button rebuilt from a click shows no label
        # Translators: button labels (at most 80 characters) turning the pages of the roll log.
        label = speech._("Older") if direction == "older" else speech._("Newer")
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=f"rk:log:{direction}:{entry_id}",
            disabled=not enabled,
        )
        super().__init__(button)
        self.direction, self.entry_id = direction, entry_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> PageButton:
        return cls(match["direction"], int(match["entry"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """The page turns only where its log is, its entry's channel (an entry purged since: any page of this
        channel's log is its reader's to see), and not while the bot restarts."""
        return await from_its_place(interaction, lambda db: db.log.get(self.entry_id), elsewhere=ANOTHER_CHANNELS_LOG)

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.direction == "older":
            embed, view = await log_page(interaction, before=self.entry_id)
        else:
            embed, view = await log_page(interaction, after=self.entry_id)
        await interaction.response.edit_message(embed=embed, view=view)


async def log_page(
    interaction: discord.Interaction, *, before: int | None = None, after: int | None = None
) -> tuple[discord.Embed, discord.ui.View]:
    """The page of the log the reader asked for, newest first, with Newer and Older buttons, each disabled when
    nothing lies that way. A page emptied since its button was drawn (its rolls purged) gives way to the latest."""
    guild_id, channel_id = place_channel(interaction)
    log = rollkeeper(interaction).db.log
    ask = functools.partial(log.page, guild_id, channel_id, interaction.user.id, limit=PAGE_SIZE + 1)
    entries = await ask(before=before, after=after)
    if not entries and (before, after) != (None, None):
        entries, before, after = await ask(), None, None
    entries, newer_left, older_left = _one_page(entries, before, after)
    speech = player_speech(interaction)
    view = discord.ui.View(timeout=None)
    if entries:
        view.add_item(PageButton("newer", entries[0].id, enabled=newer_left, speech=speech))
        view.add_item(PageButton("older", entries[-1].id, enabled=older_left, speech=speech))
    view.stop()
    return render_log_page(entries, speech), view


def _one_page(
    entries: list[LogEntry], before: int | None, after: int | None
) -> tuple[list[LogEntry], bool, bool]:
    """A page out of PAGE_SIZE + 1 entries fetched one way (newest first), and whether rolls lie newer and older:
    the extra entry says so for the way fetched; the way back has at least the page the reader came from."""
    if after is not None:  # the entries just newer than `after`: the page is the oldest of them
        return entries[-PAGE_SIZE:], len(entries) > PAGE_SIZE, True
    return entries[:PAGE_SIZE], before is not None, len(entries) > PAGE_SIZE


class RollLogCog(commands.Cog, name="RollLog"):
    """The roll log: every roll of this channel, and Reveal for private rolls."""

    log_group = app_commands.Group(
        name="log", description=N_("The roll log of this channel"),
        allowed_contexts=everywhere_contexts(), allowed_installs=both_installs(),
    )

    def __init__(self, bot: Rollkeeper) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RevealButton, PageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RevealButton, PageButton)

    @log_group.command(name="show", description=N_("The last rolls of this channel, newest first (only you see it)"))
    async def show(self, interaction: discord.Interaction) -> None:
        embed, view = await log_page(interaction)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @log_group.command(
        name="export",
        description=N_("Game masters, in a server that added rollkeeper: this channel's roll log as a CSV"),
    )
    @app_commands.describe(
        start=N_("First day, YYYY-MM-DD (UTC); default 29 days before the end"),
        end=N_("Last day, YYYY-MM-DD (UTC); default today"),
    )
    async def export(self, interaction: discord.Interaction, start: str | None = None, end: str | None = None) -> None:
        guild_id, channel_id = server_of(interaction), place_channel(interaction)[1]
        if not game_master(interaction):
            raise PlayerError(NEEDS_MANAGE_SERVER)
        begin, finish = export_range(start, end, self.bot.now().date())
        entries = await self.bot.db.log.between(guild_id, channel_id, interaction.user.id, begin, finish)
        name = f"roll-log-{channel_id}-{begin.date()}-{(finish - timedelta(days=1)).date()}.csv"
        speech = player_speech(interaction)
        upload = discord.File(io.BytesIO(log_csv(entries, speech).encode("utf-8")), filename=name)
        text = speech.ngettext("{count} roll from {first} to {last} (UTC).",
                               "{count} rolls from {first} to {last} (UTC).", len(entries), first=begin.date(),
                               last=(finish - timedelta(days=1)).date())
        await interaction.response.send_message(text, file=upload, ephemeral=True)


async def setup(bot: Rollkeeper) -> None:
    await bot.add_cog(RollLogCog(bot))
    await bot.add_cog(Stats(bot))
