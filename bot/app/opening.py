"""The store the app's settings choose: PostgreSQL when DATABASE_URL is set, else the SQLite file; the SQLite file
opened as the app wants it (its path checked first, its connection's busy timeout, WAL and sync level) and handed
to the store, as discord.py's advanced_startup example hands the bot its pool; and what the command line asks of
either before the bot starts: a probe, SQLite's quick_check, the health check (asyncpg is imported only for those
who use it). The app's choice, not storage's: bot/storage/ offers both drivers and never reads the settings."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from pathlib import Path

import aiosqlite

from bot.settings import Settings
from bot.storage.database import Storage
from bot.storage.driver import Session
from bot.storage.errors import StorageBusy, StorageError, StorageUnavailable
from bot.storage.files import RESTORE, is_busy, sqlite_reason
from bot.storage.schema import Migration, load_migrations
from bot.storage.sqlite import Database, Store, migrate

_log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_MS = 2000  # how long a statement waits for another connection's lock: under Discord's 3 s
LOCKED_AT_START = "another program kept it locked past the busy timeout"
QUICK_CHECK_SECONDS = 10.0  # how long the start-up's PRAGMA quick_check may run before the bot starts anyway
NEEDS_ASYNCPG = 'PostgreSQL needs asyncpg: pip install -e ".[postgres]"'


async def open_storage(settings: Settings, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Storage:
    """The open, migrated database the settings name (its place logged: a file, or a host and database)."""
    storage: Storage
    if settings.database_url is None:
        storage = await open_sqlite(settings.database_path, busy_timeout_ms=busy_timeout_ms)
    else:
        from bot.storage.postgres import PostgresDatabase

        storage = await PostgresDatabase.open(settings.database_url)
    _log.info("Keeping the game's data in %s", storage.store.location)
    return storage


async def open_sqlite(
    path: str | os.PathLike[str], *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    migrations: list[Migration] | None = None,
) -> Database:
    """Open (creating) and migrate the file: StorageUnavailable naming it, StorageError if its schema is newer."""
    path = Path(path).expanduser().absolute()
    try:
        store = await connect_sqlite(path, busy_timeout_ms)
        try:
            await migrate(store, migrations)
        except BaseException:
            await store.close()
            raise
    except StorageBusy as error:
        raise StorageUnavailable(path, LOCKED_AT_START) from error
    return Database(store)


async def connect_sqlite(path: Path, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Store:
    """The store on path (StorageUnavailable naming it on any failure), with WAL, NORMAL sync and foreign keys."""
    path = check_database_path(path)
    try:
        store = Store(path, await aiosqlite.connect(path, isolation_level=None))
    except sqlite3.Error as error:
        raise StorageUnavailable(path, sqlite_reason(error)) from error
    try:
        async with store.alone() as session:
            await session.fetch_all(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
            await session.fetch_all("PRAGMA foreign_keys = ON")
            await session.fetch_all("PRAGMA auto_vacuum = INCREMENTAL")  # takes effect on a new file
            mode = await _wal_mode(session, busy_timeout_ms / 1000)
            await session.fetch_all("PRAGMA synchronous = NORMAL")
    except BaseException as error:
        await store.close()
        if isinstance(error, sqlite3.Error) and not is_busy(error):
            raise StorageUnavailable(path, sqlite_reason(error)) from error
        raise
    if mode.lower() != "wal":
        _log.warning("SQLite kept journal mode %r for %s instead of WAL", mode, path)
    return store


async def _wal_mode(session: Session, patience: float) -> str:
    """Switch to WAL, trying again for up to `patience` seconds: when several open a new file at once, SQLite may
    answer "database is locked" at once, without its busy timeout."""
    deadline = time.monotonic() + patience
    while True:
        try:
            return str((await session.fetch_all("PRAGMA journal_mode = WAL"))[0][0])
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() >= deadline:
                raise
        await asyncio.sleep(0.05)


def check_database_path(path: str | os.PathLike[str]) -> Path:
    """Return path made absolute, or raise StorageUnavailable naming it when no database can live there (the file
    system only, cheap enough for the event loop; `probe_database` goes further)."""
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


def probe_postgres(url: str) -> None:
    """Connect once and close, before the bot logs in: StorageUnavailable naming the host when it cannot."""
    try:
        from bot.storage.postgres import PostgresStore
    except ImportError as error:
        raise StorageUnavailable("DATABASE_URL", NEEDS_ASYNCPG) from error

    async def probe() -> None:
        store = await PostgresStore.connect(url, min_size=1, max_size=1)
        await store.close()

    asyncio.run(probe())


def postgres_health(url: str) -> str | None:
    """What `python -m bot healthcheck` asks of PostgreSQL: None when it answers and the bot has migrated it,
    else why not in one line (never the password). Reads only."""
    try:
        from bot.storage.postgres import PostgresStore, applied_version
    except ImportError:
        return NEEDS_ASYNCPG

    async def version() -> int:
        store = await PostgresStore.connect(url, min_size=1, max_size=1)
        try:
            async with store.connection() as connection:
                return await applied_version(connection)
        finally:
            await store.close()

    try:
        found, latest = asyncio.run(version()), len(load_migrations("postgres"))
    except StorageError as error:
        return str(error)
    if found != latest:
        return f"the database is at schema version {found}, not {latest}: the bot has not migrated it"
    return None


def probe_database(path: Path) -> None:
    """Open path with plain sqlite3, take (then drop) the write lock and run `quick_check`; StorageUnavailable if
    SQLite cannot (a read-only mount, a file that is not a database). A lock held by another process is no fault:
    the bot waits for it like any other write. Creates an empty file when none exists, as the bot would."""
    try:
        connection = sqlite3.connect(path, timeout=0.1, isolation_level=None)
    except sqlite3.Error as error:
        raise StorageUnavailable(path, sqlite_reason(error)) from error
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
        quick_check(connection, path)
    except sqlite3.Error as error:
        if not is_busy(error):
            raise StorageUnavailable(path, sqlite_reason(error)) from error
    finally:
        connection.close()


def quick_check(connection: sqlite3.Connection, path: Path, seconds: float = QUICK_CHECK_SECONDS) -> None:
    """Run SQLite's PRAGMA quick_check for at most `seconds`; StorageUnavailable when the file is damaged (a check
    cut short is logged and passed: a damaged page it did not reach stops the bot when a statement reads it)."""
    deadline = time.monotonic() + seconds
    connection.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
    try:
        problems = [row[0] for row in connection.execute("PRAGMA quick_check") if row[0] != "ok"]
    except sqlite3.OperationalError as error:
        if getattr(error, "sqlite_errorcode", None) != sqlite3.SQLITE_INTERRUPT:
            raise
        _log.warning("The database check (quick_check) of %s stopped after %g s; starting anyway", path, seconds)
        return
    finally:
        connection.set_progress_handler(None, 0)
    if problems:
        first = " ".join(problems[0].replace("***", "").split())
        raise StorageUnavailable(path, f"the file is damaged (quick_check: {first}); {RESTORE}")


def database_health(path: Path) -> str | None:
    """What `python -m bot healthcheck` asks of the file: None when it opens read-only and has every migration
    applied, else why not in one line. Creates nothing (a check must not make the database it checks); a lock held
    by the running bot is healthy (it is writing)."""
    if not path.is_file():
        return f"no database at {path} yet (the bot creates it when it starts)"
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error as error:
        return f"the database {path} does not open: {sqlite_reason(error)}"
    try:
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as error:
        return None if is_busy(error) else f"the database {path} cannot be read: {sqlite_reason(error)}"
    finally:
        connection.close()
    latest = len(load_migrations())
    if version != latest:
        return f"the database {path} is at schema version {version}, not {latest}: the bot has not migrated it"
    return None
