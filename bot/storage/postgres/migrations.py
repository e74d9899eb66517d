"""Numbered PostgreSQL migrations: ``bot/migrations/postgres/V<n>__<what>.sql``, applied in order at start.

Each file runs in one transaction together with its row in ``schema_migrations`` (version, name, when), so a
failure leaves the database at the previous version. Processes starting at once take turns through a
session-level advisory lock: the first applies what is missing, the others then find nothing left to do.
"""

from __future__ import annotations

import logging
from importlib import resources

import asyncpg

from bot.storage.migrations import Migration, check_not_newer, load_migrations
from bot.storage.postgres.pool import PostgresStore

_log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x726F6C6C6B656570
"""The advisory lock key held while migrating ('rollkeep' in ASCII): one process at a time."""
MIGRATION_TIMEOUT = 600.0
"""Seconds a migration statement (or the wait for another process's migrations) may take: far longer than a
player's statement, since a migration may rewrite a large table once."""

_TRACKING = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""


def load_postgres_migrations() -> list[Migration]:
    """The bot's PostgreSQL migrations, sorted and checked for gaps."""
    return load_migrations(resources.files("bot").joinpath("migrations", "postgres"))


async def schema_version(store: PostgresStore) -> int:
    """The number of the last migration applied (0 for a new database)."""
    async with store.connection() as connection:
        return await _applied(connection)


async def _applied(connection: asyncpg.Connection) -> int:
    exists = await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await connection.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))


async def migrate(store: PostgresStore, migrations: list[Migration] | None = None) -> int:
    """Apply every migration newer than the database, under the advisory lock; return the new version."""
    migrations = load_postgres_migrations() if migrations is None else migrations
    async with store.connection() as connection:
        await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK, timeout=MIGRATION_TIMEOUT)
        try:
            await connection.execute(_TRACKING)
            current = await _applied(connection)
            check_not_newer(store.location, current, len(migrations))
            for migration in migrations[current:]:
                await _apply(connection, migration)
        finally:
            await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
    return len(migrations)


async def _apply(connection: asyncpg.Connection, migration: Migration) -> None:
    async with connection.transaction():
        await connection.execute(migration.sql, timeout=MIGRATION_TIMEOUT)
        await connection.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", migration.version, migration.name
        )
    _log.info("Applied PostgreSQL migration V%d__%s", migration.version, migration.name)
