"""Year Zero rolls a player may push: stored when posted, each push claimed once (docs/architecture.md)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.storage.applied import AppliedInteractions
from bot.storage.dialects import Dialect
from bot.storage.driver import PURGE_BATCH, Row, Session, Statements, epoch, storable_id
from bot.storage.roll_log import NewEntry, entry_params, log_in, unlog_in
from bot.storage.roll_messages import RollMessages
from bot.storage.roll_records import PushRefusal, YearZeroRoll, push_subject, refusal_of, roll_from
from bot.storage.willpower import Willpower, WillpowerChange


@dataclass(frozen=True, slots=True)
class PushClaim:
    """The answer to a push: claimed (no refusal; the stored roll and the Willpower change) or a refusal."""

    roll: YearZeroRoll | None
    refusal: PushRefusal | None = None
    willpower: WillpowerChange | None = None


class YearZeroRolls:
    """The pushable Year Zero rolls."""

    _INSERT = """
INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at, pushes_allowed)
VALUES (:guild, :channel, :user, :payload, :now, :allowed)
RETURNING *
"""
    _GET = "SELECT * FROM yz_roll_states WHERE id = :id"
    _LATEST = """
SELECT * FROM yz_roll_states
WHERE id = (SELECT max(id) FROM yz_rolls WHERE guild_id = :guild AND channel_id = :channel AND user_id = :user)
  AND state = 'pending' AND created_at >= :oldest
"""
    _SUPERSEDE = """
UPDATE yz_rolls SET state = 'superseded'
WHERE guild_id = :guild AND channel_id = :channel AND user_id = :user AND state = 'pending'
RETURNING *
"""
    _SUPERSEDED_BY = """
SELECT * FROM yz_rolls
WHERE id = (
    SELECT max(id) FROM yz_rolls WHERE guild_id = :guild AND channel_id = :channel AND user_id = :user AND id < :newer
) AND state = 'pending'
"""
    _WITHDRAW = """
DELETE FROM yz_rolls WHERE id = :id AND state = 'pending' AND pushes_made = 0 AND message_id IS NULL RETURNING id
"""
    # One round of the lookup: the next :round expired rolls in the purge's order (the age index), each flagged
    # when its message still shows buttons: pending, and the player's newest there (the max of the player's index,
    # one seek on both databases; not the view, whose NOT EXISTS PostgreSQL may answer by scanning the player).
    _EXPIRING_ROUND = """
SELECT roll.*, roll.state = 'pending' AND roll.message_id IS NOT NULL AND roll.id = (
    SELECT max(newer.id) FROM yz_rolls AS newer
    WHERE newer.guild_id = roll.guild_id AND newer.channel_id = roll.channel_id AND newer.user_id = roll.user_id
) AS showing
FROM yz_rolls AS roll
WHERE roll.created_at < :oldest AND roll.created_at >= :after_at
  AND (roll.created_at > :after_at OR roll.id > :after_id)
