"""The roll log: one row per roll of every system, public and private (migration V7).

Writing an entry is one INSERT, one trip. A Year Zero roll's entry takes the id of the stored roll (the triggers of
migration V7 keep the two tables' ids apart otherwise), so Push and Reveal name the same number. A private
roll keeps its card as sent, so Reveal can post the same dice; the reveal is claimed by one conditional UPDATE,
so a roll is revealed at most once whatever clicks race. Private entries are read only for their roller.

Times are aware datetimes (UTC) in the API and Unix seconds in the database.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

import aiosqlite

from bot.storage.roll_records import PURGE_BATCH, epoch
from bot.storage.store import Store, Transaction

MAX_READING = 300
"""Characters of a roll's reading kept in the log (a card's title is at most 256)."""


@dataclass(frozen=True, slots=True)
class NewEntry:
    """What the log keeps of a roll as it is made. ``events`` are luck events as text ('p/q:1 p/q:0')."""

    guild_id: int
    channel_id: int
    user_id: int
    system: str
    kind: str
    reading: str
    events: str = ""
    extras: dict[str, Any] = field(default_factory=dict)
    private: bool = False
    card: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One logged roll as read back."""

    id: int
    guild_id: int
    channel_id: int
    user_id: int
    created_at: datetime
    system: str
    kind: str
    reading: str
    events: tuple[str, ...]
    extras: dict[str, Any]
    private: bool
    card: dict[str, Any] | None
    revealed_at: datetime | None


class RevealRefusal(StrEnum):
    """Why a Reveal was not claimed; `message` says it to the player."""

    UNKNOWN = "unknown"
    NOT_YOURS = "not_yours"
    NOT_PRIVATE = "not_private"
    ALREADY_REVEALED = "already_revealed"

    @property
    def message(self) -> str:
        return _REVEAL_MESSAGES[self]


_REVEAL_MESSAGES = {
    RevealRefusal.UNKNOWN: "I cannot find that roll any more; it may be older than the roll log keeps.",
    RevealRefusal.NOT_YOURS: "Only the player who rolled can reveal this roll.",
    RevealRefusal.NOT_PRIVATE: "This roll was not private: everyone saw it already.",
    RevealRefusal.ALREADY_REVEALED: "This roll has already been revealed.",
}

_COLUMNS = "id, guild_id, channel_id, user_id, created_at, system, kind, reading, events, extras, private, card, " \
           "revealed_at"

_INSERT = """
INSERT INTO roll_log (id, guild_id, channel_id, user_id, created_at, system, kind, reading, events, extras, private,
                      card, interaction_id)
VALUES (:id, :guild, :channel, :user, :now, :system, :kind, :reading, :events, :extras, :private, :card,
        :interaction)
ON CONFLICT DO NOTHING
RETURNING id
"""

_LOGGED_FOR = "SELECT id FROM roll_log WHERE interaction_id = ?"

_PUSH = """
UPDATE roll_log SET reading = :reading, events = trim(events || ' ' || :events),
    extras = json_set(extras, '$.pushes', :pushes,
                      '$.willpower', coalesce(json_extract(extras, '$.willpower'), 0) + :willpower,
                      '$.banes', :banes),
    card = CASE WHEN private = 1 THEN :card ELSE NULL END
WHERE id = :id AND coalesce(json_extract(extras, '$.pushes'), 0) < :pushes
"""

_REVEAL = f"""
UPDATE roll_log SET revealed_at = :now
WHERE id = :id AND user_id = :user AND private = 1 AND card IS NOT NULL AND revealed_at IS NULL
RETURNING {_COLUMNS}
"""

_PAGE = f"""
SELECT {_COLUMNS} FROM roll_log
WHERE guild_id = :guild AND channel_id = :channel AND id < :before AND (private = 0 OR user_id = :viewer)
ORDER BY id DESC LIMIT :limit
"""

_PAGE_NEWER = f"""
SELECT {_COLUMNS} FROM roll_log
WHERE guild_id = :guild AND channel_id = :channel AND id > :after AND (private = 0 OR user_id = :viewer)
ORDER BY id LIMIT :limit
"""

