"""The driver seam: what the classes of what is kept need of a database (docs/architecture.md, "The driver seam")."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import fields
from datetime import UTC, datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Params = Mapping[str, Any]
NO_PARAMS: Params = MappingProxyType({})
PURGE_BATCH = 500  # rows deleted per statement by a purge: a few milliseconds of the database each (bench/purge.py)
T = TypeVar("T", bound="DataclassInstance")
R = TypeVar("R")
LARGEST_ID = 2**63 - 1  # the largest id a column holds (a hostile client's custom_id may name any number)


def epoch(moment: datetime) -> float:
    """Unix seconds of an aware datetime (a naive one is refused: its time zone would be a guess)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"expected an aware datetime (e.g. discord.utils.utcnow()), got {moment!r}")
    return moment.timestamp()


def moment(seconds: float | None) -> datetime | None:
    """The aware datetime (UTC) of Unix seconds read back; None for None."""
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def storable_id(value: int) -> bool:
    """True for an id a database column can hold."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= LARGEST_ID


def from_row(kind: type[T], row: Row, **read: Any) -> T:
    """The dataclass `kind` from the row's columns of the same names; `read` gives those read otherwise."""
    return kind(**{field.name: row[field.name] for field in fields(kind) if field.name not in read}, **read)


class Row(Protocol):
    """A row read back: its columns by name or position (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: str | int, /) -> Any: ...


class Session(ABC):
    """Statements on one connection, while it is this task's: a transaction's, or one statement on its own."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: Params = NO_PARAMS, /) -> Sequence[Row]:
        """One statement; every row it gives (a write's RETURNING rows: what it changed)."""

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS, /) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class Statements(ABC):
    """A database: single statements, each a transaction of its own, and transactions of several."""

    location: str
    """Where the data is, fit for a log line or an error message (never a password)."""

    @property
    @abstractmethod
    def closed(self) -> bool:
        """True once nothing more can be written: closed (or, for a SQLite file, lost)."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def alone(self) -> AbstractAsyncContextManager[Session]:
        """A session for statements that each commit on their own (autocommit)."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Session]:
        """A session whose statements commit together when the block ends, or roll back on any error."""

    async def in_one_trip(self, body: Callable[[Session], Awaitable[R]], /) -> R:
        """body's statements as one transaction, sent as one call where the driver can (SQLite: one hop to its
        thread, so body may await nothing but its session's statements)."""
        async with self.transaction() as session:
            return await body(session)

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS, /) -> Sequence[Row]:
        async with self.alone() as session:
            return await session.fetch_all(sql, params)

    write = fetch_all  # one write statement: its RETURNING rows

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS, /) -> Row | None:
        async with self.alone() as session:
            return await session.fetch_one(sql, params)

    async def purge(self, table: str, oldest: datetime, batch: int = PURGE_BATCH) -> int:
        """Delete the table's rows created before oldest, a short transaction per batch; return how many."""
        sql, params = _PURGE_ROUND.format(table=table), {"oldest": epoch(oldest), "batch": batch}
        purged, deleted = 0, batch
        while deleted == batch:
            deleted = len(await self.write(sql, params))
            purged += deleted
        return purged


_PURGE_ROUND = """
DELETE FROM {table} WHERE id IN (SELECT id FROM {table} WHERE created_at < :oldest ORDER BY created_at LIMIT :batch)
RETURNING id
"""
