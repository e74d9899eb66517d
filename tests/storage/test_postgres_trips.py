"""What a roll costs in trips to PostgreSQL (issue 19: one per interaction), counted with asyncpg's query logger on
a pool of one connection; and what one statement per roll must keep, on both databases: a repeat delivered at once
through two stores, or after its roll was withdrawn, stores the roll once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.storage.database import Storage
from bot.storage.postgres import MIGRATION_LOCK, PostgresDatabase
from bot.storage.roll_log import NewEntry
from tests.storage.reading import create_for

G, C, U = 1111, 2222, 3333
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
INTERACTION = 1_500_000_000_000_000_101


def entry(events: str = "1/2:1") -> NewEntry:
    return NewEntry(G, C, U, "yearzero", "roll", "Success", events, {"pushes": 0, "willpower": 0, "banes": 0})


@pytest.fixture
async def one_connection(postgres_url) -> AsyncIterator[tuple[PostgresDatabase, list[str]]]:
    """A database on a pool of one connection, and every query that connection sends from now on."""
    sent: list[str] = []
    async with await PostgresDatabase.open(postgres_url, max_connections=1) as db:
        async with db.store.connection() as connection:
            connection.add_query_logger(lambda record: sent.append(record.query))
        yield db, sent


async def logged(sent: list[str]) -> list[str]:
    await asyncio.sleep(0)  # asyncpg calls the logger soon after each query
    return [query.split()[0].upper() for query in sent]


async def test_a_roll_that_supersedes_another_is_one_statement_and_its_release_sends_nothing(one_connection):
    db, sent = one_connection
    older = await create_for(db, INTERACTION, G, C, U, '{"n": 1}', NOW, 2, log=entry())
    sent.clear()
    newer, replaced = await db.rolls.create_superseding(INTERACTION + 1, G, C, U, '{"n": 2}', NOW, 2, log=entry())
    assert await logged(sent) == ["WITH"]  # no BEGIN, COMMIT, lock, nor the pool's reset on release
    assert replaced is not None and replaced.id == older.id and newer.id > older.id
    logged_entry = await db.log.get(newer.id)
    assert logged_entry is not None and logged_entry.events == ("1/2:1",)
    sent.clear()
    again, none = await db.rolls.create_superseding(INTERACTION + 1, G, C, U, '{"n": 3}', NOW, 2, log=entry())
    assert await logged(sent) == ["WITH"] and again.id == newer.id and again.payload == '{"n": 2}' and none is None


async def test_a_connection_released_inside_a_transaction_is_rolled_back(one_connection):
    db, sent = one_connection
    async with db.store.connection() as connection:
        await connection.execute("BEGIN")
        await connection.execute("INSERT INTO meta (key, value) VALUES ('left', 'open')")
    assert await logged(sent) == ["BEGIN", "INSERT", "ROLLBACK"]
    async with db.store.connection() as connection:
        assert not connection.is_in_transaction()
        assert await connection.fetchval("SELECT count(*) FROM meta WHERE key = 'left'") == 0
        # migrate's session lock was given back by migrate itself: the reset no longer does it.
        held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = $1"
        assert await connection.fetchval(held, MIGRATION_LOCK & 0xFFFFFFFF) == 0


async def test_a_roll_delivered_twice_at_once_through_two_stores_is_stored_once(db: Storage, open_db):
    second = await open_db()
    try:
        for n in range(4):
            interaction = INTERACTION + 10 + n
            stores = [store.rolls.create_superseding(interaction, G, C, U, f'{{"n": {n}}}', NOW, log=entry())
                      for store in (db, second)]
            (first, _), (other, _) = await asyncio.gather(*stores)
            assert first.id == other.id and first.payload == other.payload
    finally:
        await second.close()
    pages = await db.log.page(G, C, U, limit=10)
    assert len(pages) == 4  # four interactions, each logged once


async def test_a_repeat_of_a_withdrawn_roll_stores_it_anew(db: Storage):
    roll = await create_for(db, INTERACTION, G, C, U, '{"n": 1}', NOW, log=entry())
    assert await db.rolls.withdraw(roll.id)
    again = await create_for(db, INTERACTION, G, C, U, '{"n": 1}', NOW, log=entry())
    stored = await db.rolls.get(again.id)
    assert stored is not None and stored.payload == '{"n": 1}' and await db.log.get(again.id) is not None
