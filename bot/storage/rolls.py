"""Year Zero rolls a player may push: stored when posted, claimed exactly once per push.

A roll allows 0-3 pushes. It is *pending* until one of: its last push is claimed (*pushed*), its roller keeps it
(*kept*), the same player rolls again in the same channel (*superseded*), or it is older than the lifetime
(expired; the purge deletes it). Superseding is read, not written: a roll is superseded when the same player has
a newer roll in that channel (the view ``yz_roll_states``, migration V3), so storing a roll is a single INSERT,
one trip to aiosqlite's thread. A push claim is one ``UPDATE ... WHERE <its state in yz_roll_states> = 'pending'
AND pushes_made = <the pushes the caller pushed from> ... RETURNING`` (a compare-and-set: the Nth push is claimed
once) in a ``BEGIN IMMEDIATE`` transaction with the Willpower gain (four trips: BEGIN, the claim, which also
returns the roller's Willpower before it, the new Willpower, COMMIT), so of any number of simultaneous pushes -
in one process or several on one database - exactly one wins.

Times are aware datetimes (UTC) in the API and Unix seconds in the database.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.storage.applied import recalled_in, remember_in
from bot.storage.roll_log import NewEntry, log_in, unlog_in
from bot.storage.roll_messages import RollMessages
from bot.storage.roll_records import (  # noqa: F401 (offered here as they always were, refusal_of included)
    PURGE_BATCH,
    PushClaim,
    PushRefusal,
    RollState,
    YearZeroRoll,
    epoch,
    refusal_for,
    refusal_of,
    roll_from,
    storable_id,
)
from bot.storage.store import Store, Transaction
from bot.storage.willpower import WillpowerChange, gained, store_in


def push_subject(roll_id: int) -> str:
    """How the pushes of a roll are named among the applied interactions (AppliedInteractions.latest_for)."""
    return f"yz_roll:{roll_id}"

_SUPERSEDE = """
UPDATE yz_rolls SET state = 'superseded'
WHERE guild_id = :guild AND channel_id = :channel AND user_id = :user AND state = 'pending'
RETURNING *
"""

_INSERT = """
INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at, pushes_allowed)
VALUES (:guild, :channel, :user, :payload, :now, :allowed)
RETURNING id
"""

_CLAIM = """
UPDATE yz_rolls SET state = CASE WHEN :last THEN 'pushed' ELSE 'pending' END,
    pushed_payload = :pushed, pushed_at = :now, pushes_made = pushes_made + 1
WHERE id = :id AND user_id = :user AND created_at >= :oldest
  AND pushes_made = :made AND pushes_made < pushes_allowed
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

_INSERT_RETURNING_ALL = _INSERT.replace("RETURNING id", "RETURNING *")

_WITHDRAW = """
DELETE FROM yz_rolls WHERE id = :id AND state = 'pending' AND pushes_made = 0 AND message_id IS NULL RETURNING id
"""

_KEEP = """
UPDATE yz_rolls SET state = 'kept'
WHERE id = :id AND user_id = :user AND created_at >= :oldest
  AND (SELECT state FROM yz_roll_states WHERE id = :id) = 'pending'
RETURNING *
"""

_SUPERSEDED_BY = """
SELECT * FROM yz_rolls
WHERE id = (
    SELECT max(id) FROM yz_rolls WHERE guild_id = :guild AND channel_id = :channel AND user_id = :user AND id < :newer
) AND state = 'pending'
"""

_EXPIRING = """
SELECT * FROM yz_roll_states
WHERE created_at < :oldest AND state = 'pending' AND message_id IS NOT NULL
ORDER BY id LIMIT :limit
"""


_PURGE_BATCH = (
    "DELETE FROM yz_rolls WHERE id IN (SELECT id FROM yz_rolls WHERE created_at < ? ORDER BY created_at LIMIT ?)"
)


