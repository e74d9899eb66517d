"""The bot's database on a PostgreSQL server: a pool, migrations at open, a small class for each thing kept."""

from __future__ import annotations

from datetime import datetime, timedelta
from types import TracebackType

from bot.storage.migrations import Migration
from bot.storage.postgres.applied import PostgresAppliedInteractions
from bot.storage.postgres.extended import PostgresExtendedTests
from bot.storage.postgres.leases import PostgresShardLeases
from bot.storage.postgres.meta import PostgresMeta
from bot.storage.postgres.migrations import migrate, schema_version
from bot.storage.postgres.pool import PostgresStore
from bot.storage.postgres.roll_log import PostgresRollLog
from bot.storage.postgres.rolls import PostgresRolls
from bot.storage.postgres.willpower import PostgresWillpower


class PostgresDatabase:
    """The open database: ``await PostgresDatabase.open(url)``, then ``.rolls``, ``.willpower``, ``.extended``,
    ``.meta``, ``.applied``, ``.leases`` - the same interface as SQLite's `bot.storage.Database`."""

    def __init__(self, store: PostgresStore) -> None:
        self.store = store
        self.rolls = PostgresRolls(store)
        self.willpower = PostgresWillpower(store)
        self.extended = PostgresExtendedTests(store)
        self.meta = PostgresMeta(store)
        self.applied = PostgresAppliedInteractions(store)
        self.leases = PostgresShardLeases(store)
        self.log = PostgresRollLog(store)

    @classmethod
    async def open(
        cls, url: str, *, migrations: list[Migration] | None = None, max_connections: int = 10
    ) -> PostgresDatabase:
        """Connect to url and migrate; StorageUnavailable naming the host (never the password) when the server
        cannot be reached, StorageError when its schema is newer than this code."""
        store = await PostgresStore.connect(url, max_size=max_connections)
        try:
            await migrate(store, migrations)
        except BaseException:
            await store.close()
            raise
        return cls(store)

    @property
    def location(self) -> str:
        return self.store.location

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        return await schema_version(self.store)

    async def purge_expired(
        self, now: datetime, push_lifetime: timedelta, log_retention: timedelta | None = None
    ) -> int:
        """Delete what has outlived its use (Year Zero rolls past their lifetime, and roll log entries past
        log_retention when given) in small batches; return how many Year Zero rolls were deleted. PostgreSQL's
        autovacuum gives the space back by itself."""
        purged = await self.rolls.purge_expired(now, push_lifetime)
        if log_retention is not None:
            await self.log.purge_older(now, log_retention)
        return purged

    async def close(self) -> None:
        """Write what is still noted, then close the pool; harmless when already closed."""
        if not self.store.closed:
            await self.rolls.flush_messages()
        await self.store.close()

    async def __aenter__(self) -> PostgresDatabase:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()
