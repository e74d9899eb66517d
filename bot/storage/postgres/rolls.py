"""Year Zero rolls in PostgreSQL: stored when posted, each push claimed at most once by their roller.

Storing a roll is one INSERT; a newer roll of the same player in the same channel supersedes the older ones by
existing (the view ``yz_roll_states``). A claim is one UPDATE whose WHERE holds every condition of a pushable
roll, including a compare-and-set on pushes_made (the Nth push); under READ COMMITTED a second claim racing the
first - from this process or another - waits for the first's row lock, then re-reads the committed row, finds
pushes_made moved on (or the roll ended) and matches nothing. Keep is the same kind of UPDATE, so a Keep racing
a push ends the roll one way only. The Willpower gain is written in the claim's transaction: a push and its
points are stored both or neither.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import asyncpg

from bot.storage.postgres.applied import recalled_in, remember_in
from bot.storage.postgres.pool import PostgresStore
from bot.storage.postgres.roll_log import log_in, unlog_in
from bot.storage.postgres.roll_messages import PostgresRollMessages
from bot.storage.postgres.willpower import gain_in
from bot.storage.roll_log import NewEntry
from bot.storage.rolls import (
    PURGE_BATCH,
    PushClaim,
    PushRefusal,
    YearZeroRoll,
    epoch,
    push_subject,
    refusal_of,
    roll_from,
    storable_id,
)
from bot.storage.willpower import WillpowerChange

_INSERT = """
INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at, pushes_allowed)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING id
"""

_INSERT_RETURNING_ALL = _INSERT.replace("RETURNING id", "RETURNING *")

_WITHDRAW = """
DELETE FROM yz_rolls WHERE id = $1 AND state = 'pending' AND pushes_made = 0 AND message_id IS NULL RETURNING id
"""

_SUPERSEDE = """
UPDATE yz_rolls SET state = 'superseded'
WHERE guild_id = $1 AND channel_id = $2 AND user_id = $3 AND state = 'pending'
RETURNING *
"""

# The roll is pushable: its roller's, within its lifetime, pending and the player's newest here.
_PUSHABLE = """
roll.id = $1 AND roll.user_id = $2 AND roll.created_at >= $3 AND roll.state = 'pending'
  AND NOT EXISTS (
      SELECT 1 FROM yz_rolls AS newer
      WHERE newer.guild_id = roll.guild_id AND newer.channel_id = roll.channel_id
        AND newer.user_id = roll.user_id AND newer.id > roll.id
  )
"""

_CLAIM = f"""
UPDATE yz_rolls AS roll SET state = CASE WHEN $7 THEN 'pushed' ELSE 'pending' END,
    pushed_payload = $4, pushed_at = $5, pushes_made = roll.pushes_made + 1
WHERE {_PUSHABLE} AND roll.pushes_made = $6 AND roll.pushes_made < roll.pushes_allowed
RETURNING roll.*
"""

_KEEP = f"UPDATE yz_rolls AS roll SET state = 'kept' WHERE {_PUSHABLE} RETURNING roll.*"

_SUPERSEDED_BY = """
SELECT * FROM yz_rolls
WHERE id = (SELECT max(id) FROM yz_rolls WHERE guild_id = $1 AND channel_id = $2 AND user_id = $3 AND id < $4)
  AND state = 'pending'
"""

_EXPIRING = """
SELECT * FROM yz_roll_states
WHERE created_at < $1 AND state = 'pending' AND message_id IS NOT NULL
ORDER BY id LIMIT $2
"""

_LATEST = """
SELECT * FROM yz_roll_states
WHERE id = (SELECT max(id) FROM yz_rolls WHERE guild_id = $1 AND channel_id = $2 AND user_id = $3)
  AND state = 'pending' AND created_at >= $4