class YearZeroRolls:
    """The pushable Year Zero rolls."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.messages = RollMessages(store)

    async def create(
        self, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime, pushes_allowed: int = 1
    ) -> int:
        """Store a new pending roll allowing that many pushes and return its id; the player's older rolls here are
        superseded by it."""
        if not isinstance(payload, str):
            raise TypeError("payload must be the roll as a JSON string")
        params = {"guild": guild_id, "channel": channel_id, "user": user_id, "payload": payload, "now": epoch(now)}
        params["allowed"] = pushes_allowed
        rows = await self._store.write(_INSERT, params)
        return int(rows[0]["id"])

    async def create_for(
        self, interaction_id: int, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime,
        pushes_allowed: int = 1, *, log: NewEntry | None = None,
    ) -> YearZeroRoll:
        """Store the roll an interaction made, once, and its roll log entry (under the roll's id) in the same
        transaction: a repeat of that interaction gets the first one's roll back (its payload, not the repeat's)
        and writes nothing. Otherwise as `create`."""
        params = {"guild": guild_id, "channel": channel_id, "user": user_id, "payload": payload, "now": epoch(now)}
        params["allowed"] = pushes_allowed
        async with self._store.transaction() as transaction:
            outcome = await recalled_in(transaction, interaction_id)
            row = await transaction.fetch_one(_GET, (outcome["roll_id"],)) if outcome else None
            if row is not None:
                return self.messages.seen_in(roll_from(row))
            row = await transaction.fetch_one(_INSERT_RETURNING_ALL, params)
            if row is None:
                raise RuntimeError("INSERT ... RETURNING gave no row")
            if outcome is None:
                await remember_in(transaction, interaction_id, {"roll_id": row["id"]})
            if log is not None:
                await log_in(transaction, log, now, entry_id=row["id"], interaction_id=interaction_id)
        return roll_from(row)

    async def withdraw(self, roll_id: int) -> bool:
        """Delete a roll whose answer did not reach the player, and its log entry: the roll shown before it is the
        player's latest again. Only a roll never shown (no message noted for it: a repeated delivery may fail to
        show a roll its first delivery did) and never pushed; False otherwise."""
        roll = await self.get(roll_id)
        if roll is None or roll.message_id is not None:
            return False
        async with self._store.transaction() as transaction:
            withdrawn = bool(await transaction.fetch_all(_WITHDRAW, {"id": roll_id}))
            if withdrawn:
                await unlog_in(transaction, roll_id)
        return withdrawn

    async def supersede(
        self, guild_id: int, channel_id: int, user_id: int, *, interaction_id: int | None = None
    ) -> list[YearZeroRoll]:
        """Supersede the player's pending rolls here without storing a new one (a roll that cannot be pushed).

        Returns the rolls superseded: their messages may still show buttons. A repeat of interaction_id
        supersedes nothing: a newer roll must not be superseded by a replayed older one.
        """
        params = {"guild": guild_id, "channel": channel_id, "user": user_id}
        if interaction_id is None:
            rows = await self._store.write(_SUPERSEDE, params)
        else:
            async with self._store.transaction() as transaction:
                if await recalled_in(transaction, interaction_id) is not None:
                    return []
                rows = await transaction.fetch_all(_SUPERSEDE, params)
                await remember_in(transaction, interaction_id, {"superseded": len(rows)})
        return [self.messages.seen_in(roll_from(row)) for row in rows]

    def note_message(self, roll_id: int, channel_id: int, message_id: int) -> None:
        """Remember the message that shows a roll, without waiting (see RollMessages.note)."""
        self.messages.note(roll_id, channel_id, message_id)

    async def flush_messages(self) -> int:
        """Write the noted message ids now (see RollMessages.flush); return how many rolls got one."""
        return await self.messages.flush()

    async def get(self, roll_id: int) -> YearZeroRoll | None:
        """The stored roll, whatever its state, or None (never stored, or purged)."""
        if not storable_id(roll_id):
            return None
        row = await self._store.fetch_one(_GET, (roll_id,))
        return self.messages.seen_in(roll_from(row)) if row else None

    async def refusal_for_missing(self, roll_id: int) -> PushRefusal:
        """Why `get` found no roll with this id: EXPIRED when the id was given once (purged since), else UNKNOWN."""
        if not storable_id(roll_id):
            return PushRefusal.UNKNOWN
        return await _missing_reason(self._store, roll_id)

    async def latest_pending(
        self, guild_id: int, channel_id: int, user_id: int, now: datetime, lifetime: timedelta
    ) -> YearZeroRoll | None:
        """The player's pushable roll in this channel (newest pending one within its lifetime), or None."""
        params = {"guild": guild_id, "channel": channel_id, "user": user_id, "oldest": epoch(now - lifetime)}
        row = await self._store.fetch_one(_LATEST, params)
        return self.messages.seen_in(roll_from(row)) if row else None

    async def claim_push(
        self,
        roll_id: int,
        user_id: int,
        pushed_payload: str,
        willpower_gain: int,
        now: datetime,
        lifetime: timedelta,
        *,
        pushes_made: int = 0,
        last: bool = True,
        interaction_id: int | None = None,
    ) -> PushClaim:
        """Claim push number pushes_made + 1 of the roll: store pushed_payload and add the Willpower gain, both or
        neither, only if the roll still has made exactly pushes_made pushes (so each push is claimed at most once).

        The caller computes the pushed result from the roll as stored and claims with it; ``last`` says no push is
        left after this one (none allowed, or nothing to reroll), which ends the roll. A refusal changes nothing.
        A repeat of interaction_id gets the first one's claim back (the roll as stored, the Willpower change then).
        """
        if not isinstance(pushed_payload, str):
            raise TypeError("pushed_payload must be the pushed roll as a JSON string")
        if not storable_id(roll_id):
            return PushClaim(None, PushRefusal.UNKNOWN)
        oldest = epoch(now - lifetime)
        params = {"id": roll_id, "user": user_id, "pushed": pushed_payload, "now": epoch(now), "oldest": oldest}
        params |= {"made": pushes_made, "last": bool(last)}
        async with self._store.transaction() as transaction:
            if (outcome := await recalled_in(transaction, interaction_id)) is not None:
                return await _claimed_before(transaction, roll_id, outcome)
            row = await transaction.fetch_one(_CLAIM, params)
            if row is None:
                return await _refusal(transaction, roll_id, user_id, oldest)
            roll = roll_from(row)
            change = gained(row["willpower_before"] or 0, willpower_gain)
            await store_in(transaction, roll.guild_id, user_id, change)
            await remember_in(transaction, interaction_id, {"willpower": change.as_dict()}, push_subject(roll_id))
        return PushClaim(roll, willpower=change)

    async def keep(self, roll_id: int, user_id: int, now: datetime, lifetime: timedelta) -> PushClaim:
        """The roller accepts the roll as it lies: it becomes *kept* and can no longer be pushed. Atomic like a
        push claim (a keep racing a push: one of them wins); the answer is a claim without Willpower."""
        if not storable_id(roll_id):
            return PushClaim(None, PushRefusal.UNKNOWN)
        oldest = epoch(now - lifetime)
        async with self._store.transaction() as transaction:
            row = await transaction.fetch_one(_KEEP, {"id": roll_id, "user": user_id, "oldest": oldest})
            if row is None:
                return await _refusal(transaction, roll_id, user_id, oldest)
        return PushClaim(roll_from(row))

    async def superseded_by(self, newer_id: int, guild_id: int, channel_id: int, user_id: int) -> YearZeroRoll | None:
        """The player's roll here just before newer_id, if newer_id superseded it while it was pending (its message
        may still show buttons), or None. Older rolls were superseded by that one, and their messages edited then."""
        params = {"guild": guild_id, "channel": channel_id, "user": user_id, "newer": newer_id}
        row = await self._store.fetch_one(_SUPERSEDED_BY, params)
        return self.messages.seen_in(roll_from(row)) if row else None

    async def expiring(self, now: datetime, lifetime: timedelta, limit: int) -> list[YearZeroRoll]:
        """Up to limit rolls past their lifetime that were still pushable and have a message (oldest first): the
        purge takes their buttons off before deleting them."""
        params = {"oldest": epoch(now - lifetime), "limit": limit}
        return [roll_from(row) for row in await self._store.fetch_all(_EXPIRING, params)]

    async def purge_expired(self, now: datetime, lifetime: timedelta, batch: int = PURGE_BATCH) -> int:
        """Delete every roll older than lifetime, whatever its state, `batch` rows per statement (other tasks'
        statements go between them: a million rows never hold the database for seconds); return how many."""
        oldest, purged, deleted = epoch(now - lifetime), 0, batch
        while deleted == batch:
            deleted = await self._store.execute(_PURGE_BATCH, (oldest, batch))
            purged += deleted
        return purged