_STATS = f"""
SELECT {_COLUMNS} FROM roll_log
WHERE guild_id = :guild AND channel_id = :channel AND created_at >= :since
  AND (:user IS NULL OR user_id = :user) AND (private = 0 OR user_id = :viewer)
ORDER BY id
"""

_BETWEEN = f"""
SELECT {_COLUMNS} FROM roll_log
WHERE guild_id = :guild AND channel_id = :channel AND created_at >= :start AND created_at < :end
  AND (private = 0 OR revealed_at IS NOT NULL OR user_id = :viewer)
ORDER BY id
"""

_PURGE_BATCH = (
    "DELETE FROM roll_log WHERE id IN (SELECT id FROM roll_log WHERE created_at < ? ORDER BY created_at LIMIT ?)"
)

_COMPACT = json.JSONEncoder(separators=(",", ":"))


def _entry(row: aiosqlite.Row) -> LogEntry:
    revealed = row["revealed_at"]
    return LogEntry(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], user_id=row["user_id"],
        created_at=datetime.fromtimestamp(row["created_at"], UTC), system=row["system"], kind=row["kind"],
        reading=row["reading"], events=tuple(row["events"].split()), extras=json.loads(row["extras"]),
        private=bool(row["private"]), card=json.loads(row["card"]) if row["card"] else None,
        revealed_at=None if revealed is None else datetime.fromtimestamp(revealed, UTC),
    )


def _card(card: dict[str, Any] | None) -> str | None:
    return None if card is None else _COMPACT.encode(card)


@dataclass(frozen=True, slots=True)
class RevealClaim:
    """The entry whose reveal this caller won, or why not."""

    entry: LogEntry | None
    refusal: RevealRefusal | None = None


