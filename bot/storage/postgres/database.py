"""The bot's database on a PostgreSQL server: a pool, migrations at open, a small class for each thing kept."""

from __future__ import annotations

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
from bot.storage.shared.database import SharedDatabase


class PostgresDatabase(SharedDatabase):
    """The open database: ``await PostgresDatabase.open(url)``, then ``.rolls``, ``.willpower``, ``.extended``,
    ``.meta``, ``.applied``, ``.leases`` - the same interface as SQLite's `bot.storage.Database`."""

    def __init__(self, store: PostgresStore) -> None:
        self.store: PostgresStore = store
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

    async def _give_space_back(self) -> None:
        """Nothing to do: PostgreSQL's autovacuum gives the space a purge freed back by itself."""
