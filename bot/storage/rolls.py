"""Year Zero rolls a player may push: stored when posted, claimed exactly once by the push.

A roll is *pending* until one of: its push is claimed (*pushed*), the same player rolls again in the same
channel (*superseded*), or it is older than the lifetime (expired; the purge deletes it). Superseding is read,
not written: a roll is superseded when the same player has a newer roll in that channel (the view
``yz_roll_states``, migration V3), so storing a roll is a single INSERT, one trip to aiosqlite's thread. The
claim is one ``UPDATE ... WHERE <its state in yz_roll_states> = 'pending' ... RETURNING`` in a
``BEGIN IMMEDIATE`` transaction with the Willpower gain (four trips: BEGIN, the claim, which also returns the
roller's Willpower before it, the new Willpower, COMMIT), so of any number of simultaneous pushes - in one
process or several on one database - exactly one wins.

Times are aware datetimes (UTC) in the API and Unix seconds in the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

import aiosqlite

from bot.storage.roll_messages import RollMessages
from bot.storage.store import Store, Transaction
from bot.storage.willpower import WillpowerChange, gained, store_in


class RollState(StrEnum):
    """Where a stored roll stands."""

    PENDING = "pending"
    PUSHED = "pushed"
    SUPERSEDED = "superseded"


class PushRefusal(StrEnum):
    """Why a push was not claimed; `message` says it to the player."""

    UNKNOWN = "unknown"
    NOT_YOURS = "not_yours"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    ALREADY_PUSHED = "already_pushed"

    @property
    def message(self) -> str:
        return _REFUSAL_MESSAGES[self]


_REFUSAL_MESSAGES = {
    PushRefusal.UNKNOWN: "I cannot find that roll; it may be too old to push.",
    PushRefusal.NOT_YOURS: "Only the player who rolled can push this roll.",
    PushRefusal.SUPERSEDED: "You rolled again in this channel since; only your latest roll can be pushed.",
    PushRefusal.EXPIRED: "This roll is too old to push now.",
    PushRefusal.ALREADY_PUSHED: "This roll has already been pushed; a roll can be pushed only once.",
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

    def expires_at(self, lifetime: timedelta) -> datetime:
        """The moment after which the roll can no longer be pushed."""
        return self.created_at + lifetime

    def as_dict(self) -> dict[str, Any]:
        times = {"created_at": self.created_at.isoformat(), "pushed_at": _iso(self.pushed_at)}
        fields = {name: getattr(self, name) for name in self.__slots__ if name not in times}
        return fields | times | {"state": self.state.value}


@dataclass(frozen=True, slots=True)
class PushClaim:
    """The answer to a push: claimed (with the stored roll and the Willpower change) or a refusal."""

    roll: YearZeroRoll | None
    refusal: PushRefusal | None = None
    willpower: WillpowerChange | None = None

    @property
    def claimed(self) -> bool:
        return self.refusal is None

    def as_dict(self) -> dict[str, Any]:
        return {
            "claimed": self.claimed,
            "refusal": self.refusal.value if self.refusal else None,
            "roll": self.roll.as_dict() if self.roll else None,
            "willpower": self.willpower.as_dict() if self.willpower else None,
        }


def epoch(moment: datetime) -> float:
    """Unix seconds of an aware datetime (a naive one is refused: its time zone would be a guess)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"expected an aware datetime (e.g. discord.utils.utcnow()), got {moment!r}")
    return moment.timestamp()


