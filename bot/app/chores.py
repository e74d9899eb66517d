"""The bot's periodic chores, run behind it while it serves: the purge of expired rolls (at start, then every
PURGE_INTERVAL; a SQLite file then gives the space it freed back) and, for a SQLite file, the watch that notices
the file deleted or replaced while the bot idles.

A feature that must do something before a purge registers a hook with the bot (``add_purge_hook``): the Year Zero
feature marks the messages of expiring rolls ended. The purge runs the hooks it is given, knowing no feature."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

import discord

from bot.interactions.rollkeeper import PurgeHook
from bot.settings import Settings
from bot.storage.database import Storage
from bot.storage.errors import StorageBusy, StorageUnavailable
from bot.storage.sqlite import Database, Store

_log = logging.getLogger(__name__)

PURGE_INTERVAL = timedelta(hours=1)
APPLIED_RETENTION = timedelta(hours=24)  # how long an applied interaction is remembered: far past any replay
RECLAIM_STEP_PAGES = 256  # pages given back to the file system per statement after a purge (1 MB at 4 KiB)
STUCK_STEPS = 3  # steps in a row that give nothing back before the clean-up stops (a file not INCREMENTAL)
FILE_WATCH_SECONDS = 5.0
"""How often an idle bot checks that its database file is still the one it opened (every statement checks too)."""


async def purge_expired_rolls(
    db: Storage, settings: Settings, now: datetime, before: Sequence[PurgeHook] = ()
) -> int:
    """Run the hooks `before` (the Year Zero feature takes the buttons off a few expiring rolls' messages), then
    delete the Year Zero rolls past their lifetime (in small batches, then shrink the file), the applied
    interactions older than both a day and that lifetime (a push's outcome is shown on a click as long as its roll
    lives), and the roll log's entries past ROLL_LOG_DAYS; return the rolls deleted."""
    for hook in before:
        await hook()
    started = time.monotonic()
    purged = await purge_store(db, now, settings.push_lifetime, settings.roll_log_retention)
    level = logging.INFO if purged else logging.DEBUG
    _log.log(level, "Purged %d expired Year Zero rolls in %.1f s", purged, time.monotonic() - started)
    await db.applied.purge(discord.utils.utcnow() - max(APPLIED_RETENTION, settings.push_lifetime))
    return purged


async def purge_store(
    db: Storage, now: datetime, push_lifetime: timedelta, log_retention: timedelta | None = None
) -> int:
    """Delete what has outlived its use (Year Zero rolls past their lifetime, and roll log entries past
    log_retention when given) in small batches, then give a SQLite file's freed space back (PostgreSQL's autovacuum
    does so by itself); return how many Year Zero rolls were deleted."""
    purged = await db.store.purge("yz_rolls", now - push_lifetime)
    if log_retention is not None:
        await db.store.purge("roll_log", now - log_retention)
    if isinstance(db, Database):
        await use_incremental_vacuum(db.store)
        await reclaim_space(db.store)
    return purged


async def use_incremental_vacuum(store: Store) -> None:
    """Make the file one that can shrink (auto_vacuum INCREMENTAL, 2): a new database takes it before its first
    table; an older one needs one VACUUM, done here once (after a purge, when the file holds least)."""
    if await store.pragma("auto_vacuum") == 2:
        return
    started = time.monotonic()
    await store.write("PRAGMA auto_vacuum = INCREMENTAL")
    if await store.pragma("page_count") > 1:
        await store.write("VACUUM")
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


class Chores:
    """The chores' tasks for one bot: started once its database is open, stopped when it closes; `purge` is the
    bot's purge of expired rolls."""

    def __init__(self, purge: Callable[[], Awaitable[int]]) -> None:
        self._purge = purge
        self._tasks: list[asyncio.Task[None]] = []
        self._stopped = False

    def start(self, database: Storage, first_purge_done: asyncio.Event) -> None:
        """Purge now and periodically (first_purge_done is set once the first purge ran); watch database's file
        if it is one."""
        purging = self._purge_periodically(first_purge_done)
        self._tasks.append(asyncio.create_task(purging, name="rollkeeper-purge"))
        if isinstance(database, Database):
            watch = self._watch_database_file(database)
            self._tasks.append(asyncio.create_task(watch, name="rollkeeper-file-watch"))

    async def stop(self) -> None:
        """Cancel the chores and wait for them to end (all but the one calling, if a chore is closing the bot)."""
        self._stopped = True
        tasks, self._tasks = self._tasks, []
        for chore in tasks:
            if chore is not asyncio.current_task():
                chore.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await chore

    async def _purge_periodically(self, first_purge_done: asyncio.Event) -> None:
        """Purge now (the start does not wait for it), then every PURGE_INTERVAL."""
        while True:
            try:
                await self._purge()
            except StorageBusy:
                _log.warning("Skipped purging expired rolls: the database was busy")
            except StorageUnavailable:
                return  # the database is lost: the bot is stopping
            except Exception:
                _log.exception("Purging expired rolls failed")
            first_purge_done.set()
            await asyncio.sleep(PURGE_INTERVAL.total_seconds())

    async def _watch_database_file(self, database: Database) -> None:
        while not self._stopped and database.store.lost is None:
            await asyncio.sleep(FILE_WATCH_SECONDS)
            with contextlib.suppress(StorageUnavailable):
                database.store.check_file()
