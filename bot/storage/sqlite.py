"""The bot's database in one SQLite file, through one aiosqlite connection (public API only): the connection, its
migrations (version in ``PRAGMA user_version``), and giving back the space a purge freed.

Every statement runs on aiosqlite's worker thread, so the event loop never waits for SQLite. A single write is one
autocommit statement (``RETURNING`` gives back what it wrote); only what changes two things at once takes a
``BEGIN IMMEDIATE`` transaction. Tasks take turns through one lock; when a statement gives up on another program's
lock, the tasks already waiting give up at once too (`StorageBusy`), rather than each wait its own busy timeout
past Discord's 3-second window.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.database import Storage
from bot.storage.dialects import SQLITE
from bot.storage.errors import StorageBusy, StorageUnavailable
from bot.storage.files import RESTORE, check_database_path, file_identity, is_busy, is_corrupt, sqlite_reason
from bot.storage.schema import Migration, check_not_newer, load_migrations

DEFAULT_BUSY_TIMEOUT_MS = 2000  # how long a statement waits for another connection's lock: under Discord's 3 s
LOCKED_AT_START = "another program kept it locked past the busy timeout"
RECLAIM_STEP_PAGES = 256  # pages given back to the file system per statement after a purge (1 MB at 4 KiB)
STUCK_STEPS = 3  # steps in a row that give nothing back before the clean-up stops (a file not INCREMENTAL)

Params = Mapping[str, Any] | Iterable[Any]
Row = sqlite3.Row
R = TypeVar("R")

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
        cursor = await self._connection.executemany(sql, rows)
        return cursor.rowcount


class ThreadTransaction:
    """The statements of a transaction run whole on aiosqlite's worker thread (`Store.in_one_trip`): each a plain
    sqlite3 call, so the body awaiting them never suspends."""

    __slots__ = ("_connection",)

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    async def fetch_all(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        return self._connection.execute(sql, params or {}).fetchall()

    async def fetch_one(self, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
        return self._connection.execute(sql, params or {}).fetchone()

    async def execute_many(self, sql: str, rows: Iterable[Mapping[str, Any]]) -> int:
        return self._connection.executemany(sql, rows).rowcount


def _transact(connection: sqlite3.Connection, body: Callable[[ThreadTransaction], Coroutine[Any, Any, R]]) -> R:
    """On the worker thread: BEGIN IMMEDIATE, the body run to its end (it must not suspend), COMMIT; ROLLBACK on
    any error."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        steps = body(ThreadTransaction(connection))
        try:
            steps.send(None)
        except StopIteration as finished:
            result: R = finished.value
        else:
            steps.close()
            raise RuntimeError("a body run in one trip awaited something besides its statements")
        connection.commit()
        return result
    except BaseException:
        if connection.in_transaction:  # SQLite may have rolled back already
            connection.rollback()
        raise


