"""The roll log: one row per roll of every system, public and private (docs/architecture.md, "What is kept")."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from bot.storage.driver import LARGEST_ID, Row, Session, Statements, epoch, from_row, moment, storable_id

MAX_READING = 300  # characters of a roll's reading kept in the log (a card's title is at most 256)

COMPACT = json.JSONEncoder(separators=(",", ":"))  # extras and cards as stored: JSON without spaces


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
    """Why a Reveal was not claimed (cogs/log/reveal.py says it to the player: `REFUSED`)."""

    UNKNOWN = "unknown"
    NOT_YOURS = "not_yours"
    NOT_PRIVATE = "not_private"
    ALREADY_REVEALED = "already_revealed"


@dataclass(frozen=True, slots=True)
class RevealClaim:
    """The entry whose reveal this caller won, or why not."""

    entry: LogEntry | None
    refusal: RevealRefusal | None = None


def entry_from(row: Row) -> LogEntry:
    """An entry as read back from its row."""
    card = json.loads(row["card"]) if row["card"] else None
    return from_row(
        LogEntry, row, created_at=moment(row["created_at"]), revealed_at=moment(row["revealed_at"]),
        events=tuple(row["events"].split()), extras=json.loads(row["extras"]), private=bool(row["private"]), card=card,
    )


def card_text(card: dict[str, Any] | None) -> str | None:
    """A private card as stored."""
    return None if card is None else COMPACT.encode(card)


def refusal_for(entry: LogEntry | None, user_id: int) -> RevealRefusal:
    """Why user_id could not claim the entry's Reveal."""
    if entry is None:
        return RevealRefusal.UNKNOWN
    if entry.user_id != user_id:
        return RevealRefusal.NOT_YOURS
    if not entry.private or entry.card is None:
        return RevealRefusal.NOT_PRIVATE
    return RevealRefusal.ALREADY_REVEALED


_FIELDS = "guild_id, channel_id, user_id, created_at, system, kind, reading, events, extras, private, card"
_COLUMNS = f"id, {_FIELDS}, revealed_at"
LOG_COLUMNS = f"{_FIELDS}, interaction_id"  # the columns an INSERT writes, and their parameters (entry_params)
LOG_VALUES = ":guild, :channel, :user, :now, :system, :kind, :reading, :events, :extras, :private, :card, :interaction"

# The entry's id is the database's next, or one given (a Year Zero roll's); a repeated interaction inserts nothing.
_INSERT = f"INSERT INTO roll_log ({LOG_COLUMNS}) VALUES ({LOG_VALUES}) ON CONFLICT DO NOTHING RETURNING id"
_INSERT_AS = f"INSERT INTO roll_log (id, {LOG_COLUMNS}) VALUES (:id, {LOG_VALUES}) ON CONFLICT DO NOTHING RETURNING id"
_LOGGED_FOR = "SELECT id FROM roll_log WHERE interaction_id = :interaction"
_UNLOG = "DELETE FROM roll_log WHERE id = :id RETURNING id"
_GET = f"SELECT {_COLUMNS} FROM roll_log WHERE id = :id"

_REVEAL = f"""
UPDATE roll_log SET revealed_at = :now
WHERE id = :id AND user_id = :user AND private = 1 AND card IS NOT NULL AND revealed_at IS NULL
RETURNING {_COLUMNS}
"""

_VISIBLE = "guild_id = :guild AND channel_id = :channel AND (private = 0 OR user_id = :viewer)"
_PAGE = f"SELECT {_COLUMNS} FROM roll_log WHERE {_VISIBLE} AND id < :before ORDER BY id DESC LIMIT :limit"
_PAGE_NEWER = f"SELECT {_COLUMNS} FROM roll_log WHERE {_VISIBLE} AND id > :after ORDER BY id LIMIT :limit"

# The cast tells PostgreSQL the type of a parameter that may be NULL.
_STATS = f"""
SELECT {_COLUMNS} FROM roll_log
WHERE {_VISIBLE} AND created_at >= :since AND (CAST(:user AS bigint) IS NULL OR user_id = :user) ORDER BY id
"""

_BETWEEN = f"""
SELECT {_COLUMNS} FROM roll_log
WHERE guild_id = :guild AND channel_id = :channel AND created_at >= :start AND created_at < :end
  AND (private = 0 OR revealed_at IS NOT NULL OR user_id = :viewer)
ORDER BY id
"""


