"""Willpower Points per player per server, 0 to 10, in SQLite (the rest is bot/storage/shared/willpower.py).

A gain and a GM's set read the points and write them inside one ``BEGIN IMMEDIATE`` transaction: the write lock
is held from its start, so a plain read is what the write builds on.
"""

from __future__ import annotations

from bot.storage.applied import applied_in
from bot.storage.shared.willpower import SharedWillpower, WillpowerChange, gained, store_in
from bot.storage.store import Store, Transaction
from rules.yearzero.willpower import MAX_WILLPOWER

__all__ = ["MAX_WILLPOWER", "Willpower", "WillpowerChange", "gained", "store_in"]


class Willpower(SharedWillpower[Transaction]):
    """Willpower Points kept per (guild_id, user_id)."""

    _BEFORE_CHANGE = "SELECT points FROM willpower WHERE guild_id = :guild AND user_id = :user"

    _REFUND = "UPDATE willpower SET points = min(points + :points, :most) WHERE guild_id = :guild AND user_id = :user"

    def __init__(self, store: Store) -> None:
        super().__init__(store, applied_in)
