"""The bot's database: one SQLite file, one connection, and a small class for each thing it keeps."""

from __future__ import annotations

import os
from pathlib import Path

from bot.storage.applied import AppliedInteractions
from bot.storage.errors import StorageBusy, StorageUnavailable
from bot.storage.extended import ExtendedTests
from bot.storage.leases import ShardLeases
from bot.storage.meta import Meta
from bot.storage.migrations import Migration, migrate, schema_version
from bot.storage.roll_log import RollLog
from bot.storage.rolls import YearZeroRolls
from bot.storage.shared.database import SharedDatabase
from bot.storage.store import DEFAULT_BUSY_TIMEOUT_MS, Store
from bot.storage.upkeep import reclaim_space, use_incremental_vacuum
from bot.storage.willpower import Willpower

LOCKED_AT_START = "another program kept it locked past the busy timeout"


class Database(SharedDatabase):
    """The open database: ``await Database.open(path)``, then ``.rolls``, ``.willpower``, ``.extended``,
    ``.meta``, ``.applied`` (interactions applied, for answering repeats) ``.leases`` (shards served)
    and ``.log`` (the roll log).

    Closes with ``await db.close()`` or at the end of ``async with``.
    """

    def __init__(self, store: Store) -> None:
        self.store: Store = store
        self.rolls = YearZeroRolls(store)
        self.willpower = Willpower(store)
        self.extended = ExtendedTests(store)
        self.meta = Meta(store)
        self.applied = AppliedInteractions(store)
        self.leases = ShardLeases(store)
        self.log = RollLog(store)

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
