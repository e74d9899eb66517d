"""Damaged database files for the drills: a real rollkeeper database whose Willpower pages are overwritten."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from bot.app.opening import open_sqlite
from bot.storage.sqlite import Database

PLAYERS_STORED = 5000
GUILD = 1


async def damaged_database(path: Path) -> None:
    """A migrated database with PLAYERS_STORED Willpower rows, then every page they added overwritten.

    The tables' first pages (and the schema) are intact, so SQLite opens it, migrations read it and the meta
    table answers; any read of Willpower goes through a damaged page. PRAGMA quick_check reports it.
    """
    async with await open_sqlite(path) as db:
        schema_pages = await _page_count(db)
    with closing(sqlite3.connect(path)) as connection:
        rows = ((GUILD, user, user % 11) for user in range(1, PLAYERS_STORED + 1))
        connection.executemany("INSERT INTO willpower (guild_id, user_id, points) VALUES (?, ?, ?)", rows)
        connection.commit()
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    for offset in range(schema_pages * page_size, len(data)):
        data[offset] = 0x41
    path.write_bytes(bytes(data))


async def _page_count(db: Database) -> int:
    row = await db.store.fetch_one("PRAGMA page_count")
    assert row is not None
    return int(row[0])
