"""The bot's database in one SQLite file, through one aiosqlite connection (`sqlite_store.Store`): opened and
migrated here, its version in ``PRAGMA user_version``. Two processes starting at once are safe: each migration
re-reads the version inside its write transaction.

The file stays small while the bot serves: after a purge, freed pages go back to the file system a step at a
time and the WAL is truncated. Each step is one short statement, so a player's roll waits for one step at most.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from bot.storage.database import Storage
from bot.storage.dialects import SQLITE
from bot.storage.errors import StorageBusy, StorageUnavailable
from bot.storage.schema import Migration, check_not_newer, load_migrations
from bot.storage.sqlite_store import DEFAULT_BUSY_TIMEOUT_MS, Store

_log = logging.getLogger(__name__)

LOCKED_AT_START = "another program kept it locked past the busy timeout"


class Database(Storage):
    """The open SQLite database: ``await Database.open(path)``; closes with ``await db.close()``."""

    def __init__(self, store: Store) -> None:
        super().__init__(store, SQLITE)
        self.store = store

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        migrations: list[Migration] | None = None,
    ) -> Database:
        """Open (creating if needed) and migrate the database at path.

        Raises StorageUnavailable naming the path when it cannot be opened or stays locked, StorageError when
        its schema is newer than this code.
        """
        try:
            store = await Store.connect(Path(path), busy_timeout_ms)
        except StorageBusy as error:
            raise StorageUnavailable(Path(path).expanduser().absolute(), LOCKED_AT_START) from error
        try:
            await migrate(store, migrations)
        except BaseException as error:
            await store.close()
            if isinstance(error, StorageBusy):
                raise StorageUnavailable(store.path, LOCKED_AT_START) from error
            raise
        return cls(store)

    @property
    def path(self) -> Path:
        return self.store.path

    @property
    def location(self) -> str:
        return str(self.store.path)

    async def schema_version(self) -> int:
        """PRAGMA user_version: the number of the last migration applied."""
        return await schema_version(self.store)

    async def _give_space_back(self) -> None:
        """Give the pages a purge freed back to the file system, then truncate the WAL."""
        await use_incremental_vacuum(self.store)
        await reclaim_space(self.store)

    def _writable(self) -> bool:
        return not self.store.closed and self.store.lost is None

    async def _close(self) -> None:
        await self.store.close()


async def schema_version(store: Store) -> int:
    """The number of the last migration applied to the database (0 for a new one)."""
    row = await store.fetch_one("PRAGMA user_version")
    return int(row[0]) if row else 0


async def migrate(store: Store, migrations: list[Migration] | None = None) -> int:
    """Apply every migration newer than the database, each in its own transaction; return the new version."""
    migrations = load_migrations() if migrations is None else migrations
    known = len(migrations)
    current = await schema_version(store)
    check_not_newer(store.path, current, known)
    for migration in migrations[current:]:
        await _apply(store, migration)
    return known


async def _apply(store: Store, migration: Migration) -> None:
    async with store.transaction() as transaction:
        row = await transaction.fetch_one("PRAGMA user_version")
        if row is not None and int(row[0]) >= migration.version:
            return  # another process applied it first
        for statement in migration.statements():
            await transaction.fetch_all(statement)
        await transaction.fetch_all(f"PRAGMA user_version = {migration.version:d}")
    _log.info("Applied database migration V%d__%s", migration.version, migration.name)


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
