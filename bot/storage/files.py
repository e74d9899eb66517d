"""The database file before SQLite opens it (path checks, a probe) and SQLite's errors read for people."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bot.storage.errors import StorageUnavailable

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
        raise StorageUnavailable(path, sqlite_reason(error)) from error
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
    except sqlite3.Error as error:
        if not is_busy(error):
            raise StorageUnavailable(path, sqlite_reason(error)) from error
    finally:
        connection.close()


def sqlite_reason(error: sqlite3.Error) -> str:
    """SQLite's complaint, with a hint where its own words are cryptic."""
    text = str(error)
    if "unable to open database file" in text:
        return f"{text} (SQLite cannot create or open a file there: is the directory writable?)"
    if "readonly" in text:
        return f"{text} (the file or its directory is read-only)"
    return text
