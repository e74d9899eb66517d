"""Store.write_together: the writes of many /yz rolls at once, batched into one transaction (group commit)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage import Database, StorageBusy

G, C = 1111, 2222
NOW = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
LIFETIME = timedelta(hours=12)


@pytest.fixture
async def db(tmp_path: Path):
    async with await Database.open(tmp_path / "db.sqlite3", busy_timeout_ms=200) as database:
        yield database


def statements(db: Database) -> list[str]:
    """Every statement the connection runs from now on, on whichever thread (SQLite's trace callback)."""
    seen: list[str] = []
    db.store._sqlite.set_trace_callback(seen.append)
    return seen


def count_rows(path: Path, sql: str = "SELECT count(*) FROM yz_rolls") -> int:
    with sqlite3.connect(path) as connection:
        return connection.execute(sql).fetchone()[0]


async def test_rolls_stored_at_once_share_a_commit_and_each_gets_its_own_id(db: Database):
    seen = statements(db)
    ids = await asyncio.gather(*(db.rolls.create(G, C, user, "{}", NOW) for user in range(40)))
    assert len(set(ids)) == 40
    assert count_rows(db.path) == 40
    commits = sum(1 for sql in seen if sql.strip().upper() == "COMMIT")
    assert 1 <= commits < 40  # whatever queued behind the first write went in together
    for user, roll_id in enumerate(ids):
        latest = await db.rolls.latest_pending(G, C, user, NOW, LIFETIME)
        assert latest is not None and latest.id == roll_id


async def test_a_newer_roll_in_the_same_batch_supersedes_the_older(db: Database):
    first, second = await asyncio.gather(db.rolls.create(G, C, 7, "{}", NOW), db.rolls.create(G, C, 7, "{}", NOW))
    assert first < second
    assert (await db.rolls.get(first)).state == "superseded"  # by being older (V3), not by a second write
    assert (await db.rolls.latest_pending(G, C, 7, NOW, LIFETIME)).id == second


async def test_a_failing_statement_fails_alone(db: Database):
    """A write that breaks a constraint raises for its caller; the others of its batch are written."""
    store = db.store
    insert = "INSERT INTO willpower (guild_id, user_id, points) VALUES (?, ?, ?) RETURNING user_id"
    results = await asyncio.gather(
        *(store.write_together(insert, (G, user, 99 if user == 3 else user)) for user in range(6)),
        return_exceptions=True,
    )
    assert isinstance(results[3], sqlite3.IntegrityError)
    assert [written.rows[0][0] for user, written in enumerate(results) if user != 3] == [0, 1, 2, 4, 5]
    assert all(written.changed == 1 for user, written in enumerate(results) if user != 3)
    assert count_rows(db.path, "SELECT count(*) FROM willpower") == 5


async def test_a_lock_held_past_the_busy_timeout_fails_the_batch_and_writes_nothing(db: Database):
    other = sqlite3.connect(db.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        results = await asyncio.gather(
            *(db.rolls.create(G, C, user, "{}", NOW) for user in range(5)), return_exceptions=True
        )
        assert time.monotonic() - started >= 0.15  # the busy timeout (200 ms) was waited out first
        assert all(isinstance(result, StorageBusy) for result in results)
    finally:
        other.rollback()
        other.close()
    assert count_rows(db.path) == 0
    assert await db.rolls.create(G, C, 1, "{}", NOW) >= 1  # and writing works again


async def test_a_short_lock_is_waited_out_by_the_batch(db: Database):
    other = sqlite3.connect(db.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    asyncio.get_running_loop().call_later(0.05, other.rollback)
    ids = await asyncio.gather(*(db.rolls.create(G, C, user, "{}", NOW) for user in range(5)))
    other.close()
    assert len(set(ids)) == 5 and count_rows(db.path) == 5


async def test_closing_writes_what_is_queued_first(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    database = await Database.open(path)
    writes = [asyncio.create_task(database.rolls.create(G, C, user, "{}", NOW)) for user in range(25)]
    await asyncio.sleep(0)  # queued, not yet written
    await database.close()
    assert len({await write for write in writes}) == 25
    assert count_rows(path) == 25
    with pytest.raises(RuntimeError, match="closed"):
        await database.rolls.create(G, C, 1, "{}", NOW)
