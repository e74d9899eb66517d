"""What each write costs in trips to aiosqlite's worker thread, and how writes queued together behave.

Every statement is one trip (SQLite's trace callback sees each one), so the statements a write runs are the
trips it makes: a spend (one atomic UPDATE), a roll and a push claim are each one transaction in one trip.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.opening import open_sqlite
from bot.storage.errors import StorageBusy
from bot.storage.roll_log import NewEntry
from bot.storage.sqlite import Database
from tests.storage.reading import create_for, new_roll, trace

G, C = 1111, 2222
NOW = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
LIFETIME = timedelta(hours=12)


@pytest.fixture
async def db(tmp_path: Path):
    async with await open_sqlite(tmp_path / "db.sqlite3", busy_timeout_ms=200) as database:
        yield database


async def statements(db: Database) -> list[str]:
    """Every statement the connection runs from now on (SQLite's trace callback, on the worker thread)."""
    seen: list[str] = []
    await trace(db, seen.append)
    return seen


def verbs(seen: list[str]) -> list[str]:
    return [sql.split()[0].upper() for sql in seen]


def count_rows(path: Path, sql: str = "SELECT count(*) FROM yz_rolls") -> int:
    with sqlite3.connect(path) as connection:
        return connection.execute(sql).fetchone()[0]


async def test_a_roll_is_one_trip_of_its_insert_and_its_look_back(db: Database, monkeypatch):
    seen = await statements(db)
    hops = count_hops(monkeypatch, db)
    await new_roll(db, G, C, 7, "{}", NOW)
    # SQLite's trace repeats a statement's text for each trigger it fires (V5's keeps the roll log's ids apart).
    assert verbs(list(dict.fromkeys(seen))) == ["BEGIN", "INSERT", "SELECT", "COMMIT"] and len(hops) == 1


async def test_a_pushable_roll_is_stored_with_its_log_entry_in_one_transaction(db: Database):
    entry = NewEntry(G, C, 7, "yearzero", "roll", "Success", "1/2:1", {"pushes": 0, "willpower": 0, "banes": 0})
    seen = await statements(db)
    roll = await create_for(db, 900, G, C, 7, "{}", NOW, 2, log=entry)
    # The applied interaction's recall, the roll, the interaction, the log entry, the roll it superseded: no
    # second trip after it.
    assert verbs(list(dict.fromkeys(seen))) == ["BEGIN", "SELECT", "INSERT", "INSERT", "INSERT", "SELECT", "COMMIT"]
    logged = await db.log.get(roll.id)
    assert logged is not None and logged.events == ("1/2:1",) and logged.user_id == 7
    seen.clear()
    assert (await create_for(db, 900, G, C, 7, '{"other": 1}', NOW, 2, log=entry)).id == roll.id  # a repeat
    assert "INSERT" not in verbs(seen) and count_rows(db.store.path, "SELECT count(*) FROM roll_log") == 1


async def test_a_withdrawn_roll_takes_its_log_entry_with_it(db: Database):
    entry = NewEntry(G, C, 7, "yearzero", "roll", "Success")
    roll = await create_for(db, 901, G, C, 7, "{}", NOW, log=entry)
    assert await db.rolls.withdraw(roll.id)
    assert await db.log.get(roll.id) is None and count_rows(db.store.path) == 0


async def test_a_spend_is_one_transaction_in_one_trip_and_a_refused_one_reads_once_more(db: Database, monkeypatch):
    await db.willpower.set(G, 7, 5)
    seen = await statements(db)
    hops = count_hops(monkeypatch, db)
    assert (await db.willpower.spend(G, 7, 2, interaction_id=70)).after == 3
    # The applied interaction's recall, the spend (one atomic UPDATE), the interaction remembered.
    assert verbs(seen) == ["BEGIN", "SELECT", "UPDATE", "INSERT", "COMMIT"] and len(hops) == 1
    seen.clear()
    with pytest.raises(Exception, match="Willpower"):
        await db.willpower.spend(G, 7, 4, interaction_id=71)
    assert verbs(seen) == ["BEGIN", "SELECT", "UPDATE", "COMMIT", "SELECT"]


async def test_a_push_claim_is_one_transaction_of_four_statements_in_one_trip(db: Database, monkeypatch):
    roll_id = await new_roll(db, G, C, 7, "{}", NOW)
    await db.willpower.set(G, 7, 9)
    seen = await statements(db)
    hops = count_hops(monkeypatch, db)
    claim = await db.rolls.claim_push(roll_id, 7, "{}", 3, NOW, LIFETIME)
    assert claim.refusal is None and (claim.willpower.before, claim.willpower.after, claim.willpower.lost) == (9, 10, 2)
    assert verbs(seen) == ["BEGIN", "UPDATE", "INSERT", "COMMIT"] and len(hops) == 1
    assert await db.willpower.get(G, 7) == 10


async def test_rolls_stored_at_once_each_get_their_own_id(db: Database):
    ids = await asyncio.gather(*(new_roll(db, G, C, user, "{}", NOW) for user in range(40)))
    assert len(set(ids)) == 40 and count_rows(db.store.path) == 40
    for user, roll_id in enumerate(ids):
        latest = await db.rolls.latest_pending(G, C, user, NOW, LIFETIME)
        assert latest is not None and latest.id == roll_id


async def test_a_lock_held_past_the_busy_timeout_fails_the_waiting_writes_at_once(db: Database):
    """The first write waits out the busy timeout (200 ms); those queued behind it give up with it, instead of
    each waiting 200 ms more in turn."""
    other = sqlite3.connect(db.store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        results = await asyncio.gather(
            *(new_roll(db, G, C, user, "{}", NOW) for user in range(5)), return_exceptions=True
        )
        waited = time.monotonic() - started
    finally:
        other.rollback()
        other.close()
    assert all(isinstance(result, StorageBusy) for result in results)
    assert 0.15 <= waited < 0.6
    assert count_rows(db.store.path) == 0
    assert await new_roll(db, G, C, 1, "{}", NOW) >= 1  # and writing works again


async def test_a_short_lock_is_waited_out(db: Database):
    other = sqlite3.connect(db.store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    asyncio.get_running_loop().call_later(0.05, other.rollback)
    ids = await asyncio.gather(*(new_roll(db, G, C, user, "{}", NOW) for user in range(5)))
    other.close()
    assert len(set(ids)) == 5 and count_rows(db.store.path) == 5


async def test_a_failed_transaction_writes_nothing(db: Database):
    with pytest.raises(ZeroDivisionError):
        async with db.store.transaction() as transaction:
            await transaction.fetch_all("INSERT INTO meta (key, value) VALUES ('a', 'b')")
            1 / 0  # noqa: B018
    assert await db.meta.get("a") is None
    await db.meta.set("a", "c")  # and the connection is out of the transaction
    assert await db.meta.get("a") == "c"


async def test_closing_writes_what_is_queued_first(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    database = await open_sqlite(path)
    writes = [asyncio.create_task(new_roll(database, G, C, user, "{}", NOW)) for user in range(25)]
    await asyncio.sleep(0)  # queued, not yet written
    await database.close()
    assert len({await write for write in writes}) == 25
    assert count_rows(path) == 25
    with pytest.raises(RuntimeError, match="closed"):
        await new_roll(database, G, C, 1, "{}", NOW)


async def test_aiosqlite_runs_a_function_on_its_thread_with_its_sqlite3_connection(db: Database):
    """Pins the DEP in Store.in_one_trip: aiosqlite's private Connection._execute(fn, *args) runs fn on the
    connection's worker thread and gives back its result; Connection._conn is the sqlite3 connection."""
    connection = db.store._connection  # noqa: SLF001
    assert connection is not None
    raw = connection._conn  # noqa: SLF001
    assert isinstance(raw, sqlite3.Connection)
    here = threading.get_ident()
    ran_on, total = await connection._execute(lambda c: (threading.get_ident(), c.total_changes), raw)  # noqa: SLF001
    assert ran_on != here and total == raw.total_changes


def count_hops(monkeypatch: pytest.MonkeyPatch, db: Database) -> list[str]:
    """Every hop to aiosqlite's worker thread from now on (each is one Connection._execute), by function name."""
    connection = db.store._connection  # noqa: SLF001
    hops: list[str] = []
    execute = connection._execute  # noqa: SLF001

    async def counted(fn, *args, **kwargs):
        hops.append(getattr(fn, "__name__", repr(fn)))
        return await execute(fn, *args, **kwargs)

    monkeypatch.setattr(connection, "_execute", counted)
    return hops


async def test_a_roll_its_entry_and_the_roll_it_supersedes_are_one_trip(db: Database, monkeypatch):
    entry = NewEntry(G, C, 7, "yearzero", "roll", "Success", "1/2:1", {"pushes": 0, "willpower": 0, "banes": 0})
    older, none = await db.rolls.create_superseding(910, G, C, 7, '{"n": 1}', NOW, log=entry)
    assert none is None
    seen = await statements(db)
    hops = count_hops(monkeypatch, db)
    newer, replaced = await db.rolls.create_superseding(911, G, C, 7, '{"n": 2}', NOW, log=entry)
    assert len(hops) == 1 and replaced is not None and replaced.id == older.id and newer.id > older.id
    assert verbs(list(dict.fromkeys(seen))) == ["BEGIN", "SELECT", "INSERT", "INSERT", "INSERT", "SELECT", "COMMIT"]
    assert count_rows(db.store.path, "SELECT count(*) FROM roll_log") == 2


async def test_a_body_that_fails_in_its_one_trip_writes_nothing(db: Database):
    async def half(session) -> None:
        await session.fetch_all("INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at)"
                                " VALUES (1, 2, 3, '{}', 0)")
        raise ValueError("the body changed its mind")

    with pytest.raises(ValueError, match="changed its mind"):
        await db.store.in_one_trip(half)
    assert count_rows(db.store.path) == 0
    assert await new_roll(db, G, C, 7, "{}", NOW)  # the connection is usable: no transaction left open


async def test_a_body_that_awaits_anything_else_is_refused_and_rolled_back(db: Database):
    async def strays(session) -> None:
        await session.fetch_all("INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at)"
                                " VALUES (1, 2, 3, '{}', 0)")
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="one trip"):
        await db.store.in_one_trip(strays)
    assert count_rows(db.store.path) == 0
