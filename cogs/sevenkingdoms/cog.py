"""``/test basic|conflict|competition|extended|progress|clear``: Seven Kingdoms tests.

A pool is given as options (``rank``, ``bonus``, ``discard``) or in the seed's notation (``pool: 3D+2B-1P``),
never both; ``wounds``, ``pool_penalty``, ``injuries`` and ``aid`` go with either. An extended test is a
named task of the channel: the first roll gives ``needed`` (the degrees it takes), every roll after adds its
degrees of success (stored in SQLite per channel, surviving restarts), ``restart`` starts it over, and
``/test progress`` lists the channel's tasks. Everything is checked and rolled before anything is written,
so a refused roll changes nothing.
"""

from __future__ import annotations

from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import PlayerError
from bot.interactions.acknowledging import in_time
from bot.interactions.answers import send_first, withdraw
from bot.interactions.by_hand import SK_COMPETITION_FACES, SK_FACES, Faces, by_hand
from bot.interactions.common_options import Descriptions, Note
from bot.interactions.language import answer_speech, player_speech
from bot.interactions.logbook import Rolled, answer_roll, deliver_roll
from bot.interactions.places import both_installs, everywhere_contexts, place_channel, server_of
from bot.interactions.rollkeeper import Rollkeeper
from bot.storage.applied import AlreadyApplied
from bot.storage.errors import NoSuchExtendedTest
from bot.storage.extended import ExtendedTask, ExtendedTests, task_name
from bot.text import inert
from cogs.sevenkingdoms import card as render
from cogs.sevenkingdoms.difficulties import difficulty_suggestions, typed_difficulty
from cogs.sevenkingdoms.logged import sevenkingdoms_rolled
from cogs.sevenkingdoms.tasks import TASK_BUTTONS, channel_tasks, confirmation, may_clear, task_choices
from rules.dice import DiceSource, SystemDice, rolled_with
from rules.language import N_
from rules.sevenkingdoms.competition import parse_participants, roll_competition
from rules.sevenkingdoms.extended import MAX_TASK_NAME, ExtendedProgress, advance
from rules.sevenkingdoms.odds import competition_odds, odds_for_test
from rules.sevenkingdoms.roll import (
    MAX_TARGET,
    SkPool,
    parse_pool,
    roll_test,
)

Rank = app_commands.Range[int, 0, 10]
Discard = app_commands.Range[int, 0, 20]
Target = app_commands.Range[int, 0, MAX_TARGET]
Notation = app_commands.Range[str, 2, 40]
TaskName = app_commands.Range[str, 1, MAX_TASK_NAME]
Needed = app_commands.Range[int, 1, 50]

DifficultyText = app_commands.Range[str, 1, 20]


describe = Descriptions({
    "rank": N_("Ability rank, 0-10: that many test dice (or give the whole pool instead)"),
    "bonus": N_("Bonus dice from a trained specialty, 0-10"),
    "pool": N_("The pool in the seed's notation instead of rank/bonus/discard: write it like 3D + 2B − 1P"),
    "discard": N_("Discard penalty dice, 0-20: the highest dice rolled are discarded"),
    "wounds": N_("Wounds, 0-10: each removes one test die before the roll"),
    "pool_penalty": N_("Pool penalties, 0-10: each removes one test die before the roll"),
    "injuries": N_("Injuries, 0-10: each subtracts 1 from the result"),
    "aid": N_("A helper aids you: +1 bonus die (one helper at most)"),
    "faces": SK_FACES,
})
POOL = ("rank", "bonus", "pool", "discard", "wounds", "pool_penalty", "injuries", "aid")
LAST = ("private", "note", "faces")


def build_pool(
    notation: str | None, rank: int | None, bonus: int | None, discard: int | None, *, wounds: int,
    pool_penalty: int, injuries: int, aid: bool,
) -> SkPool:
    """The pool from the notation or from rank/bonus/discard (not both), with the penalties and aid."""
    if notation is not None:
        if any(value is not None for value in (rank, bonus, discard)):
            raise PlayerError("Give the pool either as `pool` (like 3D+2B-1P) or as `rank`, `bonus` and `discard`, "
                              "not both.")
        return parse_pool(notation, wounds=wounds, pool_penalty=pool_penalty, injuries=injuries, aid=aid)
    if rank is None:
        raise PlayerError("Give your ability `rank`, or the whole `pool` like 3D+2B-1P.")
    return SkPool(
        rank, bonus or 0, discard=discard or 0, wounds=wounds, pool_penalty=pool_penalty, injuries=injuries, aid=aid
    )


