"""What the roll log keeps, as both stores give it: a new entry, an entry read back, and a Reveal's claim."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from bot.storage.driver import Row, from_row, moment
from rules.language import N_

MAX_READING = 300
"""Characters of a roll's reading kept in the log (a card's title is at most 256)."""

COMPACT = json.JSONEncoder(separators=(",", ":"))
"""Extras and cards as stored: JSON without spaces."""


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
    RevealRefusal.UNKNOWN: N_("I cannot find that roll any more; it may be older than the roll log keeps."),
    RevealRefusal.NOT_YOURS: N_("Only the player who rolled can reveal this roll."),
    RevealRefusal.NOT_PRIVATE: N_("This roll was not private: everyone saw it already."),
    RevealRefusal.ALREADY_REVEALED: N_("This roll has already been revealed."),
}


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
