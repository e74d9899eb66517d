"""Open the store the settings choose: PostgreSQL when DATABASE_URL is set, else the SQLite file."""

from __future__ import annotations

import asyncio
import logging

from bot.settings import Settings
from bot.storage.database import Database
from bot.storage.errors import StorageUnavailable
from bot.storage.interface import Storage
from bot.storage.store import DEFAULT_BUSY_TIMEOUT_MS

_log = logging.getLogger(__name__)


async def open_storage(settings: Settings, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Storage:
    """The open, migrated database the settings name (its place logged: a file, or a host and database)."""
    storage: Storage
    if settings.database_url is None:
        storage = await Database.open(settings.database_path, busy_timeout_ms=busy_timeout_ms)
    else:
        from bot.storage.postgres import PostgresDatabase  # asyncpg only for those who use PostgreSQL

        storage = await PostgresDatabase.open(settings.database_url)
    _log.info("Keeping the game's data in %s", storage.location)
    return storage


def probe_postgres(url: str) -> None:
    """Connect once and close, before the bot logs in: StorageUnavailable naming the host when it cannot."""
    try:
        from bot.storage.postgres.pool import PostgresStore
    except ImportError as error:
        raise StorageUnavailable(
            "DATABASE_URL", 'PostgreSQL needs asyncpg: pip install -e ".[postgres]"'
        ) from error

    async def probe() -> None:
        store = await PostgresStore.connect(url, min_size=1, max_size=1)
        await store.close()

    asyncio.run(probe())
