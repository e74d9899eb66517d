"""The SQLite file: which file is open, SQLite's errors for people (busy, damaged)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

_BUSY_CODES = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
_CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
RESTORE = "stop the bot, restore a backup (see the README's 'Backing up the database'), and start it again"


def is_busy(error: BaseException) -> bool:
    """True when a sqlite3 error means another connection holds the lock (SQLITE_BUSY / SQLITE_LOCKED)."""
    code = getattr(error, "sqlite_errorcode", None)  # Python 3.11+ gives it to every error SQLite raised
    return isinstance(error, sqlite3.OperationalError) and code is not None and code & 0xFF in _BUSY_CODES


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
