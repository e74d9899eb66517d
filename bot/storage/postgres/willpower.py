"""Willpower Points in PostgreSQL, 0 to 10, each change atomic (the rest is bot/storage/shared/willpower.py).

A gain and a GM's set need the points before the change too: the first statement of their transaction
(`LOCKED_POINTS`) creates the row if missing and locks it, returning the points as they stand, so a racing
change waits for this one to commit and then builds on it.
"""

from __future__ import annotations

from bot.storage.postgres.applied import applied_in
from bot.storage.postgres.named import NamedStatements, NamedTransaction
from bot.storage.postgres.pool import PostgresStore
from bot.storage.shared.willpower import SharedWillpower

LOCKED_POINTS = """
INSERT INTO willpower (guild_id, user_id, points) VALUES (:guild, :user, 0)
ON CONFLICT (guild_id, user_id) DO UPDATE SET points = willpower.points
RETURNING points
"""
"""The player's Willpower, its row locked until the transaction ends (created at 0 if missing)."""


class PostgresWillpower(SharedWillpower[NamedTransaction]):
    """Willpower Points kept per (guild_id, user_id)."""

    _BEFORE_CHANGE = LOCKED_POINTS

    _REFUND = "UPDATE willpower SET points = least(points + :points, :most) WHERE guild_id = :guild AND user_id = :user"

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(NamedStatements(store), applied_in)
