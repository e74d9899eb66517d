"""Storage in real SQLite files: opening, PRAGMAs, migrations, locks, extended tests, meta."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from bot.app.opening import check_database_path, connect_sqlite, open_sqlite, probe_database
from bot.errors import PlayerError
from bot.storage.errors import (
    InvalidValue,
    NoSuchExtendedTest,
    StorageBusy,
    StorageError,
    StorageUnavailable,
    TaskComplete,
)
from bot.storage.schema import Migration, load_migrations
from bot.storage.sqlite import Database, migrate
from rules.sevenkingdoms.extended import still_needed
from tests.storage.reading import add_degrees, add_willpower, delete_meta, schema_version, start_task

G, C, U = 1111, 2222, 3333


@pytest.fixture
async def db(tmp_path: Path):
    async with await open_sqlite(tmp_path / "db.sqlite3", busy_timeout_ms=200) as database:
        yield database


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows}


# --- opening and PRAGMAs --------------------------------------------------------------------------


async def test_pragmas_are_set(db: Database):
    """SQLite waits for another program's lock itself (busy_timeout, 200 ms here): on aiosqlite's thread, so the
    event loop goes on meanwhile (next test)."""
    pragmas = {}
    for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
        pragmas[name] = (await db.store.fetch_one(f"PRAGMA {name}"))[0]
    assert pragmas == {"journal_mode": "wal", "synchronous": 1, "foreign_keys": 1, "busy_timeout": 200}


async def test_a_lock_held_elsewhere_is_waited_for_without_blocking_the_event_loop(db: Database):
    """While another program holds the write lock, the write waits (busy_timeout is 200 ms here) and the
    event loop keeps running other work; the write succeeds once the lock is released."""
    other = sqlite3.connect(db.store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    ticks = 0

    async def tick():
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.005)

    ticker = asyncio.create_task(tick())
    asyncio.get_running_loop().call_later(0.1, other.rollback)
    change = await add_willpower(db, G, U, 3)
    ticker.cancel()
    other.close()
    assert change.after == 3
    assert ticks >= 10  # about 20 in 100 ms: the loop was never held by the wait


async def test_missing_directory_is_named(tmp_path: Path):
    path = tmp_path / "no" / "such" / "db.sqlite3"
    with pytest.raises(StorageUnavailable) as caught:
        await open_sqlite(path)
    assert str(path) in str(caught.value) and "does not exist" in str(caught.value)
    assert not (tmp_path / "no").exists()


async def test_parent_that_is_a_file_is_named(tmp_path: Path):
    (tmp_path / "plain").write_text("not a directory")
    path = tmp_path / "plain" / "db.sqlite3"
    with pytest.raises(StorageUnavailable, match="is not a directory") as caught:
        await open_sqlite(path)
    assert str(path) in str(caught.value)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes through permissions")
async def test_unwritable_directory_is_named(tmp_path: Path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        with pytest.raises(StorageUnavailable, match="not writable") as caught:
            await open_sqlite(locked / "db.sqlite3")
        assert str(locked / "db.sqlite3") in str(caught.value)
    finally:
        locked.chmod(0o700)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_probe_catches_what_permissions_do_not_show():
    with pytest.raises(StorageUnavailable, match="/proc/rollkeeper.sqlite3"):
        probe_database(check_database_path("/proc/rollkeeper.sqlite3"))


def test_probe_refuses_a_file_that_is_not_a_database(tmp_path: Path):
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are not the pages you are looking for" * 100)
    with pytest.raises(StorageUnavailable, match="not a database"):
        probe_database(path)


async def test_use_after_close_is_a_clear_error(tmp_path: Path):
    database = await open_sqlite(tmp_path / "db.sqlite3")
    await database.close()
    await database.close()
    with pytest.raises(RuntimeError, match="closed"):
        await database.willpower.get(G, U)


# --- migrations -----------------------------------------------------------------------------------


async def test_fresh_database_gets_every_migration(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    async with await open_sqlite(path) as database:
        assert await schema_version(database) == len(load_migrations()) >= 1
    assert {"yz_rolls", "willpower", "extended_tests", "meta"} <= tables(path)


async def test_reopening_is_idempotent_and_keeps_data(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    async with await open_sqlite(path) as database:
        await database.willpower.set(G, U, 7)
    before = tables(path)
    async with await open_sqlite(path) as database:
        assert await schema_version(database) == len(load_migrations())
        assert await database.willpower.get(G, U) == 7
    assert tables(path) == before


async def test_a_later_migration_applies_on_top(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    await (await open_sqlite(path)).close()
    later = [
        *load_migrations(),
        Migration(len(load_migrations()) + 1, "notes", "CREATE TABLE notes (x TEXT);"),
    ]
    async with await open_sqlite(path, migrations=later) as database:
        assert await schema_version(database) == len(later)
    assert "notes" in tables(path)


async def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    await (await open_sqlite(path)).close()
    broken_sql = "CREATE TABLE half (x TEXT);\nINSERT INTO no_such_table VALUES (1);"
    broken = [*load_migrations(), Migration(len(load_migrations()) + 1, "broken", broken_sql)]
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        await open_sqlite(path, migrations=broken)
    async with await open_sqlite(path) as database:
        assert await schema_version(database) == len(load_migrations())
    assert "half" not in tables(path)


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA user_version = 99")
    with pytest.raises(StorageError, match="schema version 99"):
        await open_sqlite(path)


def test_migration_numbers_must_not_have_gaps(tmp_path: Path):
    (tmp_path / "V1__a.sql").write_text("CREATE TABLE a (x);")
    (tmp_path / "V3__c.sql").write_text("CREATE TABLE c (x);")
    with pytest.raises(StorageError, match="no gaps"):
        load_migrations(directory=tmp_path)


def test_statements_split_where_sqlite_says():
    sql = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN UPDATE t SET x = 'c;d'; END;
    """
    statements = Migration(1, "t", sql).statements()
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