class RollLog:
    """The roll log of every channel."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def write(
        self, entry: NewEntry, now: datetime, *, entry_id: int | None = None, interaction_id: int | None = None
    ) -> int:
        """Log a roll in one INSERT and return the entry's id. A Year Zero roll's entry takes its stored roll's id
        (entry_id), so that Push and Reveal name the same number. A repeat of the interaction that made the entry
        (interaction_id) changes nothing and gets the first entry's id back."""
        rows = await self._store.write(_INSERT, _params(entry, now, entry_id, interaction_id))
        if rows:
            return int(rows[0]["id"])
        first = await self._store.fetch_one(_LOGGED_FOR, (interaction_id,)) if interaction_id is not None else None
        return int(first["id"]) if first else int(entry_id or 0)

    async def record_push(
        self, entry_id: int, pushes: int, reading: str, events: str, extras: dict[str, Any],
        card: dict[str, Any] | None,
    ) -> bool:
        """Push number `pushes` of a Year Zero roll, logged once (a repeat, or an older push logged late, changes
        nothing; False then): its reading and (private) card become the pushed ones, the push's luck events are
        added to the roll's, extras["willpower"] to its Willpower, and extras["banes"] (the banes showing now)
        replaces the count."""
        params = {"id": entry_id, "pushes": pushes, "reading": reading[:MAX_READING], "events": events,
                  "card": _card(card), "willpower": int(extras.get("willpower", 0)),
                  "banes": int(extras.get("banes", 0))}
        return bool(await self._store.execute(_PUSH, params))

    async def withdraw(self, entry_id: int) -> bool:
        """Delete an entry whose roll never reached the player (a private roll is logged before it is shown)."""
        return bool(await self._store.execute("DELETE FROM roll_log WHERE id = ?", (entry_id,)))

    async def get(self, entry_id: int) -> LogEntry | None:
        if not 0 < entry_id < 2**63:
            return None
        row = await self._store.fetch_one(f"SELECT {_COLUMNS} FROM roll_log WHERE id = ?", (entry_id,))
        return _entry(row) if row else None

    async def claim_reveal(self, entry_id: int, user_id: int, now: datetime) -> RevealClaim:
        """Mark a private entry revealed, at most once and only for its roller; return it with its card."""
        if not 0 < entry_id < 2**63:
            return RevealClaim(None, RevealRefusal.UNKNOWN)
        rows = await self._store.write(_REVEAL, {"id": entry_id, "user": user_id, "now": epoch(now)})
        if rows:
            return RevealClaim(_entry(rows[0]))
        entry = await self.get(entry_id)
        return RevealClaim(entry, _refusal(entry, user_id))

    async def page(
        self, guild_id: int, channel_id: int, viewer_id: int, *, before: int | None = None,
        after: int | None = None, limit: int = 10,
    ) -> list[LogEntry]:
        """A page of the channel's rolls, newest first: the latest, those older than entry `before`, or those
        just newer than entry `after`; private ones only the viewer's own."""
        params = {"guild": guild_id, "channel": channel_id, "viewer": viewer_id, "limit": limit}
        if after is not None:
            rows = await self._store.fetch_all(_PAGE_NEWER, params | {"after": after})
            return [_entry(row) for row in reversed(rows)]
        params["before"] = 2**63 - 1 if before is None else before
        return [_entry(row) for row in await self._store.fetch_all(_PAGE, params)]

    async def since(
        self, guild_id: int, channel_id: int, viewer_id: int, since: datetime, *, user_id: int | None = None
    ) -> list[LogEntry]:
        """The channel's rolls since a moment, oldest first, of one player or all; private ones only the
        viewer's own."""
        params = {"guild": guild_id, "channel": channel_id, "viewer": viewer_id, "since": epoch(since),
                  "user": user_id}
        return [_entry(row) for row in await self._store.fetch_all(_STATS, params)]

    async def between(
        self, guild_id: int, channel_id: int, viewer_id: int, start: datetime, end: datetime
    ) -> list[LogEntry]:
        """The channel's rolls from start (included) to end (excluded), oldest first: public and revealed ones,
        and the viewer's own private ones."""
        params = {"guild": guild_id, "channel": channel_id, "viewer": viewer_id, "start": epoch(start),
                  "end": epoch(end)}
        return [_entry(row) for row in await self._store.fetch_all(_BETWEEN, params)]

    async def purge_older(self, now: datetime, keep: timedelta, batch: int = PURGE_BATCH) -> int:
        """Delete every entry older than keep, `batch` rows per statement (other tasks' statements go between
        them, as in the Year Zero purge); return how many were deleted."""
        oldest, purged, deleted = epoch(now - keep), 0, batch
        while deleted == batch:
            deleted = await self._store.execute(_PURGE_BATCH, (oldest, batch))
            purged += deleted
        return purged


async def log_in(
    transaction: Transaction, entry: NewEntry, now: datetime, *, entry_id: int, interaction_id: int | None
) -> None:
    """Log a roll inside transaction (a pushable Year Zero roll's, in the transaction that stores it)."""
    await transaction.fetch_all(_INSERT, _params(entry, now, entry_id, interaction_id))


async def unlog_in(transaction: Transaction, entry_id: int) -> None:
    """Delete an entry inside transaction (a Year Zero roll withdrawn, never shown, in the one that deletes it)."""
    await transaction.fetch_all("DELETE FROM roll_log WHERE id = ?", (entry_id,))


def _params(entry: NewEntry, now: datetime, entry_id: int | None, interaction_id: int | None) -> dict[str, Any]:
    return {
        "id": entry_id, "guild": entry.guild_id, "channel": entry.channel_id, "user": entry.user_id,
        "now": epoch(now), "system": entry.system, "kind": entry.kind, "reading": entry.reading[:MAX_READING],
        "events": entry.events, "extras": _COMPACT.encode(entry.extras), "private": int(entry.private),
        "card": _card(entry.card if entry.private else None), "interaction": interaction_id,
    }


def _refusal(entry: LogEntry | None, user_id: int) -> RevealRefusal:
    if entry is None:
        return RevealRefusal.UNKNOWN
    if entry.user_id != user_id:
        return RevealRefusal.NOT_YOURS
    if not entry.private or entry.card is None:
        return RevealRefusal.NOT_PRIVATE
    return RevealRefusal.ALREADY_REVEALED
