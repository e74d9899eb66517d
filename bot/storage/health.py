"""What `python -m bot healthcheck` asks of the database: does it open, and has the bot migrated it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.files import is_busy, sqlite_reason
from bot.storage.schema import load_migrations


def database_health(path: Path) -> str | None:
    """None when the file opens read-only and has every migration applied; else why not, in one line.

    Read-only and without creating anything: a check must not make the database it checks. A lock held by the
    running bot is healthy (it is writing).
    """
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
