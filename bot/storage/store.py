"""The one SQLite connection the bot uses, and the only way to read and write through it.

aiosqlite runs every statement of a connection on one worker thread, so tasks of this process share the
connection. A lock serializes them: a write transaction (``BEGIN IMMEDIATE``) never interleaves with another
task's statements, and a read never sees a transaction half done. Between processes, SQLite's own locking and
``busy_timeout`` do the same; a lock held past the timeout becomes `StorageBusy`, with nothing written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.errors import StorageBusy, StorageUnavailable

DEFAULT_BUSY_TIMEOUT_MS = 2000
"""How long a statement waits for another connection's lock before giving up (PRAGMA busy_timeout).

Under Discord's 3-second window for the first answer: a roll is stored before it is answered, so a write that
waits longer would leave the player with "This interaction failed" instead of our "try again" message."""

Params = Mapping[str, Any] | Iterable[Any]

_log = logging.getLogger(__name__)

_BUSY_CODES = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}


def is_busy(error: BaseException) -> bool:
    """True when a sqlite3 error means another connection holds the lock (SQLITE_BUSY / SQLITE_LOCKED)."""
    if not isinstance(error, sqlite3.OperationalError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _BUSY_CODES
    text = str(error)
    return "database is locked" in text or "database is busy" in text


def check_database_path(path: str | os.PathLike[str]) -> Path:
    """Return path made absolute, or raise StorageUnavailable naming it when no database can live there.

    Only looks at the file system (cheap enough for the event loop); `probe_database` goes further.
    """
    path = Path(path).expanduser().absolute()
    directory = path.parent
    if not directory.exists():
        raise StorageUnavailable(path, f"the directory {directory} does not exist")
    if not directory.is_dir():
        raise StorageUnavailable(path, f"{directory} is not a directory")
    if path.exists() and not path.is_file():
        raise StorageUnavailable(path, "it exists but is not a file")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise StorageUnavailable(
            path, f"the directory {directory} is not writable (SQLite keeps its -wal and -shm files there)"
        )
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StorageUnavailable(path, "the file is not readable and writable")
    return path


def probe_database(path: Path) -> None:
    """Open path with plain sqlite3 and take (then drop) the write lock; StorageUnavailable if SQLite cannot.

    Catches what the file-system checks miss (a read-only mount, a file that is not a database). A lock held
    by another process is not a fault here: the bot waits for it like any other write. Creates an empty file
    when none exists, which the bot would do a moment later anyway.
    """
    try:
        connection = sqlite3.connect(path, timeout=0.1, isolation_level=None)
    except sqlite3.Error as error:
        raise StorageUnavailable(path, _reason(error)) from error
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
    except sqlite3.Error as error:
        if not is_busy(error):
            raise StorageUnavailable(path, _reason(error)) from error
    finally:
        connection.close()


def _reason(error: sqlite3.Error) -> str:
    """SQLite's complaint, with a hint where its own words are cryptic."""
    text = str(error)
    if "unable to open database file" in text:
        return f"{text} (SQLite cannot create or open a file there: is the directory writable?)"
    if "readonly" in text:
        return f"{text} (the file or its directory is read-only)"
    return text


class Transaction:
    """The statements of one write transaction; only valid inside `Store.transaction()`."""

    __slots__ = ("_connection",)

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def fetch_all(self, sql: str, params: Params = ()) -> list[aiosqlite.Row]:
        """Run one statement and return every row (use this for ``RETURNING`` too)."""
        return list(await self._connection.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> aiosqlite.Row | None:
        """Run one statement and return its first row, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement that returns no rows; return how many rows it changed."""
        async with self._connection.execute(sql, params) as cursor:
            return cursor.rowcount


class Store:
    """One aiosqlite connection with the PRAGMAs set, a lock, and busy errors turned into StorageBusy."""

    def __init__(self, path: Path, connection: aiosqlite.Connection) -> None:
        self.path = path
        self._connection: aiosqlite.Connection | None = connection
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: Path, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Store:
        """Open path (StorageUnavailable naming it on any failure) and set WAL, NORMAL sync, foreign keys."""
        path = check_database_path(path)
        try:
            connection = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000)
        except sqlite3.Error as error:
            raise StorageUnavailable(path, _reason(error)) from error
        store = cls(path, connection)
        try:
            await store._prepare(busy_timeout_ms)
        except BaseException as error:
            await store.close()
            if isinstance(error, sqlite3.Error):
                raise StorageUnavailable(path, _reason(error)) from error
            raise
        return store

    async def _prepare(self, busy_timeout_ms: int) -> None:
        connection = self._live()
        connection.row_factory = aiosqlite.Row
        await connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await connection.execute("PRAGMA foreign_keys = ON")
        rows = list(await connection.execute_fetchall("PRAGMA journal_mode = WAL"))
        if rows[0][0].lower() != "wal":
            _log.warning("SQLite kept journal mode %r for %s instead of WAL", rows[0][0], self.path)
        await connection.execute("PRAGMA synchronous = NORMAL")

    def _live(self) -> aiosqlite.Connection:
        if self._connection is None:
            raise RuntimeError(f"the database {self.path} is closed")
        return self._connection

    async def close(self) -> None:
        """Close the connection (waiting for the statement in progress); closing twice is harmless."""
        connection, self._connection = self._connection, None
        if connection is not None:
            async with self._lock:
                await connection.close()

    @property
    def closed(self) -> bool:
        return self._connection is None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """A write transaction: BEGIN IMMEDIATE, the body, COMMIT; ROLLBACK on any error or cancellation.

        The write lock is taken first, so every read in the body sees what the commit will build on. A lock
        held elsewhere past busy_timeout raises StorageBusy before anything is written.
        """
        async with self._lock:
            connection = self._live()
            try:
                await connection.execute("BEGIN IMMEDIATE")
                yield Transaction(connection)
                await connection.execute("COMMIT")
            except BaseException as error:
                await self._rollback(connection)
                if is_busy(error):
                    raise StorageBusy() from error
                raise

    async def _rollback(self, connection: aiosqlite.Connection) -> None:
        """Roll back whatever is open; statements run in order, so this comes after any still queued."""
        try:
            await connection.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            if "no transaction is active" not in str(error):
                _log.error("Rollback failed on %s", self.path, exc_info=error)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[aiosqlite.Row]:
        """Run one read statement outside any transaction and return every row."""
        async with self._lock:
            try:
                return list(await self._live().execute_fetchall(sql, params))
            except sqlite3.OperationalError as error:
                if is_busy(error):
                    raise StorageBusy() from error
                raise

    async def fetch_one(self, sql: str, params: Params = ()) -> aiosqlite.Row | None:
        """Run one read statement outside any transaction and return its first row, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None
