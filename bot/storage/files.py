"""The SQLite file before the bot opens it (path checks, a probe, the health check); SQLite's errors for people."""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from pathlib import Path

from bot.storage.errors import StorageUnavailable
from bot.storage.schema import load_migrations

_log = logging.getLogger(__name__)

_BUSY_CODES = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
_CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
QUICK_CHECK_SECONDS = 10.0  # how long the start-up's PRAGMA quick_check may run before the bot starts anyway
RESTORE = "stop the bot, restore a backup (see the README's 'Backing up the database'), and start it again"


def is_busy(error: BaseException) -> bool:
    """True when a sqlite3 error means another connection holds the lock (SQLITE_BUSY / SQLITE_LOCKED)."""
    if not isinstance(error, sqlite3.OperationalError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _BUSY_CODES
    text = str(error)
    return "database is locked" in text or "database is busy" in text


def is_corrupt(error: BaseException) -> bool:
    """True when a sqlite3 error means the file is damaged or not a database (SQLITE_CORRUPT / SQLITE_NOTADB)."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.DatabaseError) and code is not None and code & 0xFF in _CORRUPT_CODES


def file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at path, or None when there is none: which file a connection has open."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


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


def sqlite_reason(error: sqlite3.Error) -> str:
    """SQLite's complaint, with a hint where its own words are cryptic."""
    text = str(error)
    if is_corrupt(error):
        return f"{text} (the file is damaged or is not a rollkeeper database); {RESTORE}"
    if "unable to open database file" in text:
        return f"{text} (SQLite cannot create or open a file there: is the directory writable?)"
    if "readonly" in text:
        return f"{text} (the file or its directory is read-only)"
    return text


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
