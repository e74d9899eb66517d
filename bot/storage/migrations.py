"""Numbered schema migrations: ``bot/migrations/V<n>__<what>.sql``, applied in order, one transaction each.

The database's version is ``PRAGMA user_version``: the number of the last migration applied. A migration file
holds plain statements (no BEGIN or COMMIT: the runner wraps each file in one transaction together with the
new user_version, so a failure leaves the database at the previous version). Numbers start at 1 and have no
gaps. Two processes starting at once are safe: each migration re-reads the version inside its transaction.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from bot.storage.errors import StorageError
from bot.storage.store import Store

_log = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"V(?P<version>[0-9]+)__(?P<name>[A-Za-z0-9_]+)\.sql")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered migration file."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file's statements one by one, split where SQLite itself says a statement is complete."""
        statements: list[str] = []
        pending = ""
        for piece in self.sql.split(";"):
            pending += piece + ";"
            if sqlite3.complete_statement(pending):
                if _has_code(pending):
                    statements.append(pending.strip())
                pending = ""
        if _has_code(pending.rstrip(";")):
            raise StorageError(f"Migration V{self.version}__{self.name}.sql ends in an unfinished statement")
        return statements


def _has_code(sql: str) -> bool:
    """True when sql holds more than whitespace, comments and semicolons."""
    lines = (line.split("--", 1)[0] for line in sql.splitlines())
    return any(line.strip(" \t;") for line in lines)


def load_migrations(directory: Traversable | None = None) -> list[Migration]:
    """Read every V<n>__<name>.sql in directory (default: the bot's own), sorted and checked for gaps."""
    directory = directory or resources.files("bot").joinpath("migrations")
    found = []
    for entry in directory.iterdir():
        match = _FILE_NAME.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match["version"]), match["name"], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in found]
    if versions != list(range(1, len(found) + 1)):
        raise StorageError(f"Migrations must be numbered 1, 2, 3... with no gaps; found {versions}")
    return found


def check_not_newer(location: object, current: int, known: int) -> None:
    """Refuse a database whose schema is newer than the migrations this code knows (both stores)."""
    if current > known:
        raise StorageError(
            f"The database at {location} has schema version {current}, newer than this rollkeeper knows "
            f"({known}); run a newer rollkeeper or restore a backup."
        )


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
