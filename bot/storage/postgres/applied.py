"""The interactions whose change the PostgreSQL store applied, with their outcome: an interaction applies once.

The same rules as bot/storage/applied.py. SQLite's write transactions take turns, so there a repeat always finds
the first delivery's row; on PostgreSQL two deliveries of one interaction may run at once in two processes, so
the transaction that recalls an interaction first takes a transaction-level advisory lock on its id: the second
delivery waits for the first to commit, then finds its row.
"""

from __future__ import annotations

import json
import time
from datetime import datetime

import asyncpg

from bot.storage.applied import Outcome, _outcome
from bot.storage.postgres.pool import PostgresStore

_RECALL = "SELECT outcome FROM applied_interactions WHERE interaction_id = $1"

_REMEMBER = """
INSERT INTO applied_interactions (interaction_id, subject, outcome, applied_at) VALUES ($1, $2, $3, $4)
"""

_FORGET = "DELETE FROM applied_interactions WHERE interaction_id = $1 RETURNING interaction_id"

_LATEST_FOR = """
SELECT outcome FROM applied_interactions WHERE subject = $1 ORDER BY applied_at DESC, interaction_id DESC LIMIT 1
"""


async def recalled_in(connection: asyncpg.Connection, interaction_id: int | None) -> Outcome | None:
    """The outcome stored for interaction_id inside the connection's transaction, or None; from here to the end
    of the transaction, another delivery of the same interaction waits."""
    if interaction_id is None:
        return None
    await connection.execute("SELECT pg_advisory_xact_lock($1)", interaction_id)
    text = await connection.fetchval(_RECALL, interaction_id)
    return _outcome(text) if text is not None else None


async def remember_in(
    connection: asyncpg.Connection, interaction_id: int | None, outcome: Outcome, subject: str | None = None
) -> None:
    """Keep interaction_id's outcome inside the connection's transaction (nothing when no id is given)."""
    if interaction_id is not None:
        await connection.execute(_REMEMBER, interaction_id, subject, json.dumps(outcome), time.time())


async def forget_in(connection: asyncpg.Connection, interaction_id: int) -> bool:
    """Forget interaction_id inside the connection's transaction (its change is being withdrawn); False when it
    was not remembered."""
    return await connection.fetchval(_FORGET, interaction_id) is not None


class PostgresAppliedInteractions:
    """Read and purge the applied interactions (they are written by the changes themselves)."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    async def outcome(self, interaction_id: int) -> Outcome | None:
        """What the interaction applied, or None when the store never applied it (or forgot it)."""
        row = await self._store.fetch_one(_RECALL, interaction_id)
        return _outcome(row["outcome"]) if row else None

    async def latest_for(self, subject: str) -> Outcome | None:
        """The outcome of the latest interaction applied to subject (e.g. 'yz_roll:12'), or None."""
        row = await self._store.fetch_one(_LATEST_FOR, subject)
        return _outcome(row["outcome"]) if row else None

    async def purge(self, before: datetime) -> int:
        """Forget the interactions applied before `before`; return how many."""
        return await self._store.execute("DELETE FROM applied_interactions WHERE applied_at < $1", before.timestamp())
