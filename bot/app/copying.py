"""Copy what a SQLite database keeps into a PostgreSQL one (``python -m bot copy-db``; docs/self-hosting.md).

Idempotent: every row is written by its key, so a second run leaves PostgreSQL holding exactly the source's rows
(rows only PostgreSQL has are left alone). SQLite is read in one transaction, PostgreSQL written in one. Roll ids
are kept, so posted Push buttons still find their rolls, and PostgreSQL's next id follows SQLite's highest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import Database


@dataclass(frozen=True, slots=True)
class Table:
    """One table to copy: its columns in both databases, and the upsert that writes a row by its key."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]

    def select(self) -> str:
        return f"SELECT {', '.join(self.columns)} FROM {self.name}"

    def upsert(self) -> str:
        values = ", ".join(f"${number}" for number in range(1, len(self.columns) + 1))
        changes = ", ".join(f"{column} = excluded.{column}" for column in self.columns if column not in self.key)
        return (
            f"INSERT INTO {self.name} ({', '.join(self.columns)}) VALUES ({values}) "
            f"ON CONFLICT ({', '.join(self.key)}) DO UPDATE SET {changes}"
        )


ROLL_COLUMNS = tuple(
    "id guild_id channel_id user_id message_id state payload pushed_payload created_at pushed_at pushes_allowed"
    " pushes_made".split()
)
TABLES = (
    Table("yz_rolls", ROLL_COLUMNS, ("id",)),
    Table("willpower", ("guild_id", "user_id", "points"), ("guild_id", "user_id")),
    Table("resource_ratings", ("guild_id", "user_id", "resource", "rating"), ("guild_id", "user_id", "resource")),
    Table(
        "extended_tests",
        ("guild_id", "channel_id", "name", "needed", "progress", "started_by"),
        ("guild_id", "channel_id", "name_key"),
    ),
    Table("meta", ("key", "value"), ("key",)),
    Table("applied_interactions", ("interaction_id", "subject", "outcome", "applied_at"), ("interaction_id",)),
    Table(
        "roll_log",
        tuple(
            "id guild_id channel_id user_id created_at system kind reading events extras private card"
            " revealed_at interaction_id".split()
        ),
        ("id",),
    ),
)
"""Shard leases are not copied: they belong to the processes running on each database."""

COPY_TIMEOUT = 3600.0
"""Seconds one table's copy may take (a player's statement gets 2.5 s; a large table takes longer)."""

_SQLITE_HIGHEST_ROLL = "SELECT coalesce(max(seq), 0) AS seq FROM sqlite_sequence WHERE name IN ('yz_rolls', 'roll_log')"
_ADVANCE_ROLL_IDS = """
SELECT setval(pg_get_serial_sequence('yz_rolls', 'id'), greatest(
    $1::bigint, (SELECT coalesce(max(id), 0) FROM yz_rolls), (SELECT coalesce(max(id), 0) FROM roll_log),
    coalesce(pg_sequence_last_value(pg_get_serial_sequence('yz_rolls', 'id')), 0), 1
))
"""


async def copy_database(source: Database, target: PostgresDatabase) -> dict[str, int]:
    """Copy every table of source into target; return how many rows each table had in source."""
    rows, highest_roll = await _read_all(source)
    async with target.store.connection() as connection, connection.transaction():
        for table in TABLES:
            await _write(connection, table, rows[table.name])
        await connection.execute(_ADVANCE_ROLL_IDS, highest_roll)
    return {name: len(table_rows) for name, table_rows in rows.items()}


async def _read_all(source: Database) -> tuple[dict[str, list[tuple[Any, ...]]], int]:
    async with source.store.transaction() as transaction:
        rows = {table.name: [tuple(row) for row in await transaction.fetch_all(table.select())] for table in TABLES}
        sequence = await transaction.fetch_one(_SQLITE_HIGHEST_ROLL)
    return rows, int(sequence["seq"]) if sequence else 0


async def _write(connection: asyncpg.Connection, table: Table, rows: Sequence[tuple[Any, ...]]) -> None:
    if rows:
        await connection.executemany(table.upsert(), rows, timeout=COPY_TIMEOUT)
