"""A public roll is answered before it is logged (bot.interactions.logbook): a database busy at that moment delays
the log entry, it does not lose it."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.interactions.logbook import LATE_LOG_PAUSE, LATE_LOG_TRIES
from tests.bot.test_faults import GUILD, idle, query

BUSY_TIMEOUT_MS = 300
HEX = ("cogs.hex.cog",)


@pytest.fixture
def fake_guilds():
    return (GUILD,)


async def test_a_public_roll_is_logged_once_the_database_is_free_again(start_bot, fake_discord, db_path):
    """Another program holds the write lock past the busy timeout when the roll is logged; it lets go before the
    last try: the roll was answered at once and is logged once, after all."""
    bot = await start_bot(extensions=HEX, busy_timeout_ms=BUSY_TIMEOUT_MS)
    locker = sqlite3.connect(db_path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    held = BUSY_TIMEOUT_MS / 1000 + LATE_LOG_PAUSE / 2  # past the first try, well before the last
    assert held < (LATE_LOG_TRIES - 1) * (BUSY_TIMEOUT_MS / 1000 + LATE_LOG_PAUSE)
    asyncio.get_running_loop().call_later(held, locker.rollback)
    try:
        reply = await fake_discord.slash("hex plain", {"dice": 3})
        assert reply.embeds and not reply.flags & 64, reply.describe()  # answered, in public
        await idle(bot)
    finally:
        locker.close()
    assert query(db_path, "SELECT system FROM roll_log") == [("hex",)]