"""

_GET = "SELECT * FROM yz_roll_states WHERE id = $1"

_PURGE_BATCH = """
DELETE FROM yz_rolls WHERE id IN (SELECT id FROM yz_rolls WHERE created_at < $1 ORDER BY created_at LIMIT $2)
"""

_HIGHEST_ID = "SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('yz_rolls', 'id')), 0)"



class PostgresRolls:
    """The pushable Year Zero rolls."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self.messages = PostgresRollMessages(store)

    async def create(
        self, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime, pushes_allowed: int = 1
    ) -> int:
        """Store a new pending roll allowing that many pushes and return its id; the player's older rolls here are
        superseded by it."""
        if not isinstance(payload, str):
            raise TypeError("payload must be the roll as a JSON string")
        values = (guild_id, channel_id, user_id, payload, epoch(now), pushes_allowed)
        return int(await self._fetch_value(_INSERT, *values))

    async def create_for(
        self,
        interaction_id: int,
        guild_id: int,
        channel_id: int,
        user_id: int,
        payload: str,
        now: datetime,
        pushes_allowed: int = 1,
        *,
        log: NewEntry | None = None,
    ) -> YearZeroRoll:
        """Store the roll an interaction made, once, with its log entry (under the roll's id) in the same
        transaction: a repeat of that interaction gets the first one's roll back (its payload, not the repeat's)
        and writes nothing. Otherwise as `create`."""
        values = (guild_id, channel_id, user_id, payload, epoch(now), pushes_allowed)
        async with self._store.transaction() as connection:
            outcome = await recalled_in(connection, interaction_id)
            row = await connection.fetchrow(_GET, outcome["roll_id"]) if outcome else None
            if row is not None:
                return self.messages.seen_in(roll_from(row))
            row = await connection.fetchrow(_INSERT_RETURNING_ALL, *values)
            if outcome is None:
                await remember_in(connection, interaction_id, {"roll_id": row["id"]})
            if log is not None:
                await log_in(connection, log, now, entry_id=row["id"], interaction_id=interaction_id)
        return roll_from(row)

    async def withdraw(self, roll_id: int) -> bool:
        """Delete a roll whose answer did not reach the player, and its log entry, only if never shown and never
        pushed (see the SQLite store); False otherwise."""
        roll = await self.get(roll_id)
        if roll is None or roll.message_id is not None:
            return False
        async with self._store.transaction() as connection:
            withdrawn = await connection.fetchval(_WITHDRAW, roll_id) is not None
            if withdrawn:
                await unlog_in(connection, roll_id)
        return withdrawn

    async def supersede(
        self, guild_id: int, channel_id: int, user_id: int, *, interaction_id: int | None = None
    ) -> list[YearZeroRoll]:
        """Supersede the player's pending rolls here without storing a new one (a roll that cannot be pushed);
        return the rolls superseded. A repeat of interaction_id supersedes nothing."""
        async with self._store.transaction() as connection:
            if await recalled_in(connection, interaction_id) is not None:
                return []
            rows = await connection.fetch(_SUPERSEDE, guild_id, channel_id, user_id)
            await remember_in(connection, interaction_id, {"superseded": len(rows)})
        return [self.messages.seen_in(roll_from(row)) for row in rows]

    def note_message(self, roll_id: int, channel_id: int, message_id: int) -> None:
        """Remember the message that shows a roll, without waiting (see RollMessages.note)."""
        self.messages.note(roll_id, channel_id, message_id)

    async def flush_messages(self) -> int:
        """Write the noted message ids now; return how many rolls got one."""
        return await self.messages.flush()

    async def get(self, roll_id: int) -> YearZeroRoll | None:
        """The stored roll, whatever its state, or None (never stored, or purged)."""
        if not storable_id(roll_id):
            return None
        row = await self._store.fetch_one(_GET, roll_id)
        return self.messages.seen_in(roll_from(row)) if row else None

    async def refusal_for_missing(self, roll_id: int) -> PushRefusal:
        """Why `get` found no roll with this id: EXPIRED when the id was given once (purged since), else UNKNOWN."""
        if not storable_id(roll_id):
            return PushRefusal.UNKNOWN
        return _missing_reason(roll_id, int(await self._fetch_value(_HIGHEST_ID)))

    async def latest_pending(
        self, guild_id: int, channel_id: int, user_id: int, now: datetime, lifetime: timedelta
    ) -> YearZeroRoll | None:
        """The player's pushable roll in this channel (newest pending one within its lifetime), or None."""
        row = await self._store.fetch_one(_LATEST, guild_id, channel_id, user_id, epoch(now - lifetime))
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
        neither, only if the roll still has made exactly pushes_made pushes; ``last`` ends the roll with it. A
        repeat of interaction_id gets the first one's claim back."""
        if not isinstance(pushed_payload, str):
            raise TypeError("pushed_payload must be the pushed roll as a JSON string")
        if not storable_id(roll_id):
            return PushClaim(None, PushRefusal.UNKNOWN)
        claim = (roll_id, user_id, epoch(now - lifetime), pushed_payload, epoch(now), pushes_made, bool(last))
        async with self._store.transaction() as connection:
            if (outcome := await recalled_in(connection, interaction_id)) is not None:
                return await _claimed_before(connection, roll_id, outcome)
            row = await connection.fetchrow(_CLAIM, *claim)
            if row is None:
                return await _refusal(connection, roll_id, user_id, now, lifetime)
            roll = roll_from(row)
            change = await gain_in(connection, roll.guild_id, user_id, willpower_gain)
            await remember_in(connection, interaction_id, {"willpower": change.as_dict()}, push_subject(roll_id))
        return PushClaim(roll, willpower=change)

    async def keep(self, roll_id: int, user_id: int, now: datetime, lifetime: timedelta) -> PushClaim:
        """The roller accepts the roll as it lies: it becomes *kept* and can no longer be pushed (a keep racing a
        push: one of them wins); the answer is a claim without Willpower."""
        if not storable_id(roll_id):
            return PushClaim(None, PushRefusal.UNKNOWN)
        async with self._store.transaction() as connection:
            row = await connection.fetchrow(_KEEP, roll_id, user_id, epoch(now - lifetime))
            if row is None:
                return await _refusal(connection, roll_id, user_id, now, lifetime)
        return PushClaim(roll_from(row))

    async def superseded_by(self, newer_id: int, guild_id: int, channel_id: int, user_id: int) -> YearZeroRoll | None:
        """The player's roll here just before newer_id, if newer_id superseded it while it was pending (its message
        may still show buttons), or None."""
        row = await self._store.fetch_one(_SUPERSEDED_BY, guild_id, channel_id, user_id, newer_id)
        return self.messages.seen_in(roll_from(row)) if row else None

    async def expiring(self, now: datetime, lifetime: timedelta, limit: int) -> list[YearZeroRoll]:
        """Up to limit rolls past their lifetime that were still pushable and have a message (oldest first): the
        purge takes their buttons off before deleting them."""
        return [roll_from(row) for row in await self._store.fetch_all(_EXPIRING, epoch(now - lifetime), limit)]

    async def purge_expired(self, now: datetime, lifetime: timedelta, batch: int = PURGE_BATCH) -> int:
        """Delete every roll older than lifetime, whatever its state, `batch` rows per statement (each a short
        transaction of its own, so a large purge never holds the rows other statements need); return how many."""
        oldest, purged, deleted = epoch(now - lifetime), 0, batch
        while deleted == batch:
            deleted = await self._store.execute(_PURGE_BATCH, oldest, batch)
            purged += deleted
        return purged

    async def _fetch_value(self, sql: str, *args: Any) -> Any:
        async with self._store.connection() as connection:
            return await connection.fetchval(sql, *args)