ORDER BY roll.created_at, roll.id LIMIT :round
"""

    def __init__(
        self, statements: Statements, dialect: Dialect, applied: AppliedInteractions, willpower: Willpower
    ) -> None:
        self._db = statements
        self._dialect = dialect
        self._applied = applied
        self._willpower = willpower
        self.messages = RollMessages(statements, dialect.set_messages)

    async def create_superseding(
        self, interaction_id: int | None, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime,
        pushes_allowed: int = 1, *, log: NewEntry | None = None,
    ) -> tuple[YearZeroRoll, YearZeroRoll | None]:
        """Store a new pending roll allowing that many pushes (the player's older ones here superseded) and its log
        entry, once, in one trip: a repeat of the interaction gets the first one's roll back (and None); else the
        roll and the player's roll here it superseded while pending, or None."""
        if not isinstance(payload, str):
            raise TypeError("payload must be the roll as a JSON string")
        params = {"guild": guild_id, "channel": channel_id, "user": user_id, "payload": payload, "now": epoch(now),
                  "allowed": pushes_allowed}
        if log is not None and interaction_id is not None and (sql := self._dialect.store_roll) is not None:
            params = entry_params(log, now, None, interaction_id) | params
            # No row: a repeat whose first delivery committed after the statement began; it is seen the second time.
            rows = await self._db.write(sql, params) or await self._db.write(sql, params)
            found = {row["found"]: row for row in rows}
            return self.messages.seen_in(roll_from(found["new"])), self._seen(found.get("older"))

        async def store(session: Session) -> tuple[Row, Row | None]:
            outcome = await self._applied.recalled(session, interaction_id)
            if outcome and (row := await session.fetch_one(self._GET, {"id": outcome["roll_id"]})) is not None:
                return row, None
            row = (await session.fetch_all(self._INSERT, params))[0]
            if outcome is None:
                await self._applied.remember(session, interaction_id, {"roll_id": row["id"]})
            if log is not None:
                await log_in(session, log, now, entry_id=row["id"], interaction_id=interaction_id)
            player = {"guild": guild_id, "channel": channel_id, "user": user_id, "newer": row["id"]}
            return row, await session.fetch_one(self._SUPERSEDED_BY, player)

        row, replaced = await self._db.in_one_trip(store)
        return self.messages.seen_in(roll_from(row)), self._seen(replaced)  # a repeat's message may be noted

    async def withdraw(self, roll_id: int) -> bool:
        """Delete a roll never shown nor pushed, and its log entry (its answer never reached the player); else False."""
        roll = await self.get(roll_id)
        if roll is None or roll.message_id is not None:
            return False
        async with self._db.transaction() as session:
            withdrawn = bool(await session.fetch_all(self._WITHDRAW, {"id": roll_id}))
            if withdrawn:
                await unlog_in(session, roll_id)
        return withdrawn

    async def supersede(
        self, guild_id: int, channel_id: int, user_id: int, *, interaction_id: int | None = None
    ) -> list[YearZeroRoll]:
        """Supersede the player's pending rolls here (a roll not pushable); return them. A repeat supersedes nothing."""
        params = {"guild": guild_id, "channel": channel_id, "user": user_id}
        async with self._db.transaction() as session:
            if await self._applied.recalled(session, interaction_id) is not None:
                return []
            rows = await session.fetch_all(self._SUPERSEDE, params)
            await self._applied.remember(session, interaction_id, {"superseded": len(rows)})
        return [self.messages.seen_in(roll_from(row)) for row in rows]

    async def get(self, roll_id: int) -> YearZeroRoll | None:
        """The stored roll, whatever its state, or None (never stored, or purged)."""
        if not storable_id(roll_id):
            return None
        return self._seen(await self._db.fetch_one(self._GET, {"id": roll_id}))

    async def refusal_for_missing(self, roll_id: int) -> PushRefusal:
        """Why `get` found no roll with this id: EXPIRED when the id was given once (purged since), else UNKNOWN."""
        return await self._missing_reason(self._db, roll_id)

    async def latest_pending(
        self, guild_id: int, channel_id: int, user_id: int, now: datetime, lifetime: timedelta
    ) -> YearZeroRoll | None:
        """The player's pushable roll in this channel (newest pending one within its lifetime), or None."""
        params = {"guild": guild_id, "channel": channel_id, "user": user_id, "oldest": epoch(now - lifetime)}
        return self._seen(await self._db.fetch_one(self._LATEST, params))

    async def claim_push(
        self, roll_id: int, user_id: int, pushed_payload: str, willpower_gain: int, now: datetime, lifetime: timedelta,
        *, pushes_made: int = 0, last: bool = True, interaction_id: int | None = None,
    ) -> PushClaim:
        """Claim push number pushes_made + 1 of the roll (the last one when ``last``, ending it): store pushed_payload
        and add the Willpower gain, both or neither, only if the roll has made exactly pushes_made pushes. A refusal
        changes nothing; a repeat of interaction_id gets the first one's claim back."""
        if not isinstance(pushed_payload, str):
            raise TypeError("pushed_payload must be the pushed roll as a JSON string")
        if not storable_id(roll_id):
            return PushClaim(None, PushRefusal.UNKNOWN)
        params = {"id": roll_id, "user": user_id, "pushed": pushed_payload, "now": epoch(now), "made": pushes_made}
        params |= {"oldest": epoch(now - lifetime), "last": bool(last)}

        async def claim(session: Session) -> PushClaim:  # one trip
            if (outcome := await self._applied.recalled(session, interaction_id)) is not None:
                first = WillpowerChange(**outcome["willpower"])
                return await self._read_back(session, roll_id, user_id, now, lifetime, first)
            row = await session.fetch_one(self._dialect.claim, params)
            if row is None:
                return await self._read_back(session, roll_id, user_id, now, lifetime)
            before = (row["willpower_before"] or 0) if self._dialect.claim_reads_points else None  # else read now
            change = await self._willpower.gain_in(session, row["guild_id"], user_id, willpower_gain, before)
            gain = {"willpower": asdict(change)}
            await self._applied.remember(session, interaction_id, gain, push_subject(roll_id))
            return PushClaim(roll_from(row), willpower=change)

        return await self._db.in_one_trip(claim)

    async def keep(self, roll_id: int, user_id: int, now: datetime, lifetime: timedelta) -> PushClaim:
        """The roller keeps the roll as it lies: no more pushes. Atomic like a claim (racing a push, one wins)."""
        if not storable_id(roll_id):
            return PushClaim(None, PushRefusal.UNKNOWN)
        oldest = epoch(now - lifetime)

        async def keeping(session: Session) -> PushClaim:  # one trip
            row = await session.fetch_one(self._dialect.keep, {"id": roll_id, "user": user_id, "oldest": oldest})
            return PushClaim(roll_from(row)) if row else await self._read_back(session, roll_id, user_id, now, lifetime)

        return await self._db.in_one_trip(keeping)

    async def expiring(self, now: datetime, lifetime: timedelta, limit: int) -> list[YearZeroRoll]:
        """Up to limit expired rolls still showing buttons, oldest first, looked for in rounds of PURGE_BATCH rolls."""
        params: dict[str, Any] = {"oldest": epoch(now - lifetime), "round": PURGE_BATCH, "after_at": -1, "after_id": 0}
        found: list[YearZeroRoll] = []
        while len(found) < limit:
            rows = await self._db.fetch_all(self._EXPIRING_ROUND, params)
            found += [roll_from(row) for row in rows if row["showing"]]
            if len(rows) < PURGE_BATCH:
                break
            params |= {"after_at": rows[-1]["created_at"], "after_id": rows[-1]["id"]}
        return found[:limit]

    def _seen(self, row: Row | None) -> YearZeroRoll | None:
        """The roll read, with the message noted for it (perhaps not written yet)."""
        return self.messages.seen_in(roll_from(row)) if row else None

    async def _missing_reason(self, reader: Session | Statements, roll_id: int) -> PushRefusal:
        """A missing id at or below the highest ever given was purged (expired); any other was never a roll."""
        highest = await reader.fetch_one(self._dialect.highest_id)
        return PushRefusal.EXPIRED if highest and 0 < roll_id <= int(highest["highest"]) else PushRefusal.UNKNOWN

    async def _read_back(
        self, session: Session, roll_id: int, user_id: int, now: datetime, lifetime: timedelta,
        first: WillpowerChange | None = None,
    ) -> PushClaim:
        """The claim a repeat made the first time (its Willpower change `first`), or why nothing was claimed."""
        row = await session.fetch_one(self._GET, {"id": roll_id})
        if row is None:
            return PushClaim(None, await self._missing_reason(session, roll_id))
        roll = roll_from(row)
        if first is not None:
            return PushClaim(roll, willpower=first)
        return PushClaim(roll, PushRefusal.NOT_YOURS if roll.user_id != user_id else refusal_of(roll, now, lifetime))
