"""The two stores side by side: every test here that takes `db` or `open_db` runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.app.opening import open_sqlite
from bot.storage.database import Storage
from bot.storage.postgres import PostgresDatabase
from bot.storage.schema import load_migrations

Opener = Callable[[], Awaitable[Storage]]


@pytest.fixture(params=["sqlite", "postgres"])
def kind(request) -> str:
    return request.param


@pytest.fixture
def open_db(kind, tmp_path, request) -> Opener:
    """Opens one more connection (SQLite) or pool (PostgreSQL) on this test's database: call it twice for two
    bot processes sharing one store."""
    if kind == "sqlite":
        path = tmp_path / "contract.sqlite3"
        return lambda: open_sqlite(path, busy_timeout_ms=10_000)  # robust, not tight, on a loaded machine
    url = request.getfixturevalue("postgres_url")
    return lambda: PostgresDatabase.open(url)


@pytest.fixture
def migrations(kind):
    return load_migrations(kind)


@pytest.fixture
async def db(open_db):
    database = await open_db()
    yield database
    await database.close()
