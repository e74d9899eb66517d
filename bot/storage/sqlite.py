"""The bot's database in one SQLite file: the aiosqlite connection the app opened (public API only), its migrations."""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.database import Storage
from bot.storage.dialects import SQLITE
from bot.storage.driver import NO_PARAMS, R, Session, Statements
from bot.storage.errors import StorageBusy, StorageUnavailable
from bot.storage.files import RESTORE, file_identity, is_busy, is_corrupt, sqlite_reason
from bot.storage.schema import Migration, check_not_newer, load_migrations

Params = Mapping[str, Any] | Iterable[Any]

_log = logging.getLogger(__name__)


class SqliteSession(Session):
    """Statements on the connection, while it is this task's (`Store.alone()`, `Store.transaction()`)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(await self.connection.execute_fetchall(sql, params or ()))  # sqlite3 takes no empty proxy


class ThreadSession(Session):
    """A transaction's statements on aiosqlite's worker thread (`Store.in_one_trip`): plain sqlite3 calls, so the
    body awaiting them never suspends."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    async def fetch_all(self, sql: str, params: Mapping[str, Any] = NO_PARAMS) -> list[sqlite3.Row]:
        return self.connection.execute(sql, params or {}).fetchall()


def _transact(connection: sqlite3.Connection, body: Callable[[Session], Coroutine[Any, Any, R]]) -> R:
    """On the worker thread: BEGIN IMMEDIATE, the body run to its end (it must not suspend), then sqlite3's context
    manager commits, or rolls back on any error."""
    connection.execute("BEGIN IMMEDIATE")
    with connection:
        steps = body(ThreadSession(connection))
        try:
            steps.send(None)
        except StopIteration as finished:
            return finished.value
        steps.close()
        raise RuntimeError("a body run in one trip awaited something besides its statements")


class Store(Statements):
    """One aiosqlite connection with the PRAGMAs set, and a lock that gives tasks their turns."""

    def __init__(self, path: Path, connection: aiosqlite.Connection) -> None:
        self.path = path
        self.location = str(path)
        connection.row_factory = aiosqlite.Row  # the store reads columns by name
        self._connection: aiosqlite.Connection | None = connection
        self._lock = asyncio.Lock()
        self._gave_up_at = -math.inf  # when (time.monotonic) a statement last gave up on another program's lock
        self._identity = file_identity(path)
        self.lost: StorageUnavailable | None = None  # why the file can no longer be used (deleted, replaced, damaged)
        self.on_lost: Callable[[StorageUnavailable], object] | None = None  # called once then: the bot stops

    async def close(self) -> None:
        """Close the connection (SQLite checkpoints the WAL as it closes); closing twice is harmless."""
        async with self._lock:
            connection, self._connection = self._connection, None
            if connection is not None:
                await connection.close()

    @property
    def closed(self) -> bool:
        return self._connection is None or self.lost is not None

    def check_file(self) -> None:
        """StorageUnavailable (once lost, always) when the file at path is not the one open (deleted, replaced)."""
        if self.lost is not None:
            raise StorageUnavailable(self.path, self.lost.reason)
        identity = file_identity(self.path)
        if identity != self._identity:
            what = "deleted" if identity is None else "replaced by another file"
            raise self._lose(f"the file was {what} while the bot ran, so nothing more is written to it; {RESTORE}")

    def _lose(self, reason: str) -> StorageUnavailable:
        self.lost = StorageUnavailable(self.path, reason)
        if self.on_lost is not None:
            self.on_lost(self.lost)
        return self.lost

    @asynccontextmanager
    async def _turn(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, this task's until the block ends; busy is StorageBusy, damaged StorageUnavailable (lost)."""
        asked = time.monotonic()
        async with self._lock:
            if self._connection is None:
                raise RuntimeError(f"the database {self.path} is closed")
            self.check_file()
            if self._gave_up_at >= asked:
                raise StorageBusy()
            try:
                yield self._connection
            except sqlite3.DatabaseError as error:
                if is_corrupt(error):
                    raise self._lose(sqlite_reason(error)) from error
                if not is_busy(error):
                    raise
                self._gave_up_at = time.monotonic()
                raise StorageBusy() from error

    @asynccontextmanager
    async def alone(self) -> AsyncIterator[SqliteSession]:
        """The connection for statements that each commit on their own (autocommit)."""
        async with self._turn() as connection:
            yield SqliteSession(connection)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteSession]:
        """BEGIN IMMEDIATE (the write lock first, so every read in the body sees what the commit builds on), the
        body, COMMIT; ROLLBACK on any error or cancellation."""
        async with self._turn() as connection:
            await connection.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteSession(connection)
                await connection.commit()
            except BaseException:
                await asyncio.shield(self._rollback(connection))
                raise

    async def _rollback(self, connection: aiosqlite.Connection) -> None:
        try:
            await connection.rollback()  # nothing to do when SQLite already rolled it back
        except sqlite3.Error as error:
            _log.error("Rollback failed on %s", self.path, exc_info=error)

    async def in_one_trip(self, body: Callable[[Session], Awaitable[R]], /) -> R:
        """body's statements as one BEGIN IMMEDIATE transaction, run whole in one hop to aiosqlite's thread."""
        async with self._turn() as connection:
            # DEP: aiosqlite has no public call to run a function on its worker thread; Connection._execute does.
            # DEP: Connection._conn is its sqlite3 connection. Both pinned by tests/storage/test_sqlite_trips.py.
            return await connection._execute(_transact, connection._conn, body)  # noqa: SLF001 - DEP: above

    async def pragma(self, name: str) -> int:
        row = await self.fetch_one(f"PRAGMA {name}")
        return int(row[0]) if row else 0


class Database(Storage[Store]):
    """The open SQLite database (bot/app/opening.py's ``await open_sqlite(path)``); closes with ``await db.close()``."""

    dialect = SQLITE


async def migrate(store: Store, migrations: list[Migration] | None = None) -> int:
    """Apply every newer migration, each in a transaction that re-reads the version first; return the new version."""
    migrations = load_migrations() if migrations is None else migrations
    current = await store.pragma("user_version")
    check_not_newer(store.path, current, len(migrations))
    for migration in migrations[current:]:
        async with store.transaction() as transaction:
            row = await transaction.fetch_one("PRAGMA user_version")
            if row is not None and int(row[0]) >= migration.version:
                continue  # another process applied it first
            for statement in migration.statements():
                await transaction.fetch_all(statement)
            await transaction.fetch_all(f"PRAGMA user_version = {migration.version:d}")
        _log.info("Applied database migration V%d__%s", migration.version, migration.name)
    return len(migrations)
