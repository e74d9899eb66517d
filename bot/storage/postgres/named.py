"""Statements written with named parameters (``:guild``, as SQLite reads them) run through asyncpg, which reads
numbered ones (``$1``): the shared storage code's statements (`bot.storage.shared.statements`) on PostgreSQL.

Each name becomes one number, the same each time it appears (``:id`` twice is ``$1`` twice). A doubled colon
is a cast (``:ids::bigint[]``) and a colon after a letter or digit is no parameter, so both are left alone;
a string literal holding a colon before a letter would be read as a name, so such text goes in a parameter.
"""

from __future__ import annotations

import functools
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.storage.postgres.pool import PostgresStore
from bot.storage.shared.statements import NO_PARAMS, Params

_NAME = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


@functools.cache
def numbered(sql: str) -> tuple[str, tuple[str, ...]]:
    """sql with ``$n`` in place of each ``:name``, and the names in the order of their numbers (kept once per
    statement: the statements are the storage modules' constants, a few dozen)."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match[1] not in names:
            names.append(match[1])
        return f"${names.index(match[1]) + 1}"

    return _NAME.sub(number, sql), tuple(names)


def bound(sql: str, params: Params) -> tuple[str, list[Any]]:
    """The numbered statement and its arguments in number order (KeyError names a parameter not given)."""
    text, names = numbered(sql)
    return text, [params[name] for name in names]


class NamedTransaction:
    """The statements of one transaction on an asyncpg connection; `connection` for the drivers' own helpers."""

    __slots__ = ("connection",)

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> asyncpg.Record | None:
        text, args = bound(sql, params)
        return await self.connection.fetchrow(text, *args)

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> list[asyncpg.Record]:
        text, args = bound(sql, params)
        return list(await self.connection.fetch(text, *args))

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        text, names = numbered(sql)
        await self.connection.executemany(text, [[row[name] for name in names] for row in rows])


class NamedStatements:
    """A PostgreSQL store as the shared code sees it: named statements, single or in a transaction."""

    def __init__(self, store: PostgresStore) -> None:
        self.store = store

    @property
    def closed(self) -> bool:
        return self.store.closed

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[NamedTransaction]:
        async with self.store.transaction() as connection:
            yield NamedTransaction(connection)

    async def fetch_one(self, sql: str, params: Params = NO_PARAMS) -> asyncpg.Record | None:
        text, args = bound(sql, params)
        return await self.store.fetch_one(text, *args)

    async def fetch_all(self, sql: str, params: Params = NO_PARAMS) -> Sequence[asyncpg.Record]:
        text, args = bound(sql, params)
        return await self.store.fetch_all(text, *args)

    write = fetch_all

    async def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        text, args = bound(sql, params)
        return await self.store.execute(text, *args)
