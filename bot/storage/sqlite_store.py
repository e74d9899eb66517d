"""The one SQLite connection the bot uses, through aiosqlite's public API, and the only way to reach it.

Every statement runs on aiosqlite's worker thread, so the event loop never waits for SQLite (a slow disk, a
checkpoint, a large purge, another program's lock). Each call is one trip to that thread, so the statements need
few: a single write is one autocommit statement (``RETURNING`` gives back what it wrote), and only what must
change two things at once takes a ``BEGIN IMMEDIATE`` transaction.

Tasks take turns through one lock: a transaction never interleaves with another task's statements. When a
statement gives up on another program's lock, the tasks already waiting give up at once too (`StorageBusy`):
else each would wait its own busy timeout in turn, and the last players' "try again" would come after Discord's
3-second window closed.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.errors import StorageBusy, StorageUnavailable
from bot.storage.files import RESTORE, check_database_path, file_identity, is_busy, is_corrupt, sqlite_reason

DEFAULT_BUSY_TIMEOUT_MS = 2000
"""How long a statement waits for another connection's lock (PRAGMA busy_timeout): under Discord's 3-second
window, since a roll is stored before it is answered."""

Params = Mapping[str, Any] | Iterable[Any]
Row = sqlite3.Row

_log = logging.getLogger(__name__)


class Transaction:
    """The statements of one write transaction; only valid inside `Store.transaction()`."""

    __slots__ = ("_connection",)

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._connection.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> int:
        """Run one statement per set of parameters, in one trip; return how many rows they changed."""
        cursor = await self._connection.executemany(sql, rows)
        return cursor.rowcount


class Store:
    """One aiosqlite connection with the PRAGMAs set, and a lock that gives tasks their turns."""

    def __init__(self, path: Path, connection: aiosqlite.Connection) -> None:
        self.path = path
        self._connection: aiosqlite.Connection | None = connection
        self._lock = asyncio.Lock()
        self._gave_up_at = -math.inf  # when (time.monotonic) a statement last gave up on another program's lock
        self._identity = file_identity(path)
        self.lost: StorageUnavailable | None = None
        """Why the database can no longer be used (its file deleted, replaced or damaged), once that is seen."""
        self.on_lost: Callable[[StorageUnavailable], object] | None = None
        """Called once, when the database is lost: the bot stops rather than answer "try again" forever."""

    @classmethod
    async def connect(cls, path: Path, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Store:
        """Open path (StorageUnavailable naming it on any failure) with WAL, NORMAL sync and foreign keys."""
        path = check_database_path(path)
        try:
            connection = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as error:
            raise StorageUnavailable(path, sqlite_reason(error)) from error
        store = cls(path, connection)
        try:
            await store._prepare(connection, busy_timeout_ms)
        except BaseException as error:
            await store.close()
            if isinstance(error, sqlite3.Error) and not is_busy(error):
                raise StorageUnavailable(path, sqlite_reason(error)) from error
            raise
        return store

    async def _prepare(self, connection: aiosqlite.Connection, busy_timeout_ms: int) -> None:
        connection.row_factory = aiosqlite.Row
        await connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
        await connection.execute("PRAGMA foreign_keys = ON")
        async with self._turn():
            await connection.execute("PRAGMA auto_vacuum = INCREMENTAL")  # takes effect on a new file (see sqlite.py)
            mode = await _wal_mode(connection, busy_timeout_ms / 1000)
        if mode.lower() != "wal":
            _log.warning("SQLite kept journal mode %r for %s instead of WAL", mode, self.path)
        await connection.execute("PRAGMA synchronous = NORMAL")

    async def close(self) -> None:
        """Close the connection (SQLite checkpoints the WAL as it closes); closing twice is harmless."""
        async with self._lock:
            connection, self._connection = self._connection, None
            if connection is not None:
                await connection.close()

    @property
    def closed(self) -> bool:
        return self._connection is None

    async def set_trace_callback(self, callback: Callable[[str], object]) -> None:
        """Have SQLite call callback with each statement this connection runs (for tests, and for an operator)."""
        async with self._turn() as connection:
            await connection.set_trace_callback(callback)

    def check_file(self) -> None:
        """StorageUnavailable (once lost, always) when the file at path is no longer the one this connection has
        open, deleted or replaced: writing on would go into a file no one will open again."""
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
        """The connection, to this task alone until the block ends; a busy error becomes StorageBusy, a damaged
        file StorageUnavailable (and the store is lost)."""
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
    async def transaction(self) -> AsyncIterator[Transaction]:
        """BEGIN IMMEDIATE (the write lock first, so every read in the body sees what the commit builds on; held
        elsewhere past the busy timeout: StorageBusy, nothing written), the body, COMMIT; ROLLBACK on any error
        or cancellation."""
        async with self._turn() as connection:
            await connection.execute("BEGIN IMMEDIATE")
            try:
                yield Transaction(connection)
                await connection.commit()
            except BaseException:
                await asyncio.shield(self._rollback(connection))
                raise

    async def _rollback(self, connection: aiosqlite.Connection) -> None:
        """Roll back whatever is open (nothing, when SQLite already rolled it back)."""
        try:
            await connection.rollback()
        except sqlite3.Error as error:
            _log.error("Rollback failed on %s", self.path, exc_info=error)

    async def write(self, sql: str, params: Params = ()) -> list[Row]:
        """One write statement as a transaction of its own (autocommit; atomic, its triggers included), in one
        trip; its ``RETURNING`` rows."""
        async with self._turn() as connection:
            return list(await connection.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One write statement as a transaction of its own; how many rows it changed (two trips: the statement,
        then closing its cursor - for statements that change too many rows to return them)."""
        async with self._turn() as connection, connection.execute(sql, params) as cursor:
            return cursor.rowcount

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """One read statement outside any transaction: every row."""
        async with self._turn() as connection:
            return list(await connection.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


async def _wal_mode(connection: aiosqlite.Connection, patience: float) -> str:
    """Switch to WAL, trying again for up to `patience` seconds: when several open a new file at once, SQLite may
    answer "database is locked" at once, without its busy timeout."""
    deadline = time.monotonic() + patience
    while True:
        try:
            return str(list(await connection.execute_fetchall("PRAGMA journal_mode = WAL"))[0][0])
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() >= deadline:
                raise
        await asyncio.sleep(0.05)
