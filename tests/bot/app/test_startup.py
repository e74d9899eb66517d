"""Start-up of the real bot against the fake Discord: the database, command sync only on change, GUILD_ID mode,
and a walk over every registered command as Discord received it."""

from __future__ import annotations

import asyncio
import importlib
import sqlite3
from contextlib import closing

import discord
import pytest

from bot.app.client import EXTENSIONS
from bot.app.sync import CommandSync
from tests.fakediscord import CannotInvoke

PUT_GLOBAL = "/applications/{application_id}/commands"
PUT_GUILD = "/applications/{application_id}/guilds/{guild_id}/commands"
YZ = ("cogs.yearzero.cog", "cogs.willpower.cog")
INTEGER, NUMBER = 4, 10
SUBCOMMAND, GROUP = 1, 2
GUILD_ONLY = [0]
EVERYWHERE = [0, 1, 2]
SERVER_ONLY = {"willpower-set", "session", "settings"}
"""Top-level commands offered only in servers that added the app (issue 22); the others are played anywhere."""


def names(commands: list[dict]) -> set[str]:
    return {command["name"] for command in commands}


def pragma(db_path, name: str):
    with closing(sqlite3.connect(db_path)) as connection:
        return connection.execute(f"PRAGMA {name}").fetchone()[0]


def stored_hashes(db_path) -> list[str]:
    with closing(sqlite3.connect(db_path)) as connection:
        return [row[0] for row in connection.execute("SELECT key FROM meta WHERE key LIKE 'commands_hash:%'")]


