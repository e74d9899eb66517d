"""The store the app's settings choose: PostgreSQL when DATABASE_URL is set, else the SQLite file; and what the
command line asks of either before the bot starts: a probe, SQLite's quick_check, the health check (asyncpg is
imported only for those who use it). The app's choice, not storage's: bot/storage/ offers both drivers and never
reads the settings."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path

from bot.settings import Settings
from bot.storage.database import Storage
from bot.storage.errors import StorageError, StorageUnavailable
from bot.storage.files import RESTORE, is_busy, sqlite_reason
from bot.storage.schema import load_migrations
from bot.storage.sqlite import DEFAULT_BUSY_TIMEOUT_MS, Database

_log = logging.getLogger(__name__)

QUICK_CHECK_SECONDS = 10.0  # how long the start-up's PRAGMA quick_check may run before the bot starts anyway
NEEDS_ASYNCPG = 'PostgreSQL needs asyncpg: pip install -e ".[postgres]"'


async def open_storage(settings: Settings, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Storage:
    """The open, migrated database the settings name (its place logged: a file, or a host and database)."""
    storage: Storage
    if settings.database_url is None:
        storage = await Database.open(settings.database_path, busy_timeout_ms=busy_timeout_ms)
    else:
        from bot.storage.postgres import PostgresDatabase

        storage = await PostgresDatabase.open(settings.database_url)
    _log.info("Keeping the game's data in %s", storage.store.location)
    return storage


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
