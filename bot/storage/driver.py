"""The driver seam: what the classes of what is kept need of a database. Statements with named parameters
(``:guild``), run one at a time (each its own transaction) or inside `transaction()`; sqlite.py offers them as
sqlite3 binds them, postgres.py numbers them for asyncpg. Times are aware datetimes in the API, Unix seconds in
the database."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import fields
from datetime import UTC, datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Params = Mapping[str, Any]
NO_PARAMS: Params = MappingProxyType({})
PURGE_BATCH = 500
"""Rows deleted per statement by a purge: a few milliseconds of the database each (see bench/purge.py)."""
T = TypeVar("T", bound="DataclassInstance")
R = TypeVar("R")
LARGEST_ID = 2**63 - 1
"""The largest id a database column holds (a custom_id from a hostile client may name any number)."""


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

    async def close(self) -> None: ...

    def transaction(self) -> AbstractAsyncContextManager[Session]: ...

    async def in_one_trip(self, body: Callable[[Session], Awaitable[R]], /) -> R:
        """body's statements as one transaction, sent as one call: on SQLite one hop to the connection's thread
        (body must await nothing but its session's statements), on PostgreSQL a transaction."""
        ...

    async def fetch_one(self, sql: str, params: Params = ..., /) -> Row | None: ...

    async def fetch_all(self, sql: str, params: Params = ..., /) -> Sequence[Row]: ...

    async def write(self, sql: str, params: Params = ..., /) -> Sequence[Row]:
        """One write statement; its RETURNING rows."""
        ...

    async def execute(self, sql: str, params: Params = ..., /) -> int:
        """One write statement; how many rows it changed."""
        ...


async def purge(db: Statements, sql: str, oldest: datetime, batch: int = PURGE_BATCH) -> int:
    """Run a purge's DELETE (of rows created before :oldest, :batch at a time) until it deletes less than a batch;
    return how many rows it deleted. Each batch is a short transaction of its own: other statements go between."""
    params, purged, deleted = {"oldest": epoch(oldest), "batch": batch}, 0, batch
    while deleted == batch:
        deleted = await db.execute(sql, params)
        purged += deleted
    return purged
