"""The bot's database on PostgreSQL: an asyncpg pool, its migrations, its statements (docs/architecture.md)."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.settings import database_location
from bot.storage.database import Storage
from bot.storage.dialects import POSTGRES
from bot.storage.driver import NO_PARAMS, Params, Session, Statements
from bot.storage.errors import StorageOffline, StorageUnavailable
from bot.storage.schema import Migration, check_not_newer, load_migrations

_log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 2.0  # seconds to open a connection or wait for a free one: under Discord's 3-second window
STATEMENT_TIMEOUT = 2.5  # seconds one statement may take before the player is told to try again
MIGRATION_LOCK = 0x726F6C6C6B656570  # 'rollkeep': the advisory lock held while migrating, one process at a time
MIGRATION_TIMEOUT = 600.0  # seconds a migration (or the wait for another process's) may take: a large table

OFFLINE = (
    OSError, TimeoutError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.InternalClientError,
    asyncpg.exceptions.OperatorInterventionError,
)
"""Errors of the connection, not of the statement: the server cannot be reached, went away mid-statement, or is
shutting down (InternalClientError: a transaction's connection cut while a statement runs)."""

# A name not after a colon (a cast, ``::bigint``) nor inside a word ('yz_roll:12'); a string literal holding a
# colon before a letter would be read as a name, so such text goes in a parameter.
_NAME = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


@functools.cache
def numbered(sql: str) -> tuple[str, tuple[str, ...]]:
    """sql with ``$n`` for each ``:name`` (one number a name) and the names in number order (cached: constants)."""
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


def _reason(error: BaseException) -> str:
    """What went wrong, in words that never hold the URL (and so never its password)."""
    if isinstance(error, asyncpg.InvalidPasswordError):
        return "the server refused the user name or password"
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return "the server has no such database (create it first)"
    if isinstance(error, TimeoutError):
        return "the server did not answer in time"
    if isinstance(error, OSError):
        return f"cannot reach the server ({error.strerror or type(error).__name__})"
    if isinstance(error, ValueError):
        return "DATABASE_URL is not a PostgreSQL URL asyncpg can read"
    return f"the server refused the connection ({type(error).__name__})"


async def _roll_back_only(connection: asyncpg.Connection) -> None:
    """The pool's reset on release: a trip only for a transaction left open (docs/architecture.md: no session state)."""
    if connection.is_in_transaction():
        await connection.execute("ROLLBACK")


class NamedStatements(Session):
    """Statements with named parameters on one asyncpg connection: a transaction's, or each on its own."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[asyncpg.Record]:
        text, args = bound(sql, params)
        return list(await self.connection.fetch(text, *args))


class PostgresStore(Statements):
    """An asyncpg pool and where it leads; its statements take named parameters (`driver.Statements`)."""

    def __init__(self, pool: asyncpg.Pool, location: str) -> None:
        self._pool: asyncpg.Pool | None = pool
        self.location = location

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        """Open a pool on url; StorageUnavailable naming the host (not the password) when it cannot."""
        location = database_location(url)
        try:
            pool = await asyncpg.create_pool(
                url, min_size=min_size, max_size=max_size, timeout=CONNECT_TIMEOUT, command_timeout=STATEMENT_TIMEOUT,
                reset=_roll_back_only,
            )
        except (*OFFLINE, asyncpg.PostgresError, ValueError) as error:
            raise StorageUnavailable(location, _reason(error)) from error
        return cls(pool, location)

    @property
    def closed(self) -> bool:
        return self._pool is None

    async def close(self) -> None:
        """Close the pool; closing twice is harmless."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool, this task's until the block ends; the server unreachable is StorageOffline."""
        if self._pool is None:
            raise RuntimeError(f"the database at {self.location} is closed")
        try:
            async with self._pool.acquire(timeout=CONNECT_TIMEOUT) as connection:
                yield connection
        except OFFLINE as error:
            _log.warning("Lost the database at %s: %s", self.location, type(error).__name__)
            raise StorageOffline() from error

    @asynccontextmanager
    async def alone(self) -> AsyncIterator[NamedStatements]:
        """A connection for statements that each commit on their own (autocommit)."""
        async with self.connection() as connection:
            yield NamedStatements(connection)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[NamedStatements]:
        """A transaction (READ COMMITTED), committed when the block ends, rolled back on any error."""
        async with self.connection() as connection, connection.transaction():
            yield NamedStatements(connection)


class PostgresDatabase(Storage[PostgresStore]):
    """The open PostgreSQL database: ``await PostgresDatabase.open(url)``; closes with ``await db.close()``."""

    dialect = POSTGRES

    @classmethod
    async def open(
        cls, url: str, *, migrations: list[Migration] | None = None, max_connections: int = 10
    ) -> PostgresDatabase:
        """Connect to url and migrate: StorageUnavailable naming the host (no password); StorageError if newer."""
        store = await PostgresStore.connect(url, max_size=max_connections)
        try:
            await migrate(store, migrations)
        except BaseException:
            await store.close()
            raise
        return cls(store)


async def applied_version(connection: asyncpg.Connection) -> int:
    """The number of the last migration applied (0 for a new database)."""
    if not await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
        return 0
    return int(await connection.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))


async def migrate(store: PostgresStore, migrations: list[Migration] | None = None) -> int:
    """Apply every newer migration, each in one transaction, under an advisory lock; return the new version."""
    migrations = load_migrations("postgres") if migrations is None else migrations
    async with store.connection() as connection:
        await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK, timeout=MIGRATION_TIMEOUT)
        try:
            await connection.execute(_TRACKING)
            current = await applied_version(connection)
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


_TRACKING = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""
