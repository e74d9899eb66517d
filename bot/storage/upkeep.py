"""Keeping the database file small while the bot serves: freed pages go back to the file system a step at a
time, and the WAL is truncated after a large purge instead of staying at its peak size until a restart.

Each step is one short statement through the store, which takes turns with every other task's statements, so
a player's roll waits for one step at most (a few milliseconds), never for the whole clean-up.
"""

from __future__ import annotations

import logging
import time

from bot.storage.sqlite_store import Store

_log = logging.getLogger(__name__)

INCREMENTAL = 2
"""PRAGMA auto_vacuum's value for INCREMENTAL: freed pages are kept on a list until incremental_vacuum."""
RECLAIM_STEP_PAGES = 256
"""Pages given back per statement (1 MB at SQLite's default 4 KiB page)."""
STUCK_STEPS = 3
"""Steps in a row that give nothing back before the clean-up stops (a file that is not INCREMENTAL gives none)."""


async def _pragma(store: Store, name: str) -> int:
    row = await store.fetch_one(f"PRAGMA {name}")
    return int(row[0]) if row else 0


async def use_incremental_vacuum(store: Store) -> None:
    """Make the file one that can shrink: auto_vacuum INCREMENTAL. A new database takes it before its first
    table; an older one needs one VACUUM, done here once (after a purge, when the file holds least)."""
    if await _pragma(store, "auto_vacuum") == INCREMENTAL:
        return
    started = time.monotonic()
    await store.execute("PRAGMA auto_vacuum = INCREMENTAL")
    if await _pragma(store, "page_count") > 1:
        await store.execute("VACUUM")
    _log.info("The database can now shrink after purges (a one-time VACUUM, %.1f s)", time.monotonic() - started)


async def reclaim_space(store: Store, step_pages: int = RECLAIM_STEP_PAGES) -> int:
    """Give the file's free pages back to the file system, step_pages per statement, then truncate the WAL;
    return how many pages were given back."""
    given_back, stuck = 0, 0
    while stuck < STUCK_STEPS and (free := await _pragma(store, "freelist_count")) > 0:
        await store.write(f"PRAGMA incremental_vacuum({min(free, int(step_pages)):d})")
        after = await _pragma(store, "freelist_count")
        stuck = stuck + 1 if after >= free else 0
        given_back += max(free - after, 0)
    await store.fetch_all("PRAGMA wal_checkpoint(TRUNCATE)")
    return given_back