class Store:
    """One aiosqlite connection with the PRAGMAs set, and a lock that gives tasks their turns."""

    def __init__(self, path: Path, connection: aiosqlite.Connection) -> None:
        self.path = path
        self._connection: aiosqlite.Connection | None = connection
        self._lock = asyncio.Lock()
        self._gave_up_at = -math.inf  # when (time.monotonic) a statement last gave up on another program's lock
        self._identity = file_identity(path)
        self.lost: StorageUnavailable | None = None  # why the file can no longer be used (deleted, replaced, damaged)
        self.on_lost: Callable[[StorageUnavailable], object] | None = None  # called once then: the bot stops

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
            await connection.execute("PRAGMA auto_vacuum = INCREMENTAL")  # takes effect on a new file
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
        """Have SQLite call callback with each statement this connection runs."""
        async with self._turn() as connection:
            await connection.set_trace_callback(callback)

    def check_file(self) -> None:
        """StorageUnavailable (once lost, always) when the file at path is no longer the one open here (deleted or
        replaced): writing on would go into a file no one will open again."""
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
        """BEGIN IMMEDIATE (the write lock first, so every read in the body sees what the commit builds on), the
        body, COMMIT; ROLLBACK on any error or cancellation."""
        async with self._turn() as connection:
            await connection.execute("BEGIN IMMEDIATE")
            try:
                yield Transaction(connection)
                await connection.commit()
            except BaseException:
                await asyncio.shield(self._rollback(connection))
                raise

    async def _rollback(self, connection: aiosqlite.Connection) -> None:
        try:
            await connection.rollback()  # nothing to do when SQLite already rolled it back
        except sqlite3.Error as error:
            _log.error("Rollback failed on %s", self.path, exc_info=error)

    async def in_one_trip(self, body: Callable[[ThreadTransaction], Awaitable[R]]) -> R:
        """body's statements as one BEGIN IMMEDIATE transaction in one hop to aiosqlite's worker thread, where body
        runs whole (it may await only its session's statements, which never suspend there)."""
        async with self._turn() as connection:
            # DEP: aiosqlite has no public call to run a function on its thread; Connection._execute does it (and
            # Connection._conn is its sqlite3 connection). Pinned by tests/storage/test_sqlite_trips.py.
            return await connection._execute(_transact, connection._conn, body)  # noqa: SLF001

    async def write(self, sql: str, params: Params = ()) -> list[Row]:
        """One write statement, autocommit, in one trip; its ``RETURNING`` rows."""
        async with self._turn() as connection:
            return list(await connection.execute_fetchall(sql, params))

    fetch_all = write

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One write statement, autocommit; how many rows it changed."""
        async with self._turn() as connection, connection.execute(sql, params) as cursor:
            return cursor.rowcount

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def pragma(self, name: str) -> int:
        row = await self.fetch_one(f"PRAGMA {name}")
        return int(row[0]) if row else 0


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


class Database(Storage):
    """The open SQLite database: ``await Database.open(path)``; closes with ``await db.close()``."""

    def __init__(self, store: Store) -> None:
        super().__init__(store, SQLITE)
        self.store = store

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        migrations: list[Migration] | None = None,
    ) -> Database:
        """Open (creating if needed) and migrate the database at path: StorageUnavailable naming the path when it
        cannot be opened or stays locked, StorageError when its schema is newer than this code."""
        try:
            store = await Store.connect(Path(path), busy_timeout_ms)
        except StorageBusy as error:
            raise StorageUnavailable(Path(path).expanduser().absolute(), LOCKED_AT_START) from error
        try:
            await migrate(store, migrations)
        except BaseException as error:
            await store.close()
            if isinstance(error, StorageBusy):
                raise StorageUnavailable(store.path, LOCKED_AT_START) from error
            raise
        return cls(store)

    @property
    def path(self) -> Path:
        return self.store.path

    @property
    def location(self) -> str:
        return str(self.store.path)

    async def schema_version(self) -> int:
        return await self.store.pragma("user_version")

    async def _give_space_back(self) -> None:
        await use_incremental_vacuum(self.store)
        await reclaim_space(self.store)

    def _writable(self) -> bool:
        return not self.store.closed and self.store.lost is None


async def migrate(store: Store, migrations: list[Migration] | None = None) -> int:
    """Apply every migration newer than the database, each in its own transaction that first re-reads the version
    (two processes starting at once are safe); return the new version."""
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


async def use_incremental_vacuum(store: Store) -> None:
    """Make the file one that can shrink (auto_vacuum INCREMENTAL, 2): a new database takes it before its first
    table; an older one needs one VACUUM, done here once (after a purge, when the file holds least)."""
    if await store.pragma("auto_vacuum") == 2:
        return
    started = time.monotonic()
    await store.execute("PRAGMA auto_vacuum = INCREMENTAL")
    if await store.pragma("page_count") > 1:
        await store.execute("VACUUM")
    _log.info("The database can now shrink after purges (a one-time VACUUM, %.1f s)", time.monotonic() - started)


async def reclaim_space(store: Store, step_pages: int = RECLAIM_STEP_PAGES) -> int:
    """Give the file's free pages back to the file system, step_pages per statement (a player's roll waits for one
    step at most), then truncate the WAL; return how many pages were given back."""
    given_back, stuck = 0, 0
    while stuck < STUCK_STEPS and (free := await store.pragma("freelist_count")) > 0:
        await store.write(f"PRAGMA incremental_vacuum({min(free, int(step_pages)):d})")
        after = await store.pragma("freelist_count")
        stuck = stuck + 1 if after >= free else 0
        given_back += max(free - after, 0)
    await store.fetch_all("PRAGMA wal_checkpoint(TRUNCATE)")
    return given_back
