"""The interactions whose change the PostgreSQL store applied: the same rules and statements as SQLite's
(bot/storage/shared/applied.py). SQLite's write transactions take turns, so there a repeat always finds the
first delivery's row; on PostgreSQL two deliveries of one interaction may run at once in two processes, so the
transaction that recalls an interaction first takes a transaction-level advisory lock on its id: the second
delivery waits for the first to commit, then finds its row (the lock is its own statement, so the recall's
snapshot is taken after the wait).
"""

from __future__ import annotations

from bot.storage.postgres.named import NamedStatements
from bot.storage.postgres.pool import PostgresStore
from bot.storage.shared.applied import AppliedIn, SharedAppliedInteractions

applied_in = AppliedIn(before_recall="SELECT pg_advisory_xact_lock(:id)")


class PostgresAppliedInteractions(SharedAppliedInteractions):
    """Read and purge the applied interactions (they are written by the changes themselves)."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(NamedStatements(store))
