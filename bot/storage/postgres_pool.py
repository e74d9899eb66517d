"""The PostgreSQL connection pool the bot uses (asyncpg's public API), and the only way to reach it.

Every call takes a connection from the pool for one statement or one transaction and gives it back. When the
server goes away, the statements of that moment fail with `StorageOffline` (the players' "try again"; a
transaction that did not commit is rolled back by the server, so nothing is half-written), and the pool opens
new connections by itself once the server is back: a broken connection is dropped when it is released.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit

import asyncpg

from bot.storage.errors import StorageOffline, StorageUnavailable

_log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 2.0
"""Seconds to open one connection or wait for a free one: under Discord's 3-second window for an answer."""
STATEMENT_TIMEOUT = 2.5
"""Seconds one statement may take before the player is told to try again."""

OFFLINE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
)
"""What asyncpg raises when the server cannot be reached, went away mid-statement, or is shutting down (the
operator-intervention class 57 is added below): errors of the connection, not of the statement. asyncpg raises
InternalClientError ("cannot switch to state ...; another operation is in progress") when a transaction's
connection is cut while a statement runs (tests/storage/test_postgres.py cuts them on purpose); the pool drops
that connection when it comes back."""
_SHUTTING_DOWN = asyncpg.exceptions.OperatorInterventionError


def where(url: str) -> str:
    """The database a URL names, for messages and logs: the URL without its user and password
    (``postgresql://host:port/name``; for a Unix socket, ``postgresql:///name?host=/socket/directory``)."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    name = parts.path.lstrip("/")
    if parts.hostname is None and query.get("host"):
        return f"postgresql:///{name}?host={query['host'][0]}"
    port = f":{parts.port}" if _port(parts) else ""
    return f"postgresql://{parts.hostname or 'localhost'}{port}/{name}"


def _port(parts: Any) -> int | None:
    try:
        return parts.port
    except ValueError:
        return None


@contextmanager
def offline_as_busy(location: str) -> Iterator[None]:
    """Turn the server being unreachable into StorageOffline (the players' "try again")."""
    try:
        yield
    except (*OFFLINE, _SHUTTING_DOWN) as error:
        _log.warning("Lost the database at %s: %s", location, type(error).__name__)
        raise StorageOffline() from error


class PostgresStore:
    """An asyncpg pool and where it leads."""

    def __init__(self, pool: asyncpg.Pool, location: str) -> None:
        self._pool: asyncpg.Pool | None = pool
        self.location = location

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        """Open a pool on url; StorageUnavailable naming the host (not the password) when it cannot."""
        location = where(url)
        try:
            pool = await asyncpg.create_pool(
                url, min_size=min_size, max_size=max_size, timeout=CONNECT_TIMEOUT, command_timeout=STATEMENT_TIMEOUT
            )
        except (*OFFLINE, _SHUTTING_DOWN, asyncpg.PostgresError, ValueError) as error:
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

    def _open_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError(f"the database at {self.location} is closed")
        return self._pool

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool, to this task alone until the block ends."""
        with offline_as_busy(self.location):
            async with self._open_pool().acquire(timeout=CONNECT_TIMEOUT) as connection:
                yield connection

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection inside a transaction (READ COMMITTED): committed when the block ends, rolled back on
        any error. Rows are locked by the statements that change them, so racing transactions wait in turn."""
        async with self.connection() as connection, connection.transaction():
            yield connection

    async def fetch_all(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """Run one statement on its own (autocommit) and return every row."""
        async with self.connection() as connection:
            return list(await connection.fetch(sql, *args))

    async def fetch_one(self, sql: str, *args: Any) -> asyncpg.Record | None:
        """Run one statement on its own and return its first row, or None."""
        async with self.connection() as connection:
            return await connection.fetchrow(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement on its own; return how many rows it changed."""
        async with self.connection() as connection:
            status = await connection.execute(sql, *args)
        return int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0


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
