"""The one SQLite connection the bot uses, and the only way to read and write through it.

The connection is opened by aiosqlite, whose worker thread does what may take long: opening, the WAL
checkpoints, closing. The bot's own statements are short (a handful of rows, WAL with ``synchronous=NORMAL``,
tens of microseconds each), and handing each to the worker thread cost far more than running it: nine thread
hops made a /yz roll five times dearer than a bare discord.py answer (bench/). So they run on the event loop
itself, and never block it: the connection's busy timeout is 0, and a lock held by another program is waited
for by sleeping and retrying (`_patiently`), up to ``busy_timeout_ms``, then `StorageBusy` with nothing written
- for the statement that waited and for every one queued behind it meanwhile.

The write every /yz roll makes before it is answered goes through `write_together`: writes queued in the
same turn of the event loop (or while the lock was taken) are written as one transaction, so a busy game night
pays one commit for many rolls and a quiet one still writes each roll at once (group commit). Writing the batch
on a thread of its own was tried and measured dearer: the thread and the event loop handed the GIL back and
forth for every statement.

Tasks of this process take turns through one lock: a write transaction (``BEGIN IMMEDIATE``) never interleaves
with another task's statements, a read never sees a transaction half done, and the worker thread only touches
the connection while its caller holds the lock. Automatic checkpoints are off (a checkpoint syncs the file);
every ``CHECKPOINT_EVERY`` commits one runs on the worker thread instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import os
import sqlite3
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

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

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Run one statement and return every row (use this for ``RETURNING`` too)."""
        return self._connection.execute(sql, params).fetchall()

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """Run one statement and return its first row, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement that returns no rows; return how many rows it changed."""
        return self._connection.execute(sql, params).rowcount

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> int:
        """Run one statement once per set of parameters (compiled once); return how many rows they changed."""
        return self._connection.executemany(sql, rows).rowcount


CHECKPOINT_EVERY = 500
"""Commits between two WAL checkpoints (run on aiosqlite's worker thread, not on the event loop)."""

_RETRY_FIRST, _RETRY_MOST = 0.001, 0.05
"""Seconds between two tries for another program's lock: doubling from the first, never above the most."""


