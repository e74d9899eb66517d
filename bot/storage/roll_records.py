"""The records of stored Year Zero rolls: their states, why a push is refused, and a roll as read back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from bot.storage.driver import Row, epoch, from_row, moment


class RollState(StrEnum):
    """Where a stored roll stands."""

    PENDING = "pending"
    PUSHED = "pushed"
    SUPERSEDED = "superseded"
    KEPT = "kept"


class PushRefusal(StrEnum):
    """Why a push was not claimed (cogs/yearzero/endings.py says it to the player: `REFUSED`)."""

    UNKNOWN = "unknown"
    NOT_YOURS = "not_yours"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    ALREADY_PUSHED = "already_pushed"
    NO_PUSHES_LEFT = "no_pushes_left"
    PUSHED_MEANWHILE = "pushed_meanwhile"
    KEPT = "kept"


@dataclass(frozen=True, slots=True)
class YearZeroRoll:
    """One stored roll: who, where, its JSON payloads and its state."""

    id: int
    guild_id: int
    channel_id: int
    user_id: int
    message_id: int | None
    state: RollState
    payload: str
    pushed_payload: str | None
    created_at: datetime
    pushed_at: datetime | None
    pushes_allowed: int = 1
    pushes_made: int = 0


def roll_from(row: Row) -> YearZeroRoll:
    read = {name: moment(row[name]) for name in ("created_at", "pushed_at")}
    return from_row(YearZeroRoll, row, state=RollState(row["state"]), **read)


def push_subject(roll_id: int) -> str:
    """How the pushes of a roll are named among the applied interactions (AppliedInteractions.latest_for)."""
    return f"yz_roll:{roll_id}"


def refusal_of(roll: YearZeroRoll, now: datetime, lifetime: timedelta) -> PushRefusal:
    """Why a roll of the user's own, as read, cannot be pushed: ended, too old, or pushed since it was read."""
    if roll.state is RollState.PUSHED:
        return PushRefusal.ALREADY_PUSHED if roll.pushes_allowed == 1 else PushRefusal.NO_PUSHES_LEFT
    if roll.state is RollState.KEPT:
        return PushRefusal.KEPT
    if roll.state is RollState.SUPERSEDED:
        return PushRefusal.SUPERSEDED
    if epoch(roll.created_at) < epoch(now - lifetime):
        return PushRefusal.EXPIRED
    return PushRefusal.PUSHED_MEANWHILE
