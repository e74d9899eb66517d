"""The bot's database: one SQLite file, one connection, and a small class for each thing it keeps."""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType

from bot.storage.applied import AppliedInteractions
from bot.storage.errors import StorageBusy, StorageUnavailable
from bot.storage.extended import ExtendedTests
from bot.storage.leases import ShardLeases
from bot.storage.meta import Meta
from bot.storage.migrations import Migration, migrate, schema_version
from bot.storage.roll_log import RollLog
from bot.storage.rolls import YearZeroRolls
from bot.storage.store import DEFAULT_BUSY_TIMEOUT_MS, Store
from bot.storage.upkeep import reclaim_space, use_incremental_vacuum
from bot.storage.willpower import Willpower

LOCKED_AT_START = "another program kept it locked past the busy timeout"


class Database:
    """The open database: ``await Database.open(path)``, then ``.rolls``, ``.willpower``, ``.extended``,
    ``.meta``, ``.applied`` (interactions applied, for answering repeats) ``.leases`` (shards served)
    and ``.log`` (the roll log).

    Closes with ``await db.close()`` or at the end of ``async with``.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
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

    async def purge_expired(
        self, now: datetime, push_lifetime: timedelta, log_retention: timedelta | None = None
    ) -> int:
        """Delete what has outlived its use (Year Zero rolls past their lifetime, and roll log entries past
        log_retention when given) in small batches, then give the freed space back and truncate the WAL; return
        how many Year Zero rolls were deleted."""
        purged = await self.rolls.purge_expired(now, push_lifetime)
        if log_retention is not None:
            await self.log.purge_older(now, log_retention)
        await use_incremental_vacuum(self.store)
        await reclaim_space(self.store)
        return purged

    async def close(self) -> None:
        """Write what is still noted, then close the connection; harmless when already closed."""
        if not self.store.closed and self.store.lost is None:
            await self.rolls.flush_messages()
        await self.store.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()