async def test_two_processes_migrating_at_once_apply_each_migration_once(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    stores = [await connect_sqlite(path, 2000) for _ in range(2)]
    try:
        versions = await asyncio.gather(*(migrate(store) for store in stores))
        assert versions == [len(load_migrations())] * 2
    finally:
        for store in stores:
            await store.close()


# --- a database locked by someone else ------------------------------------------------------------


@pytest.fixture
def held_lock(db: Database):
    """Another connection holding the write lock on db's file until the test ends (or releases it)."""
    other = sqlite3.connect(db.store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    yield other
    if other.in_transaction:
        other.rollback()
    other.close()


async def test_locked_database_is_busy_and_nothing_is_written(db: Database, held_lock: sqlite3.Connection):
    started = time.monotonic()
    with pytest.raises(StorageBusy) as caught:
        await add_willpower(db, G, U, 3)
    assert time.monotonic() - started >= 0.15  # waited for busy_timeout (200 ms) first
    assert isinstance(caught.value, PlayerError) and "try again" in caught.value.message
    with pytest.raises(StorageBusy):
        await start_task(db, G, C, "Climb", 5)
    held_lock.rollback()
    assert await db.willpower.get(G, U) == 0
    assert await db.extended.get(G, C, "Climb") is None
    assert (await add_willpower(db, G, U, 3)).after == 3  # and the connection works again


async def test_a_database_locked_at_start_up_is_named(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA journal_mode = WAL")
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageUnavailable, match="locked") as caught:
            await open_sqlite(path, busy_timeout_ms=100)
        assert str(path) in str(caught.value)
    finally:
        other.rollback()
        other.close()


async def test_a_short_lock_is_waited_out(tmp_path: Path):
    async with await open_sqlite(tmp_path / "db.sqlite3", busy_timeout_ms=3000) as database:
        other = sqlite3.connect(database.store.path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        asyncio.get_running_loop().call_later(0.1, other.rollback)
        assert (await add_willpower(database, G, U, 2)).after == 2
        other.close()


# --- extended tests -------------------------------------------------------------------------------


async def test_extended_progress(db: Database):
    started = await start_task(db, G, C, "  Climb   the Wall ", 5)
    assert (started.name, started.needed, started.progress) == ("Climb the Wall", 5, 0)
    assert not started.complete
    assert (await add_degrees(db, G, C, "climb the wall", 2)).progress == 2
    done = await add_degrees(db, G, C, "CLIMB THE WALL", 4)
    assert (done.progress, done.complete, still_needed(done.needed, done.progress)) == (6, True, 0)
    assert await db.extended.get(G, C, "Climb the wall") == done
    assert await db.extended.get(G, C + 1, "Climb the wall") is None


async def test_extended_concurrent_adds_all_count(db: Database):
    await start_task(db, G, C, "Siege", 100)
    await asyncio.gather(*(add_degrees(db, G, C, "Siege", degrees) for degrees in range(1, 11)))
    assert (await db.extended.get(G, C, "Siege")).progress == 55


async def test_extended_listing_restart_and_clear(db: Database):
    await start_task(db, G, C, "Siege", 10)
    await start_task(db, G, C, "Ambush", 3)
    await start_task(db, G, C + 1, "Elsewhere", 3)
    await add_degrees(db, G, C, "Siege", 4)
    assert [task.name for task in await db.extended.in_channel(G, C)] == ["Ambush", "Siege"]
    restarted = await start_task(db, G, C, "siege", 8)
    assert (restarted.name, restarted.needed, restarted.progress) == ("siege", 8, 0)
    assert await db.extended.clear(G, C, "SIEGE") is True
    assert await db.extended.clear(G, C, "Siege") is False
    assert [task.name for task in await db.extended.in_channel(G, C)] == ["Ambush"]


async def test_extended_refusals(db: Database):
    with pytest.raises(NoSuchExtendedTest, match='"Nothing"'):
        await add_degrees(db, G, C, "Nothing", 1)
    for name, needed in (("", 3), ("x" * 101, 3), ("Fine", 0)):
        with pytest.raises(InvalidValue):
            await start_task(db, G, C, name, needed)
    await start_task(db, G, C, "Fine", 3)
    with pytest.raises(InvalidValue):
        await add_degrees(db, G, C, "Fine", -1)
    assert (await db.extended.get(G, C, "Fine")).progress == 0


async def test_extended_record_starts_and_counts_in_one_transaction(db: Database):
    first = await db.extended.record(G, C, "Forge", 4, 2, fresh=True)
    assert (first.needed, first.progress) == (4, 2)
    assert (await db.extended.record(G, C, "forge", 4, 1, fresh=False)).progress == 3
    with pytest.raises(NoSuchExtendedTest):
        await db.extended.record(G, C, "Nowhere", 4, 1, fresh=False)
    assert await db.extended.get(G, C, "Nowhere") is None


async def test_extended_record_counts_no_roll_after_completion(db: Database):
    """Rolls racing for a nearly finished task: once it is complete, later ones are refused, not counted."""
    await start_task(db, G, C, "Siege", 3)
    outcomes = await asyncio.gather(
        *(db.extended.record(G, C, "Siege", 3, 2, fresh=False) for _ in range(5)), return_exceptions=True
    )
    counted = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(counted) == 2 and all(isinstance(o, TaskComplete) for o in outcomes if o not in counted)
    assert (await db.extended.get(G, C, "Siege")).progress == 4


async def test_extended_record_refused_start_leaves_nothing(db: Database):
    await db.extended.record(G, C, "Done", 1, 1, fresh=True)
    with pytest.raises(InvalidValue):
        await db.extended.record(G, C, "Done", 0, 1, fresh=True)
    assert (await db.extended.get(G, C, "Done")).progress == 1


# --- meta -----------------------------------------------------------------------------------------


async def test_meta_keeps_values(db: Database):
    assert await db.meta.get("commands_hash") is None
    await db.meta.set("commands_hash", "abc")
    await db.meta.set("commands_hash", "def")
    assert await db.meta.get("commands_hash") == "def"
    assert await delete_meta(db, "commands_hash") is True
    assert await db.meta.get("commands_hash") is None


async def test_connections_opening_a_new_file_at_once_all_switch_it_to_wal(tmp_path):
    """Several processes (or stores) starting on a new file at once: none is refused "database is locked" while
    another switches the file to WAL; each ends in WAL mode."""
    import asyncio

    for attempt in range(6):
        path = tmp_path / f"fresh-{attempt}.sqlite3"
        stores = await asyncio.gather(*(connect_sqlite(path) for _ in range(8)))
        try:
            modes = [(await store.fetch_one("PRAGMA journal_mode"))[0] for store in stores]
            assert modes == ["wal"] * 8
        finally:
            for store in stores:
                await store.close()
