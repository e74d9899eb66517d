"""Leases on shards in PostgreSQL: bot/storage/leases.py's rules and statements, with a turn taken first.

SQLite's write transactions take turns; on PostgreSQL two processes starting at once could both read "nobody
holds it" and both write, so taking, renewing and releasing first take one transaction-level advisory lock (the
two-key form, apart from the other locks' key space): leases change one process at a time, and a process gets
every shard it asked for or none.
"""

from __future__ import annotations

from bot.storage.leases import ShardLeases
from bot.storage.postgres.named import NamedStatements
from bot.storage.postgres.pool import PostgresStore
from bot.storage.shared.statements import Session

LEASE_LOCK = (0x726F6C6C, 1)
"""The advisory lock held while the leases change ('roll', 1)."""

_TURN = "SELECT pg_advisory_xact_lock(:key, :part)"


class PostgresShardLeases(ShardLeases):
    """The shard_leases table."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(NamedStatements(store))

    async def _take_turn(self, transaction: Session) -> None:
        """Wait for the advisory lock; the transaction's end releases it."""
        await transaction.fetch_one(_TURN, {"key": LEASE_LOCK[0], "part": LEASE_LOCK[1]})
