"""The database file itself goes wrong (issue 9, finding 10, and the start-up check).

- Damaged before start: `python -m bot` runs PRAGMA quick_check and exits 2 with one line naming the file.
- Deleted or replaced while the bot runs: the bot notices (a timer, and before every statement), stops with
  a clear line and exit code 2, instead of writing on into a file no one will open again (all lost at restart).
- Damaged while the bot runs: the first statement that reads a damaged page stops the bot the same way,
  instead of answering "try again" to every command forever.
"""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest

from bot.app.chores import FILE_WATCH_SECONDS
from bot.interactions.tree import DATABASE_LOST
from tests.bot.app.test_main import SECRET, assert_clean_refusal, run_bot
from tests.bot.payloads import slash_payload
from tests.drills.conftest import PLAYERS, table_of
from tests.drills.damage import damaged_database
from tests.drills.process import BotProcess, answer_of
from tests.drills.reading import answered_once, private_text

TOKEN = "drill-token.files-drill.never-log-me"
PLAYER = PLAYERS[3]
STOPPED_WITHIN = FILE_WATCH_SECONDS + 25.0
"""The watch looks every FILE_WATCH_SECONDS; the rest is room for a slow, shared machine."""


@pytest.fixture
def settings(tmp_path) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "rollkeeper.sqlite3"), "LOG_LEVEL": "INFO"}


def without_database(path) -> None:
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


async def rolled(fake, bot: BotProcess) -> None:
    await bot.until_ready()
    reply = await answer_of(fake, slash_payload(fake, "yz", {"attribute": 2, "skill": 2}, user=PLAYER,
                                                channel=table_of(3)))
    assert reply.embed["description"].startswith("Year Zero"), reply.describe()


async def stopped_with(bot: BotProcess, words: str) -> str:
    code = await asyncio.wait_for(bot.process.wait(), STOPPED_WITHIN)
    log = bot.log()
    assert code == 2, log
    assert words in log and "restore a backup" in log, log
    assert "Traceback" not in log and TOKEN not in log, log
    return log


async def test_a_damaged_file_is_refused_at_start_up_with_one_line(tmp_path):
    path = tmp_path / "rollkeeper.sqlite3"
    await damaged_database(path)
    result = run_bot(tmp_path, DISCORD_TOKEN=SECRET, DATABASE_PATH=str(path))
    stderr = assert_clean_refusal(result)
    assert str(path) in stderr and "damaged" in stderr and "restore a backup" in stderr


async def test_a_file_deleted_while_the_bot_runs_stops_it(fake_discord, tmp_path, settings):
    bot = await BotProcess.start(fake_discord, tmp_path, tmp_path / "bot.log", **settings)
    await rolled(fake_discord, bot)
    without_database(tmp_path / "rollkeeper.sqlite3")
    await stopped_with(bot, "the file was deleted while the bot ran")
    assert not (tmp_path / "rollkeeper.sqlite3").exists(), "the bot wrote a new, empty database in its place"


async def test_a_file_replaced_while_the_bot_runs_stops_it(fake_discord, tmp_path, settings):
    bot = await BotProcess.start(fake_discord, tmp_path, tmp_path / "bot.log", **settings)
    await rolled(fake_discord, bot)
    path = tmp_path / "rollkeeper.sqlite3"
    shutil.copy(path, tmp_path / "copy.sqlite3")
    os.replace(tmp_path / "copy.sqlite3", path)  # as a restore with `cp` over a running bot's file would
    await stopped_with(bot, "the file was replaced by another file while the bot ran")


async def test_a_file_damaged_while_the_bot_runs_stops_it_at_the_first_damaged_read(start_bot, fake_discord, db_path):
    await damaged_database(db_path)  # in process, start_bot skips main()'s quick_check: as if damaged since
    bot = await start_bot(extensions=("cogs.willpower.cog",))
    reply = await fake_discord.slash("willpower show")
    assert answered_once(reply) and private_text(reply) == DATABASE_LOST, reply.describe()
    for _ in range(100):
        if bot.is_closed():
            break
        await asyncio.sleep(0.05)
    assert bot.is_closed() and bot.lost_database is not None
    assert "database disk image is malformed" in str(bot.lost_database)


async def test_an_idle_bot_notices_its_file_deleted_by_its_timer(start_bot, fake_discord, db_path, monkeypatch):
    """No statement runs after the deletion, so only the watch's timer can notice: no cog, no roll, the start's
    purge done before the file goes, and the shard lease renewed far later than the test waits (its renewal is a
    statement, which would notice the deletion too)."""
    monkeypatch.setattr("bot.app.chores.FILE_WATCH_SECONDS", 0.05)
    bot = await start_bot(extensions=(), LEASE_TTL_SECONDS="3600", LEASE_RENEW_SECONDS="1800")
    await asyncio.wait_for(bot.first_purge_done.wait(), 30.0)
    without_database(db_path)
    for _ in range(600):  # up to 30 s on a loaded machine; the watch looks every 0.05 s
        if bot.is_closed():
            break
        await asyncio.sleep(0.05)
    assert bot.is_closed() and "the file was deleted" in str(bot.lost_database)
    assert not db_path.exists()