async def test_start_up_opens_and_migrates_the_database_and_close_closes_it(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    assert bot.db.store.path == db_path and pragma(db_path, "user_version") >= 1
    assert pragma(db_path, "journal_mode") == "wal"
    await fake_discord.stop()
    assert bot.is_closed()
    with pytest.raises(RuntimeError, match="not open"):
        bot.db  # noqa: B018 - the property raises once the database is closed


async def test_commands_are_synced_once_and_again_only_when_they_change(start_bot, fake_discord, db_path):
    await start_bot(extensions=YZ)
    [put] = fake_discord.requests_to("PUT", PUT_GLOBAL)
    assert put.status == 200 and names(put.body) == {"yz", "push", "willpower", "willpower-set"}
    assert names(fake_discord.commands()) == {"yz", "push", "willpower", "willpower-set"}
    assert stored_hashes(db_path) == [f"commands_hash:{fake_discord.application_id}"]

    bot = await start_bot(extensions=YZ)  # the same commands: nothing to tell Discord
    assert len(fake_discord.requests_to("PUT", PUT_GLOBAL)) == 1
    assert await bot.sync_commands() is CommandSync.UNCHANGED
    assert (await fake_discord.slash("willpower show")).type == 4  # Discord's copy still serves

    await start_bot(extensions=("cogs.willpower.cog",))  # a command set that changed
    puts = fake_discord.requests_to("PUT", PUT_GLOBAL)
    assert len(puts) == 2 and names(puts[-1].body) == {"willpower", "willpower-set"}
    assert names(fake_discord.commands()) == {"willpower", "willpower-set"}

    await start_bot(extensions=("cogs.willpower.cog",))
    assert len(fake_discord.requests_to("PUT", PUT_GLOBAL)) == 2
    await start_bot(extensions=YZ)  # changed back: synced again
    assert len(fake_discord.requests_to("PUT", PUT_GLOBAL)) == 3
    assert fake_discord.requests_to("PUT", PUT_GUILD) == []


async def test_guild_id_mode_syncs_to_that_server_at_every_start_and_never_globally(
    start_bot, fake_discord, db_path
):
    guild = fake_discord.guild
    for start in (1, 2):
        await start_bot(extensions=YZ, GUILD_ID=str(guild.id))
        puts = fake_discord.requests_to("PUT", PUT_GUILD)
        assert len(puts) == start and puts[-1].path.endswith(f"/guilds/{guild.id}/commands")
    assert names(fake_discord.commands(guild)) == {"yz", "push", "willpower", "willpower-set"}
    assert fake_discord.requests_to("PUT", PUT_GLOBAL) == [] and fake_discord.commands() == []
    assert stored_hashes(db_path) == []
    assert (await fake_discord.slash("willpower show")).type == 4


async def test_a_failed_sync_does_not_stop_the_bot_and_is_tried_again(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ, GUILD_ID="1")  # a server the bot is not in: Discord says 403
    [put] = fake_discord.requests_to("PUT", PUT_GUILD)
    assert put.status == 403 and bot.is_ready()
    assert await bot.sync_commands() is CommandSync.FAILED
    assert stored_hashes(db_path) == []
    fake_discord.take_violations()  # the refused PUTs, provoked on purpose


def _problems(command: dict) -> list[str]:
    """What is missing on one registered command: descriptions, integer bounds, its contexts and installs."""
    found = []
    contexts, installs = command.get("contexts"), command.get("integration_types")
    if command["name"] in SERVER_ONLY:  # and dm_permission, Discord's older way to say the same, for old clients
        if contexts != GUILD_ONLY or installs != [0] or command.get("dm_permission") is not False:
            found.append(f"/{command['name']}: not server-only (contexts {contexts}, installs {installs})")
    elif contexts != EVERYWHERE or installs != [0, 1]:
        found.append(f"/{command['name']}: not offered everywhere (contexts {contexts}, installs {installs})")

    def walk(path: str, options: list[dict]) -> None:
        for option in options:
            where = f"{path} {option['name']}"
            if option.get("description", "").strip() in ("", "…"):
                found.append(f"{where}: no description")
            if option["type"] in (INTEGER, NUMBER) and ("min_value" not in option or "max_value" not in option):
                found.append(f"{where}: a number without min_value and max_value")
            if option["type"] in (SUBCOMMAND, GROUP):
                walk(where, option.get("options") or [])

    if command.get("description", "").strip() in ("", "…"):
        found.append(f"/{command['name']}: no description")
    walk(f"/{command['name']}", command.get("options") or [])
    return found


async def test_every_command_of_the_full_bot_is_described_bounded_and_placed(start_bot, fake_discord):
    for name in EXTENSIONS:
        importlib.import_module(name)  # a cog that does not import fails this test, never skips it
    bot = await start_bot()
    registered = fake_discord.commands()
    assert names(registered) == {command.name for command in bot.tree.get_commands()}
    assert {"hex", "yz", "push", "willpower", "heroic", "test"} <= names(registered)
    problems = [problem for command in registered for problem in _problems(command)]
    for command in registered:
        if command["name"] in SERVER_ONLY:
            with pytest.raises(CannotInvoke, match="cannot be used in DMs"):
                await fake_discord.slash(command["name"], dm=True)
    assert problems == [], "\n".join(problems)


async def test_closing_lets_a_command_in_flight_answer(start_bot, fake_discord):
    """SIGTERM (bot.close) while a command is being handled: the player still gets the answer, nothing logged."""
    bot = await start_bot(extensions=("tests.bot.slow_cog",))
    in_flight = asyncio.create_task(fake_discord.slash("slow", expect_answer=False))
    await asyncio.sleep(0.1)  # the command is now sleeping inside its handler
    await fake_discord.stop()
    reply = await in_flight
    assert reply.content == "done" and bot.is_closed()
    assert fake_discord.bot_errors == []


async def test_closing_lets_a_click_in_flight_answer(start_bot, fake_discord):
    """The same for a button: the bot waits for the tasks its own checks counted (hold_interaction)."""
    bot = await start_bot(extensions=("tests.bot.slow_cog",))
    posted = await fake_discord.slash("slow", {"button": True})
    in_flight = asyncio.create_task(fake_discord.click(posted, label="Slow"))
    await asyncio.sleep(0.1)  # the click is now sleeping inside its callback
    await fake_discord.stop()
    reply = await in_flight
    assert reply.content == "clicked" and bot.is_closed()
    assert fake_discord.bot_errors == []


async def test_a_button_must_name_its_pattern(start_bot, fake_discord):
    """The bot tells clicks it takes from stale ones by each button's pattern, so a button without one is refused
    when registered, and the pattern is the template discord.py matches (its public `template`)."""
    from cogs.yearzero.cog import PushButton

    bot = await start_bot(extensions=("cogs.yearzero.cog",))
    assert PushButton(1).template is PushButton.pattern

    class Nameless(discord.ui.DynamicItem[discord.ui.Button], template=r"x:(?P<n>[0-9]+)"):
        pass

    with pytest.raises(TypeError, match="pattern"):
        bot.add_dynamic_items(Nameless)
