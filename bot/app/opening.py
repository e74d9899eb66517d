"""The store the app's settings choose: PostgreSQL when DATABASE_URL is set, else the SQLite file; and what the
command line asks of PostgreSQL before the bot starts (asyncpg is imported only for those who use it). The app's
choice, not storage's: bot/storage/ offers both drivers and never reads the settings."""

from __future__ import annotations

import asyncio
import logging

from bot.settings import Settings
from bot.storage.database import Storage
from bot.storage.errors import StorageError, StorageUnavailable
from bot.storage.sqlite import DEFAULT_BUSY_TIMEOUT_MS, Database

_log = logging.getLogger(__name__)

NEEDS_ASYNCPG = 'PostgreSQL needs asyncpg: pip install -e ".[postgres]"'


async def open_storage(settings: Settings, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Storage:
    """The open, migrated database the settings name (its place logged: a file, or a host and database)."""
    storage: Storage
    if settings.database_url is None:
        storage = await Database.open(settings.database_path, busy_timeout_ms=busy_timeout_ms)
    else:
        from bot.storage.postgres import PostgresDatabase

        storage = await PostgresDatabase.open(settings.database_url)
    _log.info("Keeping the game's data in %s", storage.location)
    return storage


def probe_postgres(url: str) -> None:
    """Connect once and close, before the bot logs in: StorageUnavailable naming the host when it cannot."""
    try:
        from bot.storage.postgres import PostgresStore
    except ImportError as error:
        raise StorageUnavailable("DATABASE_URL", NEEDS_ASYNCPG) from error

    async def probe() -> None:
        store = await PostgresStore.connect(url, min_size=1, max_size=1)
        await store.close()

    asyncio.run(probe())


def postgres_health(url: str) -> str | None:
    """What `python -m bot healthcheck` asks of PostgreSQL: None when it answers and the bot has migrated it,
    else why not in one line (never the password). Reads only."""
    try:
        from bot.storage.postgres import PostgresStore, load_postgres_migrations, schema_version
    except ImportError:
        return NEEDS_ASYNCPG

    async def version() -> int:
        store = await PostgresStore.connect(url, min_size=1, max_size=1)
        try:
            return await schema_version(store)
        finally:
            await store.close()

    try:
        found, latest = asyncio.run(version()), len(load_postgres_migrations())
    except StorageError as error:
        return str(error)
    if found != latest:
        return f"the database is at schema version {found}, not {latest}: the bot has not migrated it"
    return None
