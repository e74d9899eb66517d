"""A large purge (issue 9, finding 7): the bot serves first, purges in small batches behind, and the file and its
WAL shrink back afterwards.

Before: the start-up purged before connecting (18.9 s to come up with 1M expired rolls), in one DELETE that held
the database for its whole length, and the file never shrank (the WAL stayed at its peak until restart).
"""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import time
from contextlib import closing
from datetime import UTC, datetime

from bench.purge import EXPIRING_EDITS, LIFETIME, NOW, fill, fill_one_player
from bot.app.opening import open_sqlite
from tests.bot.payloads import slash_payload
from tests.drills.conftest import PLAYERS, scaled, table_of
from tests.drills.process import BotProcess, answer_of
from tests.storage.reading import new_roll, trace

TOKEN = "drill-token.purge-drill.never-log-me"
EXPIRED = scaled(60_000)


def file_sizes(path) -> tuple[int, int]:
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size, (wal.stat().st_size if wal.exists() else 0)


async def until_logged(bot: BotProcess, words: str, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while words not in bot.log():
        assert bot.process.returncode is None and loop.time() < deadline, bot.log()
        await asyncio.sleep(0.05)


async def test_the_bot_serves_before_a_large_purge_and_the_file_shrinks_after(fake_discord, tmp_path):
    path = tmp_path / "rollkeeper.sqlite3"
    await fill(path, EXPIRED, datetime.now(UTC))
    size_before, _ = file_sizes(path)
    settings = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(path), "LOG_LEVEL": "INFO"}
    bot = await BotProcess.start(fake_discord, tmp_path, tmp_path / "bot.log", **settings)
    await bot.until_ready()
    payload = slash_payload(fake_discord, "yz", {"attribute": 2, "skill": 2}, user=PLAYERS[5], channel=table_of(5))
    reply = await answer_of(fake_discord, payload)
    assert reply.embed["description"].startswith("Year Zero")
    await until_logged(bot, f"Purged {EXPIRED} expired Year Zero rolls")
    log = bot.log()
    assert log.index("Ready as ") < log.index("Purged "), "the start waited for the purge"
    size_after, wal_after = file_sizes(path)
    assert size_after < size_before / 4, (size_before, size_after)
    assert wal_after < 1_000_000, wal_after
    assert await bot.stop() == 0
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("SELECT count(*) FROM yz_rolls").fetchone()[0] == 1001  # 1000 fresh, 1 new
        assert connection.execute("PRAGMA auto_vacuum").fetchone()[0] == 2


async def test_a_statement_waits_for_one_batch_of_the_purge_not_all_of_it(tmp_path):
    path = tmp_path / "rollkeeper.sqlite3"
    await fill(path, 20_000)
    async with await open_sqlite(path) as db:
        purge = asyncio.create_task(db.store.purge("yz_rolls", NOW - LIFETIME, batch=100))
        await asyncio.sleep(0.01)  # the purge is under way
        await new_roll(db, 1, 2, 3, "{}", NOW)  # queued behind at most one batch of the purge's
        assert not purge.done(), "the roll waited for the whole purge"
        assert await purge == 20_000


BUSY_PLAYER_ROLLS = scaled(200_000)
STATEMENT_LIMIT = 0.050


async def test_the_lookup_before_the_purge_holds_the_store_no_longer_than_a_purge_batch(tmp_path):
    """Issue 18: one player's expired rolls, each with its message. The chore's lookup of the rolls about to
    expire (to mark their messages ended) runs on the store's one thread before the purge, a statement at a time,
    so a /yz queued behind it waits for one statement at most: none may take over 50 ms, and none more than the
    purge's dearest batch delete (before, one lookup scanned every roll of the player: 74 ms at 100,000 rolls).

    Each statement's cost is the store thread's own CPU time from its start to the next statement's start
    (`time.thread_time`, read in SQLite's trace callback on that thread): the machine's other load and the
    thread's idle waits do not count, and Python's garbage collector is off meanwhile (its pauses, on whichever
    thread allocates, are this test process's and not the store's). The wall-clock wait of a /yz behind the
    whole purge is measured by `python -m bench --only purge`."""
    path = tmp_path / "rollkeeper.sqlite3"
    await fill_one_player(path, BUSY_PLAYER_ROLLS)
    async with await open_sqlite(path) as db:
        starts: list[tuple[float, str]] = []
        await trace(db, lambda sql: starts.append((time.thread_time(), sql)))
        gc.disable()
        try:
            expiring = await db.rolls.expiring(NOW, LIFETIME, EXPIRING_EDITS)
            looked_up = len(starts)
            assert await db.store.purge("yz_rolls", NOW - LIFETIME) == BUSY_PLAYER_ROLLS
            await db.store.fetch_one("SELECT 1")  # the purge's last statement ends where this one starts
        finally:
            gc.enable()
    costs = [(later - began, sql) for (began, sql), (later, _) in zip(starts, starts[1:], strict=False)]
    lookup, deletes = costs[:looked_up], [cost for cost, sql in costs[looked_up:] if "DELETE" in sql]
    assert [roll.user_id for roll in expiring] == [3] * len(expiring) and len(deletes) > 10
    longest, statement = max(lookup)
    assert longest <= min(STATEMENT_LIMIT, max(deletes)), f"{longest:.3f} s of the store's thread: {statement}"
