"""The driver seam: what the classes of what is kept need of a database. Statements with named parameters
(``:guild``), run one at a time (each its own transaction) or inside `transaction()`.

SQLite's `Store` and `Transaction` (bot/storage/sqlite_store.py) offer this as they are (sqlite3 binds ``:name``
itself); PostgreSQL's `PostgresStore` and `NamedTransaction` (bot/storage/postgres.py) number them for asyncpg.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from types import MappingProxyType
from typing import Any, Protocol

Params = Mapping[str, Any]
NO_PARAMS: Params = MappingProxyType({})
PURGE_BATCH = 500
"""Rows deleted per statement by a purge (Year Zero rolls, roll log entries): a few milliseconds of the database
each (see bench/purge.py)."""


def epoch(moment: datetime) -> float:
    """Unix seconds of an aware datetime (a naive one is refused: its time zone would be a guess)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"expected an aware datetime (e.g. discord.utils.utcnow()), got {moment!r}")
    return moment.timestamp()


class Row(Protocol):
    """A row read back: its columns by name (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: str, /) -> Any: ...


class Session(Protocol):
    """The statements of one transaction."""

    async def fetch_one(self, sql: str, params: Params = ..., /) -> Row | None: ...

    async def fetch_all(self, sql: str, params: Params = ..., /) -> Sequence[Row]: ...

    async def execute_many(self, sql: str, rows: Iterable[Params], /) -> object: ...


class Statements(Protocol):
    """A database: single statements, each a transaction of its own, and transactions of several."""

    @property
    def closed(self) -> bool: ...

    def transaction(self) -> AbstractAsyncContextManager[Session]: ...

    async def fetch_one(self, sql: str, params: Params = ..., /) -> Row | None: ...

    async def fetch_all(self, sql: str, params: Params = ..., /) -> Sequence[Row]: ...

    async def write(self, sql: str, params: Params = ..., /) -> Sequence[Row]:
        """One write statement; its RETURNING rows."""
        ...

    async def execute(self, sql: str, params: Params = ..., /) -> int:
        """One write statement; how many rows it changed."""
        ...
