"""The records of stored Year Zero rolls: their states, why a push is refused, and a roll as read back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from bot.storage.driver import Row, epoch, from_row, moment
from rules.language import N_


class RollState(StrEnum):
    """Where a stored roll stands."""

    PENDING = "pending"
    PUSHED = "pushed"
    SUPERSEDED = "superseded"
    KEPT = "kept"


class PushRefusal(StrEnum):
    """Why a push was not claimed; `message` says it to the player (in English: ``Speech._`` translates it)."""

    UNKNOWN = "unknown"
    NOT_YOURS = "not_yours"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    ALREADY_PUSHED = "already_pushed"
    NO_PUSHES_LEFT = "no_pushes_left"
    PUSHED_MEANWHILE = "pushed_meanwhile"
    KEPT = "kept"

    @property
    def message(self) -> str:
        return _REFUSAL_MESSAGES[self]


_REFUSAL_MESSAGES = {
    PushRefusal.UNKNOWN: N_("I cannot find that roll; it may be too old to push."),
    PushRefusal.NOT_YOURS: N_("Only the player who rolled can push this roll."),
    PushRefusal.SUPERSEDED: N_("You rolled again in this channel since; only your latest roll can be pushed."),
    PushRefusal.EXPIRED: N_("This roll is too old to push now."),
    PushRefusal.ALREADY_PUSHED: N_("This roll has already been pushed; a roll can be pushed only once."),
    PushRefusal.NO_PUSHES_LEFT: N_("This roll has been pushed as many times as it allows."),
    PushRefusal.PUSHED_MEANWHILE: N_("This roll was pushed just now; look at the pushed roll before pushing again."),
    PushRefusal.KEPT: N_("This roll was kept: it can no longer be pushed."),
}


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

    @property
    def latest_payload(self) -> str:
        """The JSON of the roll as it now lies: after its latest push, or the first roll."""
        return self.pushed_payload or self.payload

    def expires_at(self, lifetime: timedelta) -> datetime:
        """The moment after which the roll can no longer be pushed."""
        return self.created_at + lifetime


def roll_from(row: Row) -> YearZeroRoll:
    read = {name: moment(row[name]) for name in ("created_at", "pushed_at")}
    return from_row(YearZeroRoll, row, state=RollState(row["state"]), **read)


def push_subject(roll_id: int) -> str:
    """How the pushes of a roll are named among the applied interactions (AppliedInteractions.latest_for)."""
    return f"yz_roll:{roll_id}"


def refusal_of(roll: YearZeroRoll, now: datetime, lifetime: timedelta) -> PushRefusal:
    """Why a roll of the user's own, as read, cannot be pushed: ended, too old, or pushed since it was read."""
    return refusal_for(roll, epoch(now - lifetime))


def refusal_for(roll: YearZeroRoll, oldest: float) -> PushRefusal:
    """The same, given the Unix time before which a roll is too old to push."""
    if roll.state is RollState.PUSHED:
        return PushRefusal.ALREADY_PUSHED if roll.pushes_allowed == 1 else PushRefusal.NO_PUSHES_LEFT
    if roll.state is RollState.KEPT:
        return PushRefusal.KEPT
    if roll.state is RollState.SUPERSEDED:
        return PushRefusal.SUPERSEDED
    if epoch(roll.created_at) < oldest:
        return PushRefusal.EXPIRED
    return PushRefusal.PUSHED_MEANWHILE
