"""Year Zero rolls in PostgreSQL: stored when posted, claimed at most once by their roller.

Storing a roll is one INSERT; a newer roll of the same player in the same channel supersedes the older ones by
existing (the view ``yz_roll_states``). The claim is one UPDATE whose WHERE holds every condition of a pushable
roll; under READ COMMITTED a second claim racing the first - from this process or another - waits for the
first's row lock, then re-reads the committed row, finds it 'pushed' and matches nothing. The Willpower gain
is written in the same transaction, so a push and its points are stored both or neither.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import asyncpg

from bot.storage.errors import StorageError
from bot.storage.postgres.pool import PostgresStore
from bot.storage.postgres.willpower import gain_in
from bot.storage.roll_messages import RollMessages
from bot.storage.rolls import PushClaim, PushRefusal, RollState, YearZeroRoll, _roll, _storable_id, epoch

_log = logging.getLogger(__name__)

_INSERT = """
INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at) VALUES ($1, $2, $3, $4, $5)
RETURNING id
"""

_SUPERSEDE = """
UPDATE yz_rolls SET state = 'superseded'
WHERE guild_id = $1 AND channel_id = $2 AND user_id = $3 AND state = 'pending'
"""

_CLAIM = """
UPDATE yz_rolls AS roll SET state = 'pushed', pushed_payload = $3, pushed_at = $4
WHERE roll.id = $1 AND roll.user_id = $2 AND roll.created_at >= $5 AND roll.state = 'pending'
  AND NOT EXISTS (
      SELECT 1 FROM yz_rolls AS newer
      WHERE newer.guild_id = roll.guild_id AND newer.channel_id = roll.channel_id
        AND newer.user_id = roll.user_id AND newer.id > roll.id
  )
RETURNING roll.*
"""

_LATEST = """
SELECT * FROM yz_roll_states
WHERE id = (SELECT max(id) FROM yz_rolls WHERE guild_id = $1 AND channel_id = $2 AND user_id = $3)
  AND state = 'pending' AND created_at >= $4
"""

_GET = "SELECT * FROM yz_roll_states WHERE id = $1"

_HIGHEST_ID = "SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('yz_rolls', 'id')), 0)"

_SET_MESSAGES = """
UPDATE yz_rolls SET channel_id = noted.channel, message_id = noted.message
FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS noted (id, channel, message)
WHERE yz_rolls.id = noted.id
RETURNING yz_rolls.id
"""


class PostgresRollMessages(RollMessages):
    """Message ids noted as rolls are sent, written in batches: one UPDATE for the whole batch."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(store)
        self._postgres = store

    async def _write(self, noted: dict[int, tuple[int, int]]) -> int:
        ids = list(noted)
        channels = [noted[roll_id][0] for roll_id in ids]
        messages = [noted[roll_id][1] for roll_id in ids]
        try:
            return len(await self._postgres.fetch_all(_SET_MESSAGES, ids, channels, messages))
        except StorageError as error:
            _log.warning("Could not note the messages of %d Year Zero rolls: %s", len(noted), error)
            return 0


class PostgresRolls:
    """The pushable Year Zero rolls."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self.messages = PostgresRollMessages(store)

    async def create(self, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime) -> int:
        """Store a new pending roll and return its id; the player's older rolls here are superseded by it."""
        if not isinstance(payload, str):
            raise TypeError("payload must be the roll as a JSON string")
        return int(await self._fetch_value(_INSERT, guild_id, channel_id, user_id, payload, epoch(now)))

    async def supersede(self, guild_id: int, channel_id: int, user_id: int) -> int:
        """Supersede the player's pending rolls here without storing a new one; return how many."""
        return await self._store.execute(_SUPERSEDE, guild_id, channel_id, user_id)

    def note_message(self, roll_id: int, channel_id: int, message_id: int) -> None:
        """Remember the message that shows a roll, without waiting (see RollMessages.note)."""
        self.messages.note(roll_id, channel_id, message_id)

    async def flush_messages(self) -> int:
        """Write the noted message ids now; return how many rolls got one."""
        return await self.messages.flush()

    async def get(self, roll_id: int) -> YearZeroRoll | None:
        """The stored roll, whatever its state, or None (never stored, or purged)."""
        if not _storable_id(roll_id):
            return None
        row = await self._store.fetch_one(_GET, roll_id)
        return self.messages.seen_in(_roll(row)) if row else None

    async def refusal_for_missing(self, roll_id: int) -> PushRefusal:
        """Why `get` found no roll with this id: EXPIRED when the id was given once (purged since), else UNKNOWN."""
        if not _storable_id(roll_id):
            return PushRefusal.UNKNOWN
        return _missing_reason(roll_id, int(await self._fetch_value(_HIGHEST_ID)))

    async def latest_pending(
        self, guild_id: int, channel_id: int, user_id: int, now: datetime, lifetime: timedelta
    ) -> YearZeroRoll | None:
        """The player's pushable roll in this channel (newest pending one within its lifetime), or None."""
        row = await self._store.fetch_one(_LATEST, guild_id, channel_id, user_id, epoch(now - lifetime))
        return self.messages.seen_in(_roll(row)) if row else None

    async def claim_push(
        self, roll_id: int, user_id: int, pushed_payload: str, willpower_gain: int, now: datetime, lifetime: timedelta
    ) -> PushClaim:
        """Mark the roll pushed with pushed_payload and add the Willpower gain, both or neither, at most once."""
        if not isinstance(pushed_payload, str):
            raise TypeError("pushed_payload must be the pushed roll as a JSON string")
        if not _storable_id(roll_id):
            return PushClaim(None, PushRefusal.UNKNOWN)
        oldest = epoch(now - lifetime)
        async with self._store.transaction() as connection:
            row = await connection.fetchrow(_CLAIM, roll_id, user_id, pushed_payload, epoch(now), oldest)
            if row is None:
                return await _refusal(connection, roll_id, user_id)
            roll = _roll(row)
            change = await gain_in(connection, roll.guild_id, user_id, willpower_gain)
        return PushClaim(roll, willpower=change)

    async def purge_expired(self, now: datetime, lifetime: timedelta) -> int:
        """Delete every roll older than lifetime, whatever its state; return how many were deleted."""
        return await self._store.execute("DELETE FROM yz_rolls WHERE created_at < $1", epoch(now - lifetime))

    async def _fetch_value(self, sql: str, *args: Any) -> Any:
        async with self._store.connection() as connection:
            return await connection.fetchval(sql, *args)


async def _refusal(connection: asyncpg.Connection, roll_id: int, user_id: int) -> PushClaim:
    """Why the claim found nothing to update, read in the claim's own transaction."""
    row = await connection.fetchrow(_GET, roll_id)
    if row is None:
        return PushClaim(None, _missing_reason(roll_id, int(await connection.fetchval(_HIGHEST_ID))))
    roll = _roll(row)
    if roll.user_id != user_id:
        return PushClaim(roll, PushRefusal.NOT_YOURS)
    if roll.state is RollState.PUSHED:
        return PushClaim(roll, PushRefusal.ALREADY_PUSHED)
    if roll.state is RollState.SUPERSEDED:
        return PushClaim(roll, PushRefusal.SUPERSEDED)
    return PushClaim(roll, PushRefusal.EXPIRED)


def _missing_reason(roll_id: int, highest: int) -> PushRefusal:
    """A missing id at or below the highest ever given was purged (expired); any other was never a roll."""
    return PushRefusal.EXPIRED if 0 < roll_id <= highest else PushRefusal.UNKNOWN
