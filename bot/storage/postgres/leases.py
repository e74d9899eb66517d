"""Leases on shards in PostgreSQL: one process serves a shard at a time, on one database.

The same rules as bot/storage/leases.py. SQLite's write transactions take turns; on PostgreSQL two processes
starting at once could both read "nobody holds it" and both write, so taking, renewing and releasing first
take one transaction-level advisory lock (the two-key form, apart from the other locks' key space): leases
change one process at a time, and a process gets every shard it asked for or none.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta

import asyncpg

from bot.storage.leases import HeldLease
from bot.storage.postgres.pool import PostgresStore

LEASE_LOCK = (0x726F6C6C, 1)
"""The advisory lock held while the leases change ('roll', 1)."""

_HELD_BY_OTHERS = """
SELECT shard_id, owner, expires_at FROM shard_leases WHERE shard_id = $1 AND owner <> $2 AND expires_at > $3
"""

_TAKE = """
INSERT INTO shard_leases (shard_id, owner, expires_at) VALUES ($1, $2, $3)
ON CONFLICT (shard_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
"""

_RENEW = "UPDATE shard_leases SET expires_at = $4 WHERE shard_id = $1 AND owner = $2 AND expires_at > $3"

_RELEASE = "DELETE FROM shard_leases WHERE shard_id = $1 AND owner = $2"


async def _turn(connection: asyncpg.Connection) -> None:
    await connection.execute("SELECT pg_advisory_xact_lock($1, $2)", *LEASE_LOCK)


class PostgresShardLeases:
    """The shard_leases table."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    async def take(
        self, shard_ids: Sequence[int], owner: str, now: datetime, ttl: timedelta, *, overrule: Collection[str] = ()
    ) -> list[HeldLease]:
        """Take (or take over, once expired) the lease of every shard for owner until now + ttl; leases held by
        an owner in `overrule` (known dead) are taken over at once. Returns the leases other processes still
        hold; when there is any, nothing was taken."""
        held: list[HeldLease] = []
        async with self._store.transaction() as connection:
            await _turn(connection)
            for shard in shard_ids:
                row = await connection.fetchrow(_HELD_BY_OTHERS, shard, owner, now.timestamp())
                if row is not None and row["owner"] not in overrule:
                    moment = datetime.fromtimestamp(row["expires_at"], UTC)
                    held.append(HeldLease(row["shard_id"], row["owner"], moment))
            if not held:
                until = (now + ttl).timestamp()
                await connection.executemany(_TAKE, [(shard, owner, until) for shard in shard_ids])
        return held

    async def renew(self, shard_ids: Sequence[int], owner: str, now: datetime, ttl: timedelta) -> bool:
        """Extend owner's leases to now + ttl; False (nothing changed) if any was lost (expired or taken)."""
        try:
            async with self._store.transaction() as connection:
                await _turn(connection)
                for shard in shard_ids:
                    status = await connection.execute(_RENEW, shard, owner, now.timestamp(), (now + ttl).timestamp())
                    if status != "UPDATE 1":
                        raise _Lost()
        except _Lost:
            return False
        return True

    async def release(self, shard_ids: Sequence[int], owner: str) -> None:
        """Give owner's leases back (at a clean stop), so the next start need not wait for them to expire."""
        async with self._store.transaction() as connection:
            await connection.executemany(_RELEASE, [(shard, owner) for shard in shard_ids])


class _Lost(Exception):
    """A lease was no longer the owner's: raised inside renew's transaction to roll it back."""
