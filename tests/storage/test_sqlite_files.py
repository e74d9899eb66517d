"""bot/app/opening.py quick_check and the store's file watch: quick_check bounded in time, a lost file stays lost."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from bot.app.chores import purge_store
from bot.app.opening import open_sqlite, quick_check
from bot.storage.errors import StorageUnavailable
from tests.storage.reading import new_roll


def big_file(path) -> None:
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)")
        connection.execute("CREATE INDEX t_b ON t (b)")
        connection.executemany("INSERT INTO t (b) VALUES (?)", ((str(n) * 20,) for n in range(200_000)))
        connection.commit()


def test_quick_check_passes_a_sound_file(tmp_path, caplog):
    big_file(tmp_path / "sound.sqlite3")
    with closing(sqlite3.connect(tmp_path / "sound.sqlite3")) as connection, caplog.at_level(logging.WARNING):
        quick_check(connection, tmp_path / "sound.sqlite3")
    # At WARNING and above only: an earlier test's aiosqlite thread may still log its DEBUG "completed" lines here.
    assert [record for record in caplog.records if record.levelno >= logging.WARNING] == []


def test_quick_check_stops_at_its_time_limit_and_says_so(tmp_path, caplog):
    big_file(tmp_path / "big.sqlite3")
    with closing(sqlite3.connect(tmp_path / "big.sqlite3")) as connection, caplog.at_level(logging.WARNING):
        quick_check(connection, tmp_path / "big.sqlite3", seconds=0.0)
        assert connection.execute("SELECT count(*) FROM t").fetchone()[0] == 200_000  # the handler is gone
    [record] = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert "stopped after 0 s; starting anyway" in record.getMessage()


async def test_a_replaced_file_loses_the_store_once_and_for_good(tmp_path):
    path = tmp_path / "rollkeeper.sqlite3"
    db = await open_sqlite(path)
    seen: list[StorageUnavailable] = []
    db.store.on_lost = seen.append
    await db.willpower.set(1, 2, 3)
    (tmp_path / "other").write_bytes(b"")
    (tmp_path / "other").replace(path)
    for _ in range(2):
        with pytest.raises(StorageUnavailable, match="replaced by another file"):
            await db.willpower.get(1, 2)
    assert len(seen) == 1 and db.store.lost is seen[0]
    await db.close()  # closing a lost database writes nothing and raises nothing
    assert path.read_bytes() == b""


async def test_an_older_file_becomes_one_that_shrinks_at_its_first_purge(tmp_path):
    path = tmp_path / "rollkeeper.sqlite3"
    with closing(sqlite3.connect(path)) as connection:  # as older rollkeepers made it: auto_vacuum NONE
        connection.execute("CREATE TABLE older (a INTEGER)")
    now = datetime(2030, 1, 1, tzinfo=UTC)
    async with await open_sqlite(path) as db:
        assert (await db.store.fetch_one("PRAGMA auto_vacuum"))[0] == 0
        for user in range(300):
            await new_roll(db, 1, 2, user, "x" * 2000, now - timedelta(days=2))
        assert await purge_store(db, now, timedelta(hours=24)) == 300
        assert (await db.store.fetch_one("PRAGMA auto_vacuum"))[0] == 2
        assert (await db.store.fetch_one("PRAGMA freelist_count"))[0] == 0
    assert path.stat().st_size < 100_000