def _storable_id(roll_id: int) -> bool:
    """True for an id SQLite could hold (a custom_id from a hostile client may name any number)."""
    return isinstance(roll_id, int) and not isinstance(roll_id, bool) and 0 < roll_id < 2**63


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _moment(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


def _roll(row: aiosqlite.Row) -> YearZeroRoll:
    return YearZeroRoll(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        user_id=row["user_id"],
        message_id=row["message_id"],
        state=RollState(row["state"]),
        payload=row["payload"],
        pushed_payload=row["pushed_payload"],
        created_at=datetime.fromtimestamp(row["created_at"], UTC),
        pushed_at=_moment(row["pushed_at"]),
    )


_SUPERSEDE = """
UPDATE yz_rolls SET state = 'superseded'
WHERE guild_id = :guild AND channel_id = :channel AND user_id = :user AND state = 'pending'
RETURNING id
"""

_INSERT = """
INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at)
VALUES (:guild, :channel, :user, :payload, :now)
RETURNING id
"""

_CLAIM = """
UPDATE yz_rolls SET state = 'pushed', pushed_payload = :pushed, pushed_at = :now
WHERE id = :id AND user_id = :user AND created_at >= :oldest
  AND (SELECT state FROM yz_roll_states WHERE id = :id) = 'pending'
RETURNING *, (
    SELECT points FROM willpower WHERE willpower.guild_id = yz_rolls.guild_id AND willpower.user_id = :user
) AS willpower_before
"""

_LATEST = """
SELECT * FROM yz_roll_states
WHERE id = (
    SELECT max(id) FROM yz_rolls WHERE guild_id = :guild AND channel_id = :channel AND user_id = :user
) AND state = 'pending' AND created_at >= :oldest
"""

_GET = "SELECT * FROM yz_roll_states WHERE id = ?"


PURGE_BATCH = 500
"""Rolls deleted per statement by the purge: a few milliseconds of the database each (see bench/purge.py)."""
_PURGE_BATCH = (
    "DELETE FROM yz_rolls WHERE id IN (SELECT id FROM yz_rolls WHERE created_at < ? ORDER BY created_at LIMIT ?)"
)


class YearZeroRolls:
    """The pushable Year Zero rolls."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.messages = RollMessages(store)

    async def create(self, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime) -> int:
        """Store a new pending roll and return its id; the player's older rolls here are superseded by it."""
        if not isinstance(payload, str):
            raise TypeError("payload must be the roll as a JSON string")
        params = {"guild": guild_id, "channel": channel_id, "user": user_id, "payload": payload, "now": epoch(now)}
        rows = await self._store.write(_INSERT, params)
        return int(rows[0]["id"])

    async def supersede(self, guild_id: int, channel_id: int, user_id: int) -> int:
        """Supersede the player's pending rolls here without storing a new one (a roll that cannot be pushed).

        Returns how many rolls were superseded.
        """
        return len(await self._store.write(_SUPERSEDE, {"guild": guild_id, "channel": channel_id, "user": user_id}))

    def note_message(self, roll_id: int, channel_id: int, message_id: int) -> None:
        """Remember the message that shows a roll, without waiting (see RollMessages.note)."""
        self.messages.note(roll_id, channel_id, message_id)

    async def flush_messages(self) -> int:
        """Write the noted message ids now (see RollMessages.flush); return how many rolls got one."""
        return await self.messages.flush()

    async def get(self, roll_id: int) -> YearZeroRoll | None:
        """The stored roll, whatever its state, or None (never stored, or purged)."""
        if not _storable_id(roll_id):
            return None
        row = await self._store.fetch_one(_GET, (roll_id,))
        return self.messages.seen_in(_roll(row)) if row else None

    async def refusal_for_missing(self, roll_id: int) -> PushRefusal:
        """Why `get` found no roll with this id: EXPIRED when the id was given once (purged since), else UNKNOWN."""
        if not _storable_id(roll_id):
            return PushRefusal.UNKNOWN
        return await _missing_reason(self._store, roll_id)

    async def latest_pending(
        self, guild_id: int, channel_id: int, user_id: int, now: datetime, lifetime: timedelta
    ) -> YearZeroRoll | None:
        """The player's pushable roll in this channel (newest pending one within its lifetime), or None."""
        params = {"guild": guild_id, "channel": channel_id, "user": user_id, "oldest": epoch(now - lifetime)}
        row = await self._store.fetch_one(_LATEST, params)
        return self.messages.seen_in(_roll(row)) if row else None

    async def claim_push(
        self,
        roll_id: int,
        user_id: int,
        pushed_payload: str,
        willpower_gain: int,
        now: datetime,
        lifetime: timedelta,
    ) -> PushClaim:
        """Mark the roll pushed with pushed_payload and add the Willpower gain, both or neither, at most once.

        The caller computes the pushed result first and claims with it; a refusal changes nothing.
        """
        if not isinstance(pushed_payload, str):
            raise TypeError("pushed_payload must be the pushed roll as a JSON string")
        if not _storable_id(roll_id):
            return PushClaim(None, PushRefusal.UNKNOWN)
        oldest = epoch(now - lifetime)
        params = {"id": roll_id, "user": user_id, "pushed": pushed_payload, "now": epoch(now), "oldest": oldest}
        async with self._store.transaction() as transaction:
            row = await transaction.fetch_one(_CLAIM, params)
            if row is None:
                return await _refusal(transaction, roll_id, user_id, oldest)
            roll = _roll(row)
            change = gained(row["willpower_before"] or 0, willpower_gain)
            await store_in(transaction, roll.guild_id, user_id, change)
        return PushClaim(roll, willpower=change)

    async def purge_expired(self, now: datetime, lifetime: timedelta, batch: int = PURGE_BATCH) -> int:
        """Delete every roll older than lifetime, whatever its state, `batch` rows per statement (other tasks'
        statements go between them: a million rows never hold the database for seconds); return how many."""
        oldest, purged, deleted = epoch(now - lifetime), 0, batch
        while deleted == batch:
            deleted = await self._store.execute(_PURGE_BATCH, (oldest, batch))
            purged += deleted
        return purged


async def _refusal(transaction: Transaction, roll_id: int, user_id: int, oldest: float) -> PushClaim:
    """Why the claim found nothing to update, read in the claim's own transaction."""
    row = await transaction.fetch_one(_GET, (roll_id,))
    if row is None:
        return PushClaim(None, await _missing_reason(transaction, roll_id))
    roll = _roll(row)
    if roll.user_id != user_id:
        return PushClaim(roll, PushRefusal.NOT_YOURS)
    if roll.state is RollState.PUSHED:
        return PushClaim(roll, PushRefusal.ALREADY_PUSHED)
    if roll.state is RollState.SUPERSEDED:
        return PushClaim(roll, PushRefusal.SUPERSEDED)
    return PushClaim(roll, PushRefusal.EXPIRED)


async def _missing_reason(transaction: Store | Transaction, roll_id: int) -> PushRefusal:
    """A missing id at or below the highest ever given was purged (expired); any other was never a roll."""
    row = await transaction.fetch_one("SELECT seq FROM sqlite_sequence WHERE name = 'yz_rolls'")
    highest = int(row["seq"]) if row else 0
    return PushRefusal.EXPIRED if 0 < roll_id <= highest else PushRefusal.UNKNOWN
