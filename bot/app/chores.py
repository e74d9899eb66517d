"""The bot's periodic chores, run behind it while it serves: the purge of expired rolls (at start, then every
PURGE_INTERVAL) and, for a SQLite file, the watch that notices the file deleted or replaced while the bot idles."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.roll_endings import mark_expiring
from bot.storage import Database, Storage, StorageBusy, StorageUnavailable
from bot.storage.applied import APPLIED_RETENTION

if TYPE_CHECKING:
    from bot.client import RollkeeperBot

_log = logging.getLogger(__name__)

PURGE_INTERVAL = timedelta(hours=1)
FILE_WATCH_SECONDS = 5.0
"""How often an idle bot checks that its database file is still the one it opened (every statement checks too)."""


async def purge_expired_rolls(bot: RollkeeperBot) -> int:
    """Delete the Year Zero rolls past their lifetime (in small batches, then shrink the file), first taking the
    buttons off a few of their messages, and the applied interactions older than both a day and that lifetime (a
    push's outcome is shown on a click as long as its roll lives), and the roll log's entries past ROLL_LOG_DAYS;
    return the rolls deleted."""
    await mark_expiring(bot)
    started = time.monotonic()
    settings = bot.settings
    purged = await bot.db.purge_expired(bot.now(), settings.push_lifetime, settings.roll_log_retention)
    level = logging.INFO if purged else logging.DEBUG
    _log.log(level, "Purged %d expired Year Zero rolls in %.1f s", purged, time.monotonic() - started)
    await bot.db.applied.purge(discord.utils.utcnow() - max(APPLIED_RETENTION, settings.push_lifetime))
    return purged


class Chores:
    """The chores' tasks for one bot: started once its database is open, stopped when it closes."""

    def __init__(self, bot: RollkeeperBot) -> None:
        self.bot = bot
        self._tasks: list[asyncio.Task[None]] = []
        self._stopped = False

    def start(self, database: Storage) -> None:
        """Purge now and periodically; watch database's file if it is one."""
        self._tasks.append(asyncio.create_task(self._purge_periodically(), name="rollkeeper-purge"))
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

    async def _purge_periodically(self) -> None:
        """Purge now (the start does not wait for it), then every PURGE_INTERVAL."""
        while True:
            try:
                await self.bot.purge_expired_rolls()
            except StorageBusy:
                _log.warning("Skipped purging expired rolls: the database was busy")
            except StorageUnavailable:
                return  # the database is lost: the bot is stopping
            except Exception:
                _log.exception("Purging expired rolls failed")
            self.bot.first_purge_done.set()
            await asyncio.sleep(PURGE_INTERVAL.total_seconds())

    async def _watch_database_file(self, database: Database) -> None:
        while not self._stopped and database.store.lost is None:
            await asyncio.sleep(FILE_WATCH_SECONDS)
            with contextlib.suppress(StorageUnavailable):
                database.store.check_file()
