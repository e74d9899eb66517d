"""Numbered schema migrations, ``migrations/<database>/V<n>__<what>.sql``, read in order (docs/architecture.md)."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from bot.storage.errors import StorageError

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
    """More than whitespace, comments and semicolons."""
    lines = (line.split("--", 1)[0] for line in sql.splitlines())
    return any(line.strip(" \t;") for line in lines)


def load_migrations(database: str = "sqlite", directory: Traversable | None = None) -> list[Migration]:
    """Every V<n>__<name>.sql of one database ("sqlite", "postgres") or directory, sorted and checked for gaps."""
    directory = directory or resources.files("bot.storage").joinpath("migrations", database)
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