async def _claimed_before(transaction: Transaction, roll_id: int, outcome: dict[str, Any]) -> PushClaim:
    """The claim a repeated interaction made the first time, read back."""
    row = await transaction.fetch_one(_GET, (roll_id,))
    if row is None:
        return PushClaim(None, await _missing_reason(transaction, roll_id))
    return PushClaim(roll_from(row), willpower=WillpowerChange(**outcome["willpower"]))


async def _refusal(transaction: Transaction, roll_id: int, user_id: int, oldest: float) -> PushClaim:
    """Why the claim found nothing to update, read in the claim's own transaction."""
    row = await transaction.fetch_one(_GET, (roll_id,))
    if row is None:
        return PushClaim(None, await _missing_reason(transaction, roll_id))
    roll = roll_from(row)
    if roll.user_id != user_id:
        return PushClaim(roll, PushRefusal.NOT_YOURS)
    return PushClaim(roll, refusal_for(roll, oldest))


async def _missing_reason(transaction: Store | Transaction, roll_id: int) -> PushRefusal:
    """A missing id at or below the highest ever given was purged (expired); any other was never a roll."""
    row = await transaction.fetch_one("SELECT seq FROM sqlite_sequence WHERE name = 'yz_rolls'")
    highest = int(row["seq"]) if row else 0
    return PushRefusal.EXPIRED if 0 < roll_id <= highest else PushRefusal.UNKNOWN
