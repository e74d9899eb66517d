"""Seven Kingdoms extended tests in PostgreSQL: a named task per channel (any case), and its progress."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import asyncpg

from bot.storage.applied import AlreadyApplied
from bot.storage.errors import NoSuchExtendedTest, TaskComplete
from bot.storage.extended import ExtendedTask, _check_count, recorded, task_name
from bot.storage.postgres.applied import forget_in, recalled_in, remember_in
from bot.storage.postgres.pool import PostgresStore

_COLUMNS = "guild_id, channel_id, name, needed, progress, started_by"

# A restart keeps who first started the task.
_START = f"""
INSERT INTO extended_tests (guild_id, channel_id, name, needed, progress, started_by) VALUES ($1, $2, $3, $4, 0, $5)
ON CONFLICT (guild_id, channel_id, name_key) DO UPDATE SET name = excluded.name, needed = excluded.needed,
    progress = 0, started_by = coalesce(extended_tests.started_by, excluded.started_by)
RETURNING {_COLUMNS}
"""

_WHERE = "WHERE guild_id = $1 AND channel_id = $2 AND name_key = lower($3)"

# Withdrawing a roll: see the SQLite store. A (re)start is put back only while the task is as the roll left it.
_AS_LEFT = f"{_WHERE} AND needed = $4 AND progress = $5"

_TAKE_BACK = f"""
UPDATE extended_tests SET progress = progress - $6
{_WHERE} AND needed = $4 AND progress >= $6 AND (progress < needed OR progress = $5)
RETURNING name
"""

_ADD = f"UPDATE extended_tests SET progress = progress + $4 {_WHERE} RETURNING {_COLUMNS}"

# A roll counts only while the task is unfinished: of two rolls racing for the last degrees, the second
# re-reads the row the first committed and no longer matches.
_ADD_UNFINISHED = _ADD.replace(" RETURNING", " AND progress < needed RETURNING")


async def _put_back(connection: asyncpg.Connection, outcome: dict[str, Any]) -> str | None:
    """Withdraw the outcome's roll inside the connection's transaction: its degrees taken back, or the task it
    (re)started put back as the roll found it; the task's name, or None when the roll's work stays."""
    left, before = outcome["task"], outcome["before"]
    where = (left["guild_id"], left["channel_id"], left["name"], left["needed"], left["progress"])
    if not outcome["fresh"]:
        return await connection.fetchval(_TAKE_BACK, *where, outcome["added"])
    if before is None:
        return await connection.fetchval(f"DELETE FROM extended_tests {_AS_LEFT} RETURNING name", *where)
    restore = f"UPDATE extended_tests SET needed = $6, progress = $7 {_AS_LEFT} RETURNING name"
    return await connection.fetchval(restore, *where, before["needed"], before["progress"])


def _task(row: Mapping[str, Any]) -> ExtendedTask:
    return ExtendedTask(
        row["guild_id"], row["channel_id"], row["name"], row["needed"], row["progress"], row["started_by"]
    )


class PostgresExtendedTests:
    """Extended tests kept per (guild_id, channel_id, name)."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    async def start(
        self, guild_id: int, channel_id: int, name: str, needed: int, *, started_by: int | None = None
    ) -> ExtendedTask:
        """Start the task at progress 0; a task of the same name in the channel starts over."""
        _check_count("Degrees needed", needed, low=1)
        row = await self._store.fetch_one(_START, guild_id, channel_id, task_name(name), needed, started_by)
        assert row is not None  # an upsert always returns its row
        return _task(row)

    async def add(self, guild_id: int, channel_id: int, name: str, degrees: int) -> ExtendedTask:
        """Add degrees (0 or more) to the progress in one statement; NoSuchExtendedTest if not started."""
        _check_count("Degrees", degrees, low=0)
        tidy = task_name(name)
        row = await self._store.fetch_one(_ADD, guild_id, channel_id, tidy, degrees)
        if row is None:
            raise NoSuchExtendedTest(tidy)
        return _task(row)

    async def record(
        self,
        guild_id: int,
        channel_id: int,
        name: str,
        needed: int,
        degrees: int,
        *,
        fresh: bool,
        started_by: int | None = None,
        interaction_id: int | None = None,
    ) -> ExtendedTask:
        """Count one roll's degrees in one transaction: (re)start the task first when fresh. A repeat of
        interaction_id counts nothing: AlreadyApplied, with the first one's task and degrees.

        An unfinished task only: NoSuchExtendedTest if it is missing, TaskComplete if it finished meanwhile.
        """
        _check_count("Degrees needed", needed, low=1)
        _check_count("Degrees", degrees, low=0)
        tidy = task_name(name)
        async with self._store.transaction() as connection:
            if (outcome := await recalled_in(connection, interaction_id)) is not None:
                raise AlreadyApplied(outcome)
            before = await connection.fetchrow(
                f"SELECT needed, progress FROM extended_tests {_WHERE}", guild_id, channel_id, tidy
            )
            if fresh:
                await connection.execute(_START, guild_id, channel_id, tidy, needed, started_by)
            row = await connection.fetchrow(_ADD_UNFINISHED, guild_id, channel_id, tidy, degrees)
            if row is None:
                raise TaskComplete(tidy) if before else NoSuchExtendedTest(tidy)
            task = _task(row)
            await remember_in(connection, interaction_id, recorded(task, degrees, before, fresh=fresh))
        return task

    async def withdraw(self, interaction_id: int) -> bool:
        """Take back the roll counted by interaction_id, whose answer never reached the player (see the SQLite
        store); False when it stays."""
        async with self._store.transaction() as connection:
            outcome = await recalled_in(connection, interaction_id)
            if outcome is None or "fresh" not in outcome:  # not applied (or by a version before withdrawals)
                return False
            undone = await _put_back(connection, outcome)
            if undone is None:
                return False
            await forget_in(connection, interaction_id)
        return True

    async def get(self, guild_id: int, channel_id: int, name: str) -> ExtendedTask | None:
        """The task, or None if it was never started here (or was cleared)."""
        sql = f"SELECT {_COLUMNS} FROM extended_tests {_WHERE}"
        row = await self._store.fetch_one(sql, guild_id, channel_id, task_name(name))
        return _task(row) if row else None

    async def in_channel(self, guild_id: int, channel_id: int) -> list[ExtendedTask]:
        """Every task of the channel, by name (whatever its case)."""
        sql = f"SELECT {_COLUMNS} FROM extended_tests WHERE guild_id = $1 AND channel_id = $2 ORDER BY name_key, name"
        return [_task(row) for row in await self._store.fetch_all(sql, guild_id, channel_id)]

    async def clear(self, guild_id: int, channel_id: int, name: str) -> bool:
        """Forget the task; False if there was none."""
        sql = f"DELETE FROM extended_tests {_WHERE}"
        return bool(await self._store.execute(sql, guild_id, channel_id, task_name(name)))