class RollLog:
    """The roll log of every channel."""

    def __init__(self, statements: Statements, log_push: str) -> None:
        self._db = statements
        self._push = log_push

    async def write(
        self, entry: NewEntry, now: datetime, *, entry_id: int | None = None, interaction_id: int | None = None
    ) -> int:
        """Log a roll in one INSERT; its id (entry_id when given). A repeat of interaction_id gets the first id back."""
        if (logged := await log_in(self._db, entry, now, entry_id=entry_id, interaction_id=interaction_id)) is not None:
            return logged
        first = await self._db.fetch_one(_LOGGED_FOR, {"interaction": interaction_id}) if interaction_id else None
        return int(first["id"]) if first else int(entry_id or 0)

    async def record_push(
        self, entry_id: int, pushes: int, reading: str, events: str, extras: dict[str, Any],
        card: dict[str, Any] | None,
    ) -> bool:
        """Push number `pushes` of a Year Zero roll, logged once (a repeat, or an older push logged late, changes
        nothing; False then), as the dialect's log_push says: extras["willpower"] and ["banes"] its figures."""
        params = {"id": entry_id, "pushes": pushes, "reading": reading[:MAX_READING], "events": events,
                  "card": card_text(card), "willpower": int(extras.get("willpower", 0)),
                  "banes": int(extras.get("banes", 0))}
        return bool(await self._db.write(self._push, params))

    async def withdraw(self, entry_id: int) -> bool:
        """Delete an entry whose roll never reached the player (a private roll is logged before it is shown)."""
        return bool(await self._db.write(_UNLOG, {"id": entry_id}))

    async def get(self, entry_id: int) -> LogEntry | None:
        if not storable_id(entry_id):
            return None
        row = await self._db.fetch_one(_GET, {"id": entry_id})
        return entry_from(row) if row else None

    async def claim_reveal(self, entry_id: int, user_id: int, now: datetime) -> RevealClaim:
        """Mark a private entry revealed, at most once and only for its roller; return it with its card."""
        if not storable_id(entry_id):
            return RevealClaim(None, RevealRefusal.UNKNOWN)
        rows = await self._db.write(_REVEAL, {"id": entry_id, "user": user_id, "now": epoch(now)})
        if rows:
            return RevealClaim(entry_from(rows[0]))
        entry = await self.get(entry_id)
        return RevealClaim(entry, refusal_for(entry, user_id))

    async def page(
        self, guild_id: int, channel_id: int, viewer_id: int, *, before: int | None = None,
        after: int | None = None, limit: int = 10,
    ) -> list[LogEntry]:
        """A page of the channel's rolls, newest first: the latest, older than `before` or just newer than `after`."""
        params = {"guild": guild_id, "channel": channel_id, "viewer": viewer_id, "limit": limit}
        if after is not None:
            rows = await self._db.fetch_all(_PAGE_NEWER, params | {"after": after})
            return [entry_from(row) for row in reversed(rows)]
        params["before"] = LARGEST_ID if before is None else before
        return [entry_from(row) for row in await self._db.fetch_all(_PAGE, params)]

    async def since(
        self, guild_id: int, channel_id: int, viewer_id: int, since: datetime, *, user_id: int | None = None
    ) -> list[LogEntry]:
        """The channel's rolls since a moment, oldest first, of one player or all; private ones the viewer's own."""
        params = {"guild": guild_id, "channel": channel_id, "viewer": viewer_id, "since": epoch(since), "user": user_id}
        return [entry_from(row) for row in await self._db.fetch_all(_STATS, params)]

    async def between(
        self, guild_id: int, channel_id: int, viewer_id: int, start: datetime, end: datetime
    ) -> list[LogEntry]:
        """The channel's rolls from start to end (excluded), oldest first: public, revealed and the viewer's own."""
        params = {"guild": guild_id, "channel": channel_id, "viewer": viewer_id, "start": epoch(start),
                  "end": epoch(end)}
        return [entry_from(row) for row in await self._db.fetch_all(_BETWEEN, params)]


async def log_in(session: Session | Statements, entry: NewEntry, now: datetime, *, entry_id: int | None = None,
                 interaction_id: int | None) -> int | None:
    """Log a roll in one INSERT, alone or inside session (a Year Zero roll's under entry_id, where it is stored)."""
    params = entry_params(entry, now, entry_id, interaction_id)
    rows = await session.fetch_all(_INSERT_AS if entry_id else _INSERT, params)
    return int(rows[0]["id"]) if rows else None  # None: the interaction logged one already


async def unlog_in(session: Session, entry_id: int) -> None:
    """Delete an entry inside session (a Year Zero roll withdrawn, never shown, in the one that deletes it)."""
    await session.fetch_all(_UNLOG, {"id": entry_id})


def entry_params(entry: NewEntry, now: datetime, entry_id: int | None, interaction_id: int | None) -> dict[str, Any]:
    """The named parameters of an entry's INSERT (and of the dialect's store_roll)."""
    params = {
        "guild": entry.guild_id, "channel": entry.channel_id, "user": entry.user_id, "now": epoch(now),
        "system": entry.system, "kind": entry.kind, "reading": entry.reading[:MAX_READING], "events": entry.events,
        "extras": COMPACT.encode(entry.extras), "private": int(entry.private),
        "card": card_text(entry.card if entry.private else None), "interaction": interaction_id,
    }
    return params if entry_id is None else params | {"id": entry_id}