async def _claimed_before(connection: asyncpg.Connection, roll_id: int, outcome: dict[str, Any]) -> PushClaim:
    """The claim a repeated interaction made the first time, read back."""
    row = await connection.fetchrow(_GET, roll_id)
    if row is None:
        return PushClaim(None, _missing_reason(roll_id, int(await connection.fetchval(_HIGHEST_ID))))
    return PushClaim(roll_from(row), willpower=WillpowerChange(**outcome["willpower"]))


async def _refusal(
    connection: asyncpg.Connection, roll_id: int, user_id: int, now: datetime, lifetime: timedelta
) -> PushClaim:
    """Why the claim (or keep) found nothing to update, read in its own transaction."""
    row = await connection.fetchrow(_GET, roll_id)
    if row is None:
        return PushClaim(None, _missing_reason(roll_id, int(await connection.fetchval(_HIGHEST_ID))))
    roll = roll_from(row)
    if roll.user_id != user_id:
        return PushClaim(roll, PushRefusal.NOT_YOURS)
    return PushClaim(roll, refusal_of(roll, now, lifetime))


def _missing_reason(roll_id: int, highest: int) -> PushRefusal:
    """A missing id at or below the highest ever given was purged (expired); any other was never a roll."""
    return PushRefusal.EXPIRED if 0 < roll_id <= highest else PushRefusal.UNKNOWN
