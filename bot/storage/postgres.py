"""The bot's database on a PostgreSQL server (``pip install -e ".[postgres]"``), chosen by DATABASE_URL: for several
bot processes sharing one database. An asyncpg pool (`postgres_pool.PostgresStore`), migrations at open, and the
statements written with named parameters (``:guild``, as SQLite reads them) run with numbered ones (``$1``).

Each name becomes one number, the same each time it appears (``:id`` twice is ``$1`` twice). A doubled colon
is a cast (``:ids::bigint[]``) and a colon after a letter or digit is no parameter, so both are left alone;
a string literal holding a colon before a letter would be read as a name, so such text goes in a parameter.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.storage.database import Storage
from bot.storage.dialects import POSTGRES
from bot.storage.driver import NO_PARAMS, Params
from bot.storage.postgres_pool import PostgresStore
from bot.storage.schema import Migration, check_not_newer, load_migrations, migrations_of

_log = logging.getLogger(__name__)

_NAME = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


@functools.cache
def numbered(sql: str) -> tuple[str, tuple[str, ...]]:
    """sql with ``$n`` in place of each ``:name``, and the names in the order of their numbers (kept once per
    statement: the statements are the storage modules' constants, a few dozen)."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match[1] not in names:
            names.append(match[1])
        return f"${names.index(match[1]) + 1}"

    return _NAME.sub(number, sql), tuple(names)


def bound(sql: str, params: Params) -> tuple[str, list[Any]]:
    """The numbered statement and its arguments in number order (KeyError names a parameter not given)."""
    text, names = numbered(sql)
    return text, [params[name] for name in names]


class NamedTransaction:
    """The statements of one transaction on an asyncpg connection; `connection` for the drivers' own helpers."""

    __slots__ = ("connection",)

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> asyncpg.Record | None:
        text, args = bound(sql, params)
        return await self.connection.fetchrow(text, *args)

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[asyncpg.Record]:
        text, args = bound(sql, params)
        return list(await self.connection.fetch(text, *args))

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        text, names = numbered(sql)
        await self.connection.executemany(text, [[row[name] for name in names] for row in rows])


class NamedStatements:
    """A PostgreSQL store as the classes of what is kept see it (`driver.Statements`)."""

    def __init__(self, store: PostgresStore) -> None:
        self.store = store

    @property
    def closed(self) -> bool:
        return self.store.closed

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[NamedTransaction]:
        async with self.store.transaction() as connection:
            yield NamedTransaction(connection)

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> asyncpg.Record | None:
        text, args = bound(sql, params)
        return await self.store.fetch_one(text, *args)

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> Sequence[asyncpg.Record]:
        text, args = bound(sql, params)
        return await self.store.fetch_all(text, *args)

    write = fetch_all

    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        text, args = bound(sql, params)
        return await self.store.execute(text, *args)


class PostgresDatabase(Storage):
    """The open PostgreSQL database: ``await PostgresDatabase.open(url)``; closes with ``await db.close()``."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(NamedStatements(store), POSTGRES)
        self.store = store

    @classmethod
    async def open(
        cls, url: str, *, migrations: list[Migration] | None = None, max_connections: int = 10
    ) -> PostgresDatabase:
        """Connect to url and migrate; StorageUnavailable naming the host (never the password) when the server
        cannot be reached, StorageError when its schema is newer than this code."""
        store = await PostgresStore.connect(url, max_size=max_connections)
        try:
            await migrate(store, migrations)
        except BaseException:
            await store.close()
            raise
        return cls(store)

    @property
    def location(self) -> str:
        return self.store.location

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        return await schema_version(self.store)

    async def _give_space_back(self) -> None:
        """Nothing to do: PostgreSQL's autovacuum gives the space a purge freed back by itself."""

    async def _close(self) -> None:
        await self.store.close()


MIGRATION_LOCK = 0x726F6C6C6B656570
"""The advisory lock key held while migrating ('rollkeep' in ASCII): one process at a time."""
MIGRATION_TIMEOUT = 600.0
"""Seconds a migration statement (or the wait for another process's migrations) may take: far longer than a
player's statement, since a migration may rewrite a large table once."""

_TRACKING = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""


def load_postgres_migrations() -> list[Migration]:
    """The bot's PostgreSQL migrations, sorted and checked for gaps."""
    return load_migrations(migrations_of("postgres"))


async def schema_version(store: PostgresStore) -> int:
    """The number of the last migration applied (0 for a new database)."""
    async with store.connection() as connection:
        return await _applied(connection)


async def _applied(connection: asyncpg.Connection) -> int:
    if not await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
        return 0
    return int(await connection.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))


async def migrate(store: PostgresStore, migrations: list[Migration] | None = None) -> int:
    """Apply every migration newer than the database, each in one transaction with its row in schema_migrations,
    under a session-level advisory lock (processes starting at once take turns); return the new version."""
    migrations = load_postgres_migrations() if migrations is None else migrations
    async with store.connection() as connection:
        await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK, timeout=MIGRATION_TIMEOUT)
        try:
            await connection.execute(_TRACKING)
            current = await _applied(connection)
            check_not_newer(store.location, current, len(migrations))
            for migration in migrations[current:]:
                async with connection.transaction():
                    await connection.execute(migration.sql, timeout=MIGRATION_TIMEOUT)
                    record = "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)"
                    await connection.execute(record, migration.version, migration.name)
                _log.info("Applied PostgreSQL migration V%d__%s", migration.version, migration.name)
        finally:
            await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
    return len(migrations)