class SevenKingdoms(commands.Cog):
    """Seven Kingdoms tests: test, bonus and penalty dice, degrees of success."""

    test_group = app_commands.Group(
        name="test", description=N_("Seven Kingdoms tests: test, bonus and penalty dice, degrees"),
        allowed_contexts=everywhere_contexts(), allowed_installs=both_installs(),
    )

    def __init__(self, bot: Rollkeeper, dice: DiceSource | None = None) -> None:
        self.bot = bot
        self.dice: DiceSource = dice or SystemDice()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*TASK_BUTTONS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*TASK_BUTTONS)

    @property
    def _extended(self) -> ExtendedTests:
        return self.bot.db.extended

    @test_group.command(name="basic", description=N_("A basic test against a difficulty: success and degrees"))
    @describe(*POOL, *LAST, difficulty=N_("A named difficulty (like Hard) or a number, 0-60"))
    async def basic(
        self, interaction: discord.Interaction, difficulty: DifficultyText, rank: Rank | None = None,
        bonus: Rank | None = None, pool: Notation | None = None, discard: Discard | None = None, wounds: Rank = 0,
        pool_penalty: Rank = 0, injuries: Rank = 0, aid: bool = False, private: bool = False,
        note: Note | None = None, faces: Faces | None = None,
    ) -> None:
        sk_pool = build_pool(
            pool, rank, bonus, discard, wounds=wounds, pool_penalty=pool_penalty, injuries=injuries, aid=aid
        )
        number = typed_difficulty(difficulty, player_speech(interaction))
        odds = odds_for_test(sk_pool, number, kind="basic")
        test = rolled_with(faces, self.dice, lambda dice: roll_test(sk_pool, dice, target=number, kind="basic"))
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        embed = render.render_test(test, odds, speech=speech, roller=interaction.user, note=note)
        embed, rolled = by_hand(embed, sevenkingdoms_rolled(test, odds), speech, faces)
        await answer_roll(interaction, embed, rolled, private=private, speech=speech)

    @basic.autocomplete("difficulty")
    async def _difficulties(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """The named difficulties matching what the player typed; a number typed comes first."""
        return difficulty_suggestions(typed, player_speech(interaction))

    @test_group.command(name="conflict", description=N_("A conflict test against the defender's Defense"))
    @describe(*POOL, *LAST, defense=N_("The defender's Defense, 0-60: the difficulty (no minimum rank)"))
    async def conflict(
        self, interaction: discord.Interaction, defense: Target, rank: Rank | None = None,
        bonus: Rank | None = None, pool: Notation | None = None, discard: Discard | None = None,
        wounds: Rank = 0, pool_penalty: Rank = 0, injuries: Rank = 0, aid: bool = False,
        private: bool = False, note: Note | None = None, faces: Faces | None = None,
    ) -> None:
        sk_pool = build_pool(
            pool, rank, bonus, discard, wounds=wounds, pool_penalty=pool_penalty, injuries=injuries, aid=aid
        )
        odds = odds_for_test(sk_pool, defense, kind="conflict")
        test = rolled_with(faces, self.dice, lambda dice: roll_test(sk_pool, dice, target=defense, kind="conflict"))
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        embed = render.render_test(test, odds, speech=speech, roller=interaction.user, note=note)
        embed, rolled = by_hand(embed, sevenkingdoms_rolled(test, odds), speech, faces)
        await answer_roll(interaction, embed, rolled, private=private, speech=speech)

    @test_group.command(name="competition", description=N_("Everyone named rolls; the highest result wins"))
    @describe(
        "private", "note", faces=SK_COMPETITION_FACES,
        participants=N_("Names and pools, separated by commas: Jaime 5D+2B, Brienne 4D+1B (2 to 25 of them)"),
    )
    async def competition(
        self, interaction: discord.Interaction, participants: app_commands.Range[str, 3, 2000],
        private: bool = False, note: Note | None = None, faces: Faces | None = None,
    ) -> None:
        entrants = parse_participants(participants)
        odds = competition_odds([pool for _, pool in entrants])
        result = rolled_with(faces, self.dice, lambda dice: roll_competition(entrants, dice))
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        embed = render.render_competition(result, odds, speech=speech, roller=interaction.user, note=note)
        embed, rolled = by_hand(embed, Rolled("sevenkingdoms", "competition"), speech, faces)
        await answer_roll(interaction, embed, rolled, private=private, speech=speech)

    @test_group.command(
        name="extended",
        description=N_("Roll toward a named task of this channel: each success adds its degrees until done"),
    )
    @describe(
        *POOL, *LAST,
        task=N_("The task's name (one per name in this channel)"),
        difficulty=N_("A named difficulty (like Hard) or a number, 0-60"),
        needed=N_("Degrees the task takes, 1-50: required to start it; later rolls may leave it out"),
        restart=N_("Start the task over at 0 (with a new `needed`, or the old one)"),
    )
    async def extended(
        self, interaction: discord.Interaction, task: TaskName, difficulty: DifficultyText,
        needed: Needed | None = None, restart: bool = False, rank: Rank | None = None, bonus: Rank | None = None,
        pool: Notation | None = None, discard: Discard | None = None, wounds: Rank = 0, pool_penalty: Rank = 0,
        injuries: Rank = 0, aid: bool = False, private: bool = False, note: Note | None = None,
        faces: Faces | None = None,
    ) -> None:
        guild_id, channel_id = place_channel(interaction)
        name = task_name(task)
        sk_pool = build_pool(
            pool, rank, bonus, discard, wounds=wounds, pool_penalty=pool_penalty, injuries=injuries, aid=aid
        )
        number = typed_difficulty(difficulty, player_speech(interaction))
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        stored = await self._extended.get(guild_id, channel_id, name)
        before = _progress_before(name, stored, needed, restart)
        odds = odds_for_test(sk_pool, number, kind="basic")
        test = rolled_with(faces, self.dice, lambda dice: roll_test(sk_pool, dice, target=number, kind="basic"))
        added = advance(before, test).gained - before.gained
        fresh = stored is None or restart
        try:
            saving = self._save(interaction, guild_id, channel_id, before, added, fresh=fresh)
            saved = await in_time(interaction, saving, ephemeral=private)
        except AlreadyApplied:  # a repeat delivery: the first one counted this roll, and answers it
            return
        roll = render.ExtendedRoll(test, saved.name, saved.progress, saved.needed, added)
        embed = render.render_extended(roll, odds, speech=speech, roller=interaction.user, note=note)
        embed, rolled = by_hand(embed, sevenkingdoms_rolled(test, odds, kind="extended"), speech, faces)
        if await deliver_roll(interaction, embed, rolled, private=private, speech=speech) is None:
            taking_back = partial(self._extended.withdraw, interaction.id)
            await withdraw(interaction, "/test extended", taking_back, ephemeral=private)

    async def _save(
        self, interaction: discord.Interaction, guild_id: int, channel_id: int, before: ExtendedProgress, added: int, *,
        fresh: bool,
    ) -> ExtendedTask:
        """Start the task at 0 when it is new or restarted and add this roll's degrees, in one transaction (once
        per interaction: a repeat raises AlreadyApplied)."""
        return await self._extended.record(
            guild_id, channel_id, before.name, before.needed, added, fresh=fresh, started_by=interaction.user.id,
            interaction_id=interaction.id,
        )

    @test_group.command(name="progress", description=N_("Show the extended tests of this channel and their progress"))
    @describe("private")
    async def progress(self, interaction: discord.Interaction, private: bool = False) -> None:
        guild_id, channel_id = place_channel(interaction)
        tasks = await self._extended.in_channel(guild_id, channel_id)
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        tasks_shown = [(task.name, task.progress, task.needed) for task in tasks]
        embed = render.render_tasks(tasks_shown, None, speech=speech)
        await send_first(interaction, embed=embed, ephemeral=private)

    @test_group.command(
        name="clear",
        description=N_("In a server that added rollkeeper: forget an extended test here (its starter or a GM)"),
    )
    @describe(task=N_("The name of the task to forget"))
    async def clear(self, interaction: discord.Interaction, task: TaskName) -> None:
        guild_id, channel_id = server_of(interaction), place_channel(interaction)[1]
        name = task_name(task)
        stored = await self._extended.get(guild_id, channel_id, name)
        if stored is None:
            raise NoSuchExtendedTest(name)
        may_clear(stored, interaction)
        question, buttons = confirmation(stored, interaction.user.id, player_speech(interaction))
        await interaction.response.send_message(question, view=buttons, ephemeral=True)

    @extended.autocomplete("task")
    async def _open_tasks(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """The channel's tasks still going, as the player types a task's name."""
        tasks = await channel_tasks(interaction)
        return task_choices([task for task in tasks if not task.complete], typed)

    @extended.autocomplete("difficulty")
    async def _extended_difficulties(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        """As for /test basic: the named difficulties matching what the player typed, a number typed first."""
        return difficulty_suggestions(typed, player_speech(interaction))

    @clear.autocomplete("task")
    async def _all_tasks(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """Every task of the channel, complete ones too, as the player types a task's name."""
        return task_choices(await channel_tasks(interaction), typed)


def _progress_before(name: str, stored: ExtendedTask | None, needed: int | None, restart: bool) -> ExtendedProgress:
    """The task as this roll finds it: started (or restarted) here, or as stored. Raises when it cannot go on."""
    if stored is not None and not restart:
        if needed is not None and needed != stored.needed:
            # Translators: {name} is the task's name; keep `restart` (an option's name) as it is.
            raise PlayerError('"{name}" already needs {needed} degrees ({progress} so far): set `restart` to start it '
                              "over needing {asked}.", name=inert(stored.name), needed=stored.needed,
                              progress=stored.progress, asked=needed)
        if stored.complete:
            raise PlayerError('"{name}" is already complete ({progress}/{needed}): set `restart` to start it over, or '
                              "`/test clear` it.", name=inert(stored.name), progress=stored.progress,
                              needed=stored.needed)
        return ExtendedProgress(stored.name, stored.needed, stored.progress)
    needed = needed if needed is not None else stored.needed if stored is not None else None
    if needed is None:
        raise PlayerError('There is no extended test "{name}" in this channel yet: start it by giving `needed`, the '
                          "degrees of success it takes.", name=inert(name))
    return ExtendedProgress(stored.name if stored is not None else name, needed)


async def setup(bot: Rollkeeper) -> None:
    await bot.add_cog(SevenKingdoms(bot))
