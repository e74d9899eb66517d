"""Year Zero rolls a player may push: stored when posted, each push claimed once.

A roll allows 0-3 pushes. It is *pending* until its last push is claimed (*pushed*), its roller keeps it
(*kept*), the player rolls again in that channel (*superseded*: read through the view ``yz_roll_states``, so
storing a roll is one INSERT) or it outlives its lifetime (the purge deletes it). A claim is one ``UPDATE ...
RETURNING`` with a compare-and-set on ``pushes_made``, in one transaction with the Willpower gain: of simultaneous
pushes exactly one wins (how, under each database's locking: dialects.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.storage.applied import AppliedIn
from bot.storage.dialects import Dialect
from bot.storage.driver import PURGE_BATCH, Row, Session, Statements, epoch, purge, storable_id
from bot.storage.log_records import NewEntry
from bot.storage.roll_log import log_in, unlog_in
from bot.storage.roll_messages import RollMessages
from bot.storage.roll_records import PushRefusal, YearZeroRoll, push_subject, refusal_for, roll_from
from bot.storage.willpower import WillpowerChange, gained, points_in, store_in


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
        return asdict(self) | {"claimed": self.claimed}


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
SELECT roll.id, roll.created_at, roll.state = 'pending' AND roll.message_id IS NOT NULL AND roll.id = (
    SELECT max(newer.id) FROM yz_rolls AS newer
    WHERE newer.guild_id = roll.guild_id AND newer.channel_id = roll.channel_id AND newer.user_id = roll.user_id
) AS showing
FROM yz_rolls AS roll
WHERE roll.created_at < :oldest AND roll.created_at >= :after_at
  AND (roll.created_at > :after_at OR roll.id > :after_id)
ORDER BY roll.created_at, roll.id LIMIT :round
"""
    _PURGE_BATCH = """
DELETE FROM yz_rolls WHERE id IN (SELECT id FROM yz_rolls WHERE created_at < :oldest ORDER BY created_at LIMIT :batch)
"""

    def __init__(self, statements: Statements, dialect: Dialect, applied: AppliedIn) -> None:
        self._db = statements
        self._dialect = dialect
        self._applied = applied
        self.messages = RollMessages(statements, dialect.set_messages)

    async def create(
        self, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime, pushes_allowed: int = 1
    ) -> int:
        """Store a new pending roll allowing that many pushes and return its id; the player's older rolls here are
        superseded by it."""
        if not isinstance(payload, str):
            raise TypeError("payload must be the roll as a JSON string")
        params = _new_roll(guild_id, channel_id, user_id, payload, now, pushes_allowed)
        return int((await self._db.write(self._INSERT, params))[0]["id"])

    async def create_for(
        self, interaction_id: int, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime,
        pushes_allowed: int = 1, *, log: NewEntry | None = None,
    ) -> YearZeroRoll:
        """As `create`, with the roll's log entry (under the roll's id) in the same transaction, once: a repeat of
        the interaction gets the first one's roll back (its payload, not the repeat's) and writes nothing."""
        args = (interaction_id, guild_id, channel_id, user_id, payload, now, pushes_allowed)
        return (await self.create_superseding(*args, log=log, look_back=False))[0]

    async def create_superseding(
        self, interaction_id: int, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime,
        pushes_allowed: int = 1, *, log: NewEntry | None = None, look_back: bool = True,
    ) -> tuple[YearZeroRoll, YearZeroRoll | None]:
        """As `create_for`, in one trip to the database, with the roll it superseded (as `superseded_by`; None for
        a repeat, whose first delivery saw to it)."""
        params = _new_roll(guild_id, channel_id, user_id, payload, now, pushes_allowed)

        async def store(session: Session) -> tuple[Row, bool, Row | None]:
            outcome = await self._applied.recalled(session, interaction_id)
            row = await session.fetch_one(self._GET, {"id": outcome["roll_id"]}) if outcome else None
            if row is not None:
                return row, True, None
            row = await session.fetch_one(self._INSERT, params)
            if row is None:
                raise RuntimeError("INSERT ... RETURNING gave no row")
            if outcome is None:
                await self._applied.remember(session, interaction_id, {"roll_id": row["id"]})
            if log is not None:
                await log_in(session, log, now, entry_id=row["id"], interaction_id=interaction_id)
            if not look_back:
                return row, False, None
            player = {"guild": guild_id, "channel": channel_id, "user": user_id, "newer": row["id"]}
            return row, False, await session.fetch_one(self._SUPERSEDED_BY, player)

        row, repeated, replaced = await self._db.in_one_trip(store)
        stored = self.messages.seen_in(roll_from(row)) if repeated else roll_from(row)
        return stored, self._seen(replaced)

    async def withdraw(self, roll_id: int) -> bool:
        """Delete a roll whose answer did not reach the player, and its log entry (the roll shown before it is the
        player's latest again); only a roll never shown (no message noted) and never pushed, else False."""
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
        """Supersede the player's pending rolls here without storing a new one (a roll that cannot be pushed); return
        them (their messages may still show buttons). A repeat of interaction_id supersedes nothing."""
        params = {"guild": guild_id, "channel": channel_id, "user": user_id}
        if interaction_id is None:
            rows = await self._db.write(self._SUPERSEDE, params)
        else:
            async with self._db.transaction() as session:
                if await self._applied.recalled(session, interaction_id) is not None:
                    return []
                rows = await session.fetch_all(self._SUPERSEDE, params)
                await self._applied.remember(session, interaction_id, {"superseded": len(rows)})
        return [self.messages.seen_in(roll_from(row)) for row in rows]

    def note_message(self, roll_id: int, channel_id: int, message_id: int) -> None:
        """Remember the message that shows a roll, without waiting (RollMessages.note)."""
        self.messages.note(roll_id, channel_id, message_id)

    async def flush_messages(self) -> int:
        """Write the noted message ids now (RollMessages.flush); return how many rolls got one."""
        return await self.messages.flush()

    async def get(self, roll_id: int) -> YearZeroRoll | None:
        """The stored roll, whatever its state, or None (never stored, or purged)."""
        if not storable_id(roll_id):
            return None
        return self._seen(await self._db.fetch_one(self._GET, {"id": roll_id}))

    async def refusal_for_missing(self, roll_id: int) -> PushRefusal:
        """Why `get` found no roll with this id: EXPIRED when the id was given once (purged since), else UNKNOWN."""
        if not storable_id(roll_id):
            return PushRefusal.UNKNOWN
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
        """Claim push number pushes_made + 1 of the roll: store pushed_payload (computed by the caller from the roll
        as stored) and add the Willpower gain, both or neither, only if the roll still has made exactly pushes_made
        pushes. ``last``: no push is left after this one, which ends the roll. A refusal changes nothing; a repeat
        of interaction_id gets the first one's claim back."""
        if not isinstance(pushed_payload, str):
            raise TypeError("pushed_payload must be the pushed roll as a JSON string")
        if not storable_id(roll_id):
            return PushClaim(None, PushRefusal.UNKNOWN)
        oldest = epoch(now - lifetime)
        params = {"id": roll_id, "user": user_id, "pushed": pushed_payload, "now": epoch(now), "oldest": oldest}
        params |= {"made": pushes_made, "last": bool(last)}

        async def claim(session: Session) -> PushClaim:  # one trip
            if (outcome := await self._applied.recalled(session, interaction_id)) is not None:
                first = WillpowerChange(**outcome["willpower"])
                return await self._read_back(session, roll_id, user_id, oldest, first)
            row = await session.fetch_one(self._dialect.claim, params)
            if row is None:
                return await self._read_back(session, roll_id, user_id, oldest)
            change = await self._gain(session, row, user_id, willpower_gain)
            gain = {"willpower": change.as_dict()}
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
            return PushClaim(roll_from(row)) if row else await self._read_back(session, roll_id, user_id, oldest)

        return await self._db.in_one_trip(keeping)

    async def superseded_by(self, newer_id: int, guild_id: int, channel_id: int, user_id: int) -> YearZeroRoll | None:
        """The player's roll here just before newer_id, if newer_id superseded it while pending (its message may
        still show buttons), or None."""
        params = {"guild": guild_id, "channel": channel_id, "user": user_id, "newer": newer_id}
        return self._seen(await self._db.fetch_one(self._SUPERSEDED_BY, params))

    async def expiring(self, now: datetime, lifetime: timedelta, limit: int) -> list[YearZeroRoll]:
        """Up to limit rolls past their lifetime still pushable and with a message, oldest first (the purge takes
        their buttons off), looked for in short rounds of PURGE_BATCH rolls: a statement waits for one round."""
        params: dict[str, Any] = {"oldest": epoch(now - lifetime), "round": PURGE_BATCH, "after_at": -1, "after_id": 0}
        found: list[int] = []
        while len(found) < limit:
            rows = await self._db.fetch_all(self._EXPIRING_ROUND, params)
            found += [row["id"] for row in rows if row["showing"]]
            if len(rows) < PURGE_BATCH:
                break
            params |= {"after_at": rows[-1]["created_at"], "after_id": rows[-1]["id"]}
        read = [await self._db.fetch_one(self._GET, {"id": roll_id}) for roll_id in found[:limit]]
        return [roll_from(row) for row in read if row is not None]

    async def purge_expired(self, now: datetime, lifetime: timedelta, batch: int = PURGE_BATCH) -> int:
        """Delete every roll older than lifetime, whatever its state, in batches; return how many."""
        return await purge(self._db, self._PURGE_BATCH, now - lifetime, batch)

    def _seen(self, row: Row | None) -> YearZeroRoll | None:
        """The roll read, with the message noted for it (perhaps not written yet)."""
        return self.messages.seen_in(roll_from(row)) if row else None

    async def _gain(self, session: Session, claimed: Row, user_id: int, points: int) -> WillpowerChange:
        """Add the Willpower the claimed push gains, from the points the claim read (SQLite) or read now."""
        if self._dialect.claim_reads_points:
            before = claimed["willpower_before"] or 0
        else:
            before = await points_in(session, self._dialect.points_before_change, claimed["guild_id"], user_id)
        return await store_in(session, claimed["guild_id"], user_id, gained(before, points))

    async def _missing_reason(self, reader: Session | Statements, roll_id: int) -> PushRefusal:
        """A missing id at or below the highest ever given was purged (expired); any other was never a roll."""
        highest = await reader.fetch_one(self._dialect.highest_id)
        return PushRefusal.EXPIRED if highest and 0 < roll_id <= int(highest["highest"]) else PushRefusal.UNKNOWN

    async def _read_back(
        self, session: Session, roll_id: int, user_id: int, oldest: float, first: WillpowerChange | None = None
    ) -> PushClaim:
        """The claim a repeat made the first time (its Willpower change `first`), or why a claim or keep found
        nothing to update."""
        row = await session.fetch_one(self._GET, {"id": roll_id})
        if row is None:
            return PushClaim(None, await self._missing_reason(session, roll_id))
        roll = roll_from(row)
        if first is not None:
            return PushClaim(roll, willpower=first)
        return PushClaim(roll, PushRefusal.NOT_YOURS if roll.user_id != user_id else refusal_for(roll, oldest))


def _new_roll(guild: int, channel: int, user: int, payload: str, now: datetime, allowed: int) -> dict[str, Any]:
    return {"guild": guild, "channel": channel, "user": user, "payload": payload, "now": epoch(now), "allowed": allowed}
