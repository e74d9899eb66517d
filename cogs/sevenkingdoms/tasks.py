"""Extended tests of a channel, for `/test`: the task names offered while typing, and clearing with a confirmation.

`/test clear` is for whoever started the task or a member with Manage Server; it asks first, privately, with
two buttons. The buttons are DynamicItems whose custom_id names the player who asked and the task (by a short
digest of its name: a name may be 100 characters, a custom_id too), so they still work after a restart. Each
click checks again: the task may have gone meanwhile, or the player may have lost the permission.
"""

from __future__ import annotations

import hashlib
import re

import discord
from discord import app_commands

from bot.errors import PlayerError
from bot.interactions.language import player_speech, table_speech
from bot.interactions.places import game_master, place_channel, server_of
from bot.interactions.rollkeeper import rollkeeper
from bot.interactions.tree import reports_errors, send_private
from bot.storage.extended import ExtendedTask
from bot.text import inert, plain
from rules.language import N_, Speech

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""
CLEAR_PATTERN = re.compile(r"rk:sk:clear:(?P<asker>[0-9]{1,19}):(?P<task>[0-9a-f]{16})")
KEEP_PATTERN = re.compile(r"rk:sk:keep:(?P<asker>[0-9]{1,19})")
NOT_YOUR_QUESTION = N_("This question was asked of someone else: use /test clear yourself.")
GONE = N_("That extended test is no longer here: someone cleared it already.")


def task_choices(tasks: list[ExtendedTask], typed: str) -> list[app_commands.Choice[str]]:
    """The tasks whose name holds what the player typed so far (any case), as choices showing their progress."""
    wanted = typed.casefold().strip()
    found = [task for task in tasks if wanted in task.name.casefold()]
    return [
        app_commands.Choice(name=f"{plain(task.name, 80)} ({task.progress}/{task.needed})", value=task.name)
        for task in found[:MAX_CHOICES]
    ]


async def channel_tasks(interaction: discord.Interaction) -> list[ExtendedTask]:
    """The extended tests of the interaction's channel, in its place (a server, a DM or a group DM); none when
    Discord named no channel (a crafted autocomplete: discord.py would only log what it raises, and answer nothing)."""
    if interaction.channel_id is None:
        return []
    return await rollkeeper(interaction).db.extended.in_channel(*place_channel(interaction))


def may_clear(task: ExtendedTask, interaction: discord.Interaction) -> None:
    """Nothing when the player started the task or has Manage Server; else a PlayerError saying who may."""
    if task.started_by == interaction.user.id or game_master(interaction):
        return
    if task.started_by is not None:
        # Translators: {starter} is a mention of the player who started the task; {name} the task's name.
        raise PlayerError('Only {starter}, who started it, or a member with the Manage Server permission can clear '
                          '"{name}".', starter=f"<@{task.started_by}>", name=inert(task.name))
    raise PlayerError('Only whoever started it or a member with the Manage Server permission can clear "{name}".',
                      name=inert(task.name))


def task_digest(name: str) -> str:
    """16 hex digits naming a task in a custom_id (the stored name, so case and spaces as stored)."""
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]


def confirmation(task: ExtendedTask, asker_id: int, speech: Speech) -> tuple[str, discord.ui.View]:
    """The private question `/test clear` asks, and its two buttons, in the asker's language."""
    view = discord.ui.View(timeout=None)
    # Translators: button labels (at most 80 characters) answering "Forget the extended test ...?".
    view.add_item(ClearTaskButton(asker_id, task_digest(task.name), speech._("Clear it")))
    view.add_item(KeepTaskButton(asker_id, speech._("Keep it")))
    view.stop()  # the DynamicItems registered by the cog take the clicks, in this process or the next
    question = speech._('Forget the extended test "{name}" ({progress}/{needed}) for everyone in this channel? Its '
                        "progress cannot be brought back.", name=inert(task.name), progress=task.progress,
                        needed=task.needed)
    return question, view


async def _task_named_by(interaction: discord.Interaction, digest: str) -> ExtendedTask | None:
    guild_id, channel_id = server_of(interaction), place_channel(interaction)[1]
    tasks = await rollkeeper(interaction).db.extended.in_channel(guild_id, channel_id)
    return next((task for task in tasks if task_digest(task.name) == digest), None)


async def _is_asker(interaction: discord.Interaction, asker_id: int) -> bool:
    rollkeeper(interaction).hold_interaction(interaction)
    if interaction.user.id != asker_id:
        await send_private(interaction, player_speech(interaction)._(NOT_YOUR_QUESTION))
        return False
    return True


class ClearTaskButton(discord.ui.DynamicItem[discord.ui.Button], template=CLEAR_PATTERN):
    """"Clear it": forgets the task, if it is still there and the player may still clear it."""

    pattern = CLEAR_PATTERN

    def __init__(self, asker_id: int, digest: str, label: str = "Clear it") -> None:
        custom_id = f"rk:sk:clear:{asker_id}:{digest}"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=custom_id))
        self.asker_id, self.digest = asker_id, digest

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> ClearTaskButton:
        return cls(int(match["asker"]), match["task"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await _is_asker(interaction, self.asker_id)

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        task = await _task_named_by(interaction, self.digest)
        if task is not None:
            may_clear(task, interaction)  # again: the permission may have gone since the question
        speech = player_speech(interaction)
        if task is None or not await _forget(interaction, task):
            await interaction.response.edit_message(content=speech._(GONE), view=None)
            return
        name = inert(task.name)
        await interaction.response.edit_message(content=speech._('Cleared "{name}".', name=name), view=None)
        table = await table_speech(interaction, rollkeeper(interaction).db.languages)
        # Translators: {player} is a mention of the player who cleared the task.
        await interaction.followup.send(table._('{player} cleared the extended test "{name}" ({progress}/{needed}) in '
                                                "this channel.", player=interaction.user.mention, name=name,
                                                progress=task.progress, needed=task.needed))


async def _forget(interaction: discord.Interaction, task: ExtendedTask) -> bool:
    """Delete the task; False when another click or command was first."""
    guild_id, channel_id = server_of(interaction), place_channel(interaction)[1]
    return await rollkeeper(interaction).db.extended.clear(guild_id, channel_id, task.name)


class KeepTaskButton(discord.ui.DynamicItem[discord.ui.Button], template=KEEP_PATTERN):
    """"Keep it": answers the question without changing anything."""

    pattern = KEEP_PATTERN

    def __init__(self, asker_id: int, label: str = "Keep it") -> None:
        custom_id = f"rk:sk:keep:{asker_id}"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id))
        self.asker_id = asker_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> KeepTaskButton:
        return cls(int(match["asker"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await _is_asker(interaction, self.asker_id)

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        kept = player_speech(interaction)._("Kept: nothing was cleared.")
        await interaction.response.edit_message(content=kept, view=None)


TASK_BUTTONS = (ClearTaskButton, KeepTaskButton)