class Store:
    """One connection with the PRAGMAs set, a lock, and another program's lock waited for without blocking."""

    def __init__(self, path: Path, connection: aiosqlite.Connection, busy_timeout_ms: int) -> None:
        self.path = path
        self._connection: aiosqlite.Connection | None = connection
        self._sqlite: sqlite3.Connection = connection._conn  # the sqlite3 connection aiosqlite opened
        self._busy_timeout = busy_timeout_ms / 1000
        self._lock = asyncio.Lock()
        self._gave_up_at = -math.inf
        """When (time.monotonic) a statement last gave up on another program's lock."""
        self._commits = 0
        self._checkpoint: asyncio.Task | None = None
        self._queued: list[_Queued] = []
        """Statements of write_together waiting for the next batch."""
        self._batches: asyncio.Task | None = None

    @classmethod
    async def connect(cls, path: Path, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Store:
        """Open path (StorageUnavailable naming it on any failure) and set WAL, NORMAL sync, foreign keys."""
        path = check_database_path(path)
        try:
            connection = await aiosqlite.connect(path, isolation_level=None, timeout=0, check_same_thread=False)
        except sqlite3.Error as error:
            raise StorageUnavailable(path, _reason(error)) from error
        store = cls(path, connection, busy_timeout_ms)
        try:
            await store._prepare()
        except BaseException as error:
            await store.close()
            if isinstance(error, sqlite3.Error):
                raise StorageUnavailable(path, _reason(error)) from error
            raise
        return store

    async def _prepare(self) -> None:
        connection = self._live()
        connection.row_factory = aiosqlite.Row
        await connection.execute("PRAGMA busy_timeout = 0")  # waits happen in _patiently, off the event loop
        await connection.execute("PRAGMA foreign_keys = ON")
        rows = await self._patiently(lambda: self._sqlite.execute("PRAGMA journal_mode = WAL").fetchall())
        if rows[0][0].lower() != "wal":
            _log.warning("SQLite kept journal mode %r for %s instead of WAL", rows[0][0], self.path)
        await connection.execute("PRAGMA synchronous = NORMAL")
        await connection.execute("PRAGMA wal_autocheckpoint = 0")

    def _live(self) -> aiosqlite.Connection:
        if self._connection is None:
            raise RuntimeError(f"the database {self.path} is closed")
        return self._connection

    async def close(self) -> None:
        """Write what is queued, checkpoint and close the connection; closing twice is harmless."""
        if self._batches is not None:
            await asyncio.shield(self._batches)  # every queued write is written (or fails) before the close
        connection, self._connection = self._connection, None
        if connection is None:
            return
        async with self._lock:
            with contextlib.suppress(sqlite3.Error):
                await connection.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            await connection.close()

    @property
    def closed(self) -> bool:
        return self._connection is None

    async def _patiently(self, step):
        """Run step() (a few statements on the event loop); while another program holds the lock, sleep and
        try again, up to busy_timeout, then let SQLite's busy error through."""
        deadline = time.monotonic() + self._busy_timeout
        pause = _RETRY_FIRST
        while True:
            try:
                return step()
            except sqlite3.OperationalError as error:
                if not is_busy(error) or time.monotonic() + pause > deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, _RETRY_MOST)

    def _turn(self) -> _Turn:
        """The connection, to this task alone until the block ends; a busy error becomes StorageBusy.

        Tasks take turns, so while one waits out busy_timeout on another program's lock, the others queue behind
        it. Those queued when it gives up give up at once too (StorageBusy, nothing tried): else each would wait
        its own busy_timeout in turn, and the players at the back of the queue would get their "try again" long
        after Discord's 3-second window closed ("This interaction failed").
        """
        return _Turn(self)

    def transaction(self) -> _Transaction:
        """A write transaction: BEGIN IMMEDIATE, the body, COMMIT; ROLLBACK on any error or cancellation.

        The write lock is taken first, so every read in the body sees what the commit will build on. A lock
        held elsewhere past busy_timeout raises StorageBusy before anything is written.
        """
        return _Transaction(self)

    def _rollback(self, connection: sqlite3.Connection) -> None:
        """Roll back whatever is open."""
        try:
            connection.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            if "no transaction is active" not in str(error):
                _log.error("Rollback failed on %s", self.path, exc_info=error)

    def _committed(self) -> None:
        """Count a commit; every CHECKPOINT_EVERY commits, start a checkpoint on the worker thread."""
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0 and (self._checkpoint is None or self._checkpoint.done()):
            self._checkpoint = asyncio.get_running_loop().create_task(self.checkpoint())

    async def checkpoint(self) -> None:
        """Copy the WAL back into the database file (PASSIVE: never waits for readers), on the worker thread."""
        async with self._lock:
            if self._connection is None:
                return
            try:
                await self._connection.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error as error:
                _log.warning("WAL checkpoint of %s failed: %s", self.path, error)

    async def write(self, sql: str, params: Params = ()) -> int:
        """Run one write statement as a transaction of its own (autocommit); return how many rows it changed.

        For a single statement (triggers included) this is what BEGIN IMMEDIATE ... COMMIT would do, in one call
        instead of three.
        """
        async with self._turn() as connection:
            changed = await self._patiently(lambda: connection.execute(sql, params).rowcount)
        self._committed()
        return changed

    async def write_together(self, sql: str, params: Params = ()) -> Written:
        """Run one write statement in the next batch of queued writes; return its rows, rowid and changes.

        The batch is one transaction, written at the next turn of the event loop; returns once it is committed.
        A statement that fails fails alone (the batch is then written one statement at a time); another program's
        lock held past busy_timeout fails the whole batch with StorageBusy, nothing written.
        """
        if self._connection is None:
            raise RuntimeError(f"the database {self.path} is closed")
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._queued.append((sql, params, done))
        if self._batches is None or self._batches.done():
            self._batches = loop.create_task(self._write_batches(), name="rollkeeper-sqlite-batches")
        return await done

    async def _write_batches(self) -> None:
        """Write the queued statements, a batch at a time, until none is left."""
        while self._queued:
            batch: list[_Queued] = []
            try:
                async with self._turn() as connection:
                    batch, self._queued = self._queued, []  # taken late: what queued while we waited joins in
                    results = await self._patiently(functools.partial(self._write_batch, connection, batch))
            except BaseException as error:  # busy past the timeout, closed, or cancelled: the batch fails as one
                if not batch:
                    batch, self._queued = self._queued, []
                _settle(batch, [error if isinstance(error, Exception) else StorageBusy()] * len(batch))
                if not isinstance(error, Exception):
                    raise
                continue
            self._committed()
            _settle(batch, results)

    def _write_batch(self, connection: sqlite3.Connection, batch: list[_Queued]) -> list[Written | Exception]:
        """The batch's statements in one transaction, their outcomes (or errors) in order.

        Another program's lock (busy) is raised with nothing written, for `_patiently` to wait out. When any
        other statement fails, the transaction is rolled back and each statement runs again on its own, so that
        only the faulty one fails.
        """
        if len(batch) == 1:
            sql, params, _ = batch[0]
            return [_outcome(connection, sql, params, busy_raises=True)]
        connection.execute("BEGIN IMMEDIATE")
        try:
            results: list[Written | Exception] = [_run(connection, sql, params) for sql, params, _ in batch]
            connection.execute("COMMIT")
            return results
        except sqlite3.Error as error:
            self._rollback(connection)
            if is_busy(error):
                raise
        # Some statements may be written now: a lock met from here on fails its own statement, never the batch.
        return [_outcome(connection, sql, params, busy_raises=False) for sql, params, _ in batch]

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Run one read statement outside any transaction and return every row."""
        async with self._turn() as connection:
            return await self._patiently(lambda: connection.execute(sql, params).fetchall())

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """Run one read statement outside any transaction and return its first row, or None."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class Written(NamedTuple):
    """What one statement of a batch did: its rows (``RETURNING``), the last rowid it inserted, rows changed."""

    rows: list[sqlite3.Row]
    last_id: int | None
    changed: int


