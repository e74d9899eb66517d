"""The roll log in PostgreSQL: the same entries and rules as bot/storage/roll_log.py (see there). Its ids come
from yz_rolls' sequence (migration V5), so a logged roll and a stored roll never share an id unless the entry
takes its pushable roll's id on purpose."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import asyncpg

from bot.storage.postgres.pool import PostgresStore
from bot.storage.roll_log import (
    _COLUMNS,
    _COMPACT,
    MAX_READING,
    LogEntry,
    NewEntry,
    RevealClaim,
    RevealRefusal,
    _card,
    _entry,
    _refusal,
)
from bot.storage.rolls import PURGE_BATCH, epoch

_VALUES = (
    "guild_id, channel_id, user_id, created_at, system, kind, reading, events, extras, private, card, interaction_id"
)

_INSERT = f"""
INSERT INTO roll_log ({_VALUES}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
ON CONFLICT DO NOTHING RETURNING id
"""

_INSERT_AS = f"""
INSERT INTO roll_log (id, {_VALUES}) VALUES ($13, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
ON CONFLICT DO NOTHING RETURNING id
"""

_LOGGED_FOR = "SELECT id FROM roll_log WHERE interaction_id = $1"

_PURGE_BATCH = (
    "DELETE FROM roll_log WHERE id IN (SELECT id FROM roll_log WHERE created_at < $1 ORDER BY created_at LIMIT $2)"
)

_PUSH = """
UPDATE roll_log SET reading = $2, events = trim(events || ' ' || $3),
    extras = (extras::jsonb || jsonb_build_object(
        'pushes', $7::int,
        'willpower', coalesce((extras::jsonb ->> 'willpower')::int, 0) + $4,
        'banes', $5::int))::text,
    card = CASE WHEN private = 1 THEN $6 ELSE NULL END
WHERE id = $1 AND coalesce((extras::jsonb ->> 'pushes')::int, 0) < $7
"""

_REVEAL = f"""
UPDATE roll_log SET revealed_at = $3
WHERE id = $1 AND user_id = $2 AND private = 1 AND card IS NOT NULL AND revealed_at IS NULL
RETURNING {_COLUMNS}
"""

_VISIBLE = "guild_id = $1 AND channel_id = $2 AND (private = 0 OR user_id = $3)"

_PAGE = f"SELECT {_COLUMNS} FROM roll_log WHERE {_VISIBLE} AND id < $4 ORDER BY id DESC LIMIT $5"

_PAGE_NEWER = f"SELECT {_COLUMNS} FROM roll_log WHERE {_VISIBLE} AND id > $4 ORDER BY id LIMIT $5"

_STATS = f"""
SELECT {_COLUMNS} FROM roll_log
WHERE {_VISIBLE} AND created_at >= $4 AND ($5::bigint IS NULL OR user_id = $5) ORDER BY id
"""

_BETWEEN = f"""
SELECT {_COLUMNS} FROM roll_log
WHERE guild_id = $1 AND channel_id = $2 AND created_at >= $4 AND created_at < $5
  AND (private = 0 OR revealed_at IS NOT NULL OR user_id = $3)
ORDER BY id
"""


class PostgresRollLog:
    """The roll log of every channel."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    async def write(
        self, entry: NewEntry, now: datetime, *, entry_id: int | None = None, interaction_id: int | None = None
    ) -> int:
        """Log a roll in one INSERT and return the entry's id; a Year Zero roll's entry takes its stored roll's
        id (entry_id); a repeat of the interaction changes nothing and gets the first entry's id (see SQLite's)."""
        values = _values(entry, now, interaction_id)
        if entry_id is None:
            rows = await self._store.fetch_all(_INSERT, *values)
        else:
            rows = await self._store.fetch_all(_INSERT_AS, *values, entry_id)
        if rows:
            return int(rows[0]["id"])
        first = await self._store.fetch_one(_LOGGED_FOR, interaction_id) if interaction_id is not None else None
        return int(first["id"]) if first else int(entry_id or 0)

    async def record_push(
        self, entry_id: int, pushes: int, reading: str, events: str, extras: dict[str, Any],
        card: dict[str, Any] | None,
    ) -> bool:
        """Push number `pushes` of a Year Zero roll, logged once: see the SQLite store."""
        willpower, banes = int(extras.get("willpower", 0)), int(extras.get("banes", 0))
        values = (entry_id, reading[:MAX_READING], events, willpower, banes, _card(card), pushes)
        return bool(await self._store.execute(_PUSH, *values))

    async def withdraw(self, entry_id: int) -> bool:
        """Delete an entry whose roll never reached the player (see the SQLite store)."""
        return bool(await self._store.execute("DELETE FROM roll_log WHERE id = $1", entry_id))

    async def get(self, entry_id: int) -> LogEntry | None:
        if not 0 < entry_id < 2**63:
            return None
        row = await self._store.fetch_one(f"SELECT {_COLUMNS} FROM roll_log WHERE id = $1", entry_id)
        return _entry(row) if row else None

    async def claim_reveal(self, entry_id: int, user_id: int, now: datetime) -> RevealClaim:
        """Mark a private entry revealed, at most once and only for its roller; return it with its card."""
        if not 0 < entry_id < 2**63:
            return RevealClaim(None, RevealRefusal.UNKNOWN)
        row = await self._store.fetch_one(_REVEAL, entry_id, user_id, epoch(now))
        if row is not None:
            return RevealClaim(_entry(row))
        entry = await self.get(entry_id)
        return RevealClaim(entry, _refusal(entry, user_id))

    async def page(
        self, guild_id: int, channel_id: int, viewer_id: int, *, before: int | None = None,
        after: int | None = None, limit: int = 10,
    ) -> list[LogEntry]:
        """A page of the channel's rolls, newest first (see the SQLite store)."""
        if after is not None:
            rows = await self._store.fetch_all(_PAGE_NEWER, guild_id, channel_id, viewer_id, after, limit)
            return [_entry(row) for row in reversed(rows)]
        bound = 2**63 - 1 if before is None else before
        rows = await self._store.fetch_all(_PAGE, guild_id, channel_id, viewer_id, bound, limit)
        return [_entry(row) for row in rows]

    async def since(
        self, guild_id: int, channel_id: int, viewer_id: int, since: datetime, *, user_id: int | None = None
    ) -> list[LogEntry]:
        """The channel's rolls since a moment, oldest first, of one player or all."""
        rows = await self._store.fetch_all(_STATS, guild_id, channel_id, viewer_id, epoch(since), user_id)
        return [_entry(row) for row in rows]

    async def between(
        self, guild_id: int, channel_id: int, viewer_id: int, start: datetime, end: datetime
    ) -> list[LogEntry]:
        """The channel's rolls from start (included) to end (excluded), oldest first."""
        rows = await self._store.fetch_all(_BETWEEN, guild_id, channel_id, viewer_id, epoch(start), epoch(end))
        return [_entry(row) for row in rows]

    async def purge_older(self, now: datetime, keep: timedelta, batch: int = PURGE_BATCH) -> int:
        """Delete every entry older than keep, `batch` rows per statement; return how many were deleted."""
        oldest, purged, deleted = epoch(now - keep), 0, batch
        while deleted == batch:
            deleted = await self._store.execute(_PURGE_BATCH, oldest, batch)
            purged += deleted
        return purged


def _values(entry: NewEntry, now: datetime, interaction_id: int | None) -> tuple[Any, ...]:
    return (
        entry.guild_id, entry.channel_id, entry.user_id, epoch(now), entry.system, entry.kind,
        entry.reading[:MAX_READING], entry.events, _COMPACT.encode(entry.extras), int(entry.private),
        _card(entry.card if entry.private else None), interaction_id,
    )


async def log_in(
    connection: asyncpg.Connection, entry: NewEntry, now: datetime, *, entry_id: int, interaction_id: int | None
) -> None:
    """Log a roll inside connection's transaction (a pushable Year Zero roll's, in the one that stores it)."""
    await connection.execute(_INSERT_AS, *_values(entry, now, interaction_id), entry_id)


async def unlog_in(connection: asyncpg.Connection, entry_id: int) -> None:
    """Delete an entry inside connection's transaction (a withdrawn Year Zero roll's)."""
    await connection.execute("DELETE FROM roll_log WHERE id = $1", entry_id)
