"""Leases on shards: one process serves a shard at a time, on one database (docs/architecture.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.storage.driver import Session, Statements, from_row, moment

_HELD_BY_OTHERS = """
SELECT shard_id, owner, expires_at FROM shard_leases
WHERE shard_id = :shard AND owner != :owner AND expires_at > :now
"""
_TAKE = """
INSERT INTO shard_leases (shard_id, owner, expires_at) VALUES (:shard, :owner, :until)
ON CONFLICT (shard_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
"""
# Every lease of the owner (a name no other run shares), only while all :held it took are still its own and live.
_RENEW = """
UPDATE shard_leases SET expires_at = :until
WHERE owner = :owner AND (SELECT count(*) FROM shard_leases WHERE owner = :owner AND expires_at > :now) = :held
RETURNING shard_id
"""
_RELEASE = "DELETE FROM shard_leases WHERE owner = :owner"


@dataclass(frozen=True, slots=True)
class HeldLease:
    """A shard's lease held by another process, until expires_at."""

    shard_id: int
    owner: str
    expires_at: datetime


class ShardLeases:
    """The shard_leases table."""

    def __init__(self, statements: Statements, turn: str | None) -> None:
        self._db = statements
        self._turn = turn

    @asynccontextmanager
    async def _changing(self) -> AsyncIterator[Session]:
        """A transaction that takes the turn first: the leases change one process at a time (the end releases it)."""
        async with self._db.transaction() as transaction:
            if self._turn is not None:
                await transaction.fetch_one(self._turn)
            yield transaction

    async def take(
        self, shard_ids: Sequence[int], owner: str, now: datetime, ttl: timedelta, *, overrule: Collection[str] = ()
    ) -> list[HeldLease]:
        """Take (or take over, once expired) the lease of every shard for owner until now + ttl, those of an owner
        in `overrule` (known dead) at once; return the leases others still hold (when any, nothing was taken)."""
        held: list[HeldLease] = []
        async with self._changing() as transaction:
            for shard in shard_ids:
                params = {"shard": shard, "owner": owner, "now": now.timestamp()}
                row = await transaction.fetch_one(_HELD_BY_OTHERS, params)
                if row is not None and row["owner"] not in overrule:
                    held.append(from_row(HeldLease, row, expires_at=moment(row["expires_at"])))
            if held:
                return held
            for shard in shard_ids:
                await transaction.fetch_all(_TAKE, {"shard": shard, "owner": owner, "until": (now + ttl).timestamp()})
        return held

    async def renew(self, shard_ids: Sequence[int], owner: str, now: datetime, ttl: timedelta) -> bool:
        """Extend the leases owner took (shard_ids, all of them) to now + ttl in one statement; False (nothing
        changed) if any was lost (expired or taken)."""
        params = {"owner": owner, "now": now.timestamp(), "until": (now + ttl).timestamp(), "held": len(shard_ids)}
        async with self._changing() as transaction:
            return bool(await transaction.fetch_all(_RENEW, params))

    async def release(self, owner: str) -> None:
        """Give owner's leases back (at a clean stop), so the next start need not wait for them to expire."""
        async with self._changing() as transaction:
            await transaction.fetch_all(_RELEASE, {"owner": owner})