_Queued = tuple[str, Params, "asyncio.Future[Written]"]


def _settle(batch: list[_Queued], outcomes: list[Written | Exception]) -> None:
    """Give each waiting writer its statement's outcome (a writer that gave up is skipped)."""
    for (_, _, done), outcome in zip(batch, outcomes, strict=True):
        if done.done():
            continue
        if isinstance(outcome, Exception):
            done.set_exception(outcome)
        else:
            done.set_result(outcome)


def _run(connection: sqlite3.Connection, sql: str, params: Params) -> Written:
    cursor = connection.execute(sql, params)
    return Written(cursor.fetchall(), cursor.lastrowid, cursor.rowcount)


def _outcome(connection: sqlite3.Connection, sql: str, params: Params, *, busy_raises: bool) -> Written | Exception:
    """One statement as a transaction of its own: what it did, or its error."""
    try:
        return _run(connection, sql, params)
    except sqlite3.Error as error:
        if not is_busy(error):
            return error
        if busy_raises:
            raise
        busy = StorageBusy()
        busy.__cause__ = error
        return busy


class _Turn:
    """`Store._turn()`: a plain class rather than a generator-based context manager, since every statement of
    the bot goes through it (the generator machinery cost more than the statements)."""

    __slots__ = ("_store", "_asked")

    def __init__(self, store: Store) -> None:
        self._store = store

    async def __aenter__(self) -> sqlite3.Connection:
        store = self._store
        self._asked = time.monotonic()
        await store._lock.acquire()
        if store._gave_up_at >= self._asked or store._connection is None:
            store._lock.release()
            if store._connection is None:
                raise RuntimeError(f"the database {store.path} is closed")
            raise StorageBusy()
        return store._sqlite

    async def __aexit__(self, kind, error, traceback) -> bool:
        store = self._store
        store._lock.release()
        if isinstance(error, sqlite3.OperationalError) and is_busy(error):
            store._gave_up_at = time.monotonic()
            raise StorageBusy() from error
        return False


class _Transaction:
    """`Store.transaction()`: BEGIN IMMEDIATE (waiting patiently for another program's lock), then COMMIT, or
    ROLLBACK on any error or cancellation."""

    __slots__ = ("_store", "_turn", "_connection")

    def __init__(self, store: Store) -> None:
        self._store = store
        self._turn = _Turn(store)

    async def __aenter__(self) -> Transaction:
        connection = self._connection = await self._turn.__aenter__()
        try:
            await self._store._patiently(lambda: connection.execute("BEGIN IMMEDIATE"))
        except BaseException as error:
            await self._turn.__aexit__(type(error), error, error.__traceback__)
            raise
        return Transaction(connection)

    async def __aexit__(self, kind, error, traceback) -> bool:
        try:
            if error is None:
                self._connection.execute("COMMIT")
            else:
                self._store._rollback(self._connection)
        except BaseException as failure:
            self._store._rollback(self._connection)
            await self._turn.__aexit__(type(failure), failure, failure.__traceback__)
            raise
        await self._turn.__aexit__(kind, error, traceback)
        if error is None:
            self._store._committed()
        return False
