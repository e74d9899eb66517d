"""Willpower Points in PostgreSQL, 0 to 10, each change atomic.

A spend is one statement (``points >= spent`` is re-checked on the newest row when two spends race). A gain and
a GM's set need the points before the change too (a gain past 10 is lost, and the card says how much): the
first statement of their transaction creates the row if missing and locks it, returning the points as they
stand, so a racing change waits for this one to commit and then builds on it.
"""

from __future__ import annotations

import asyncpg

from bot.storage.errors import NotEnoughWillpower
from bot.storage.postgres.applied import forget_in, recalled_in, remember_in
from bot.storage.postgres.pool import PostgresStore
from bot.storage.willpower import WillpowerChange, _check_whole, gained
from rules.yearzero import MAX_WILLPOWER

_LOCK = """
INSERT INTO willpower (guild_id, user_id, points) VALUES ($1, $2, 0)
ON CONFLICT (guild_id, user_id) DO UPDATE SET points = willpower.points
RETURNING points
"""

_STORE = "UPDATE willpower SET points = $3 WHERE guild_id = $1 AND user_id = $2"

_SPEND = """
UPDATE willpower SET points = points - $3
WHERE guild_id = $1 AND user_id = $2 AND points >= $3
RETURNING points
"""

# A spend withdrawn is refunded whatever changed since; a set only while the points are what it left.
_REFUND = "UPDATE willpower SET points = least(points + $3, $4) WHERE guild_id = $1 AND user_id = $2"
_UNSET = "UPDATE willpower SET points = $3 WHERE guild_id = $1 AND user_id = $2 AND points = $4 RETURNING points"


async def locked_points(connection: asyncpg.Connection, guild_id: int, user_id: int) -> int:
    """The player's Willpower, its row locked until the transaction ends (created at 0 if missing)."""
    return int(await connection.fetchval(_LOCK, guild_id, user_id))


async def gain_in(connection: asyncpg.Connection, guild_id: int, user_id: int, points: int) -> WillpowerChange:
    """Add points inside the connection's transaction; the total stops at 10 and the change says what was lost."""
    change = gained(await locked_points(connection, guild_id, user_id), points)
    await connection.execute(_STORE, guild_id, user_id, change.after)
    return change


class PostgresWillpower:
    """Willpower Points kept per (guild_id, user_id)."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    async def get(self, guild_id: int, user_id: int) -> int:
        """The player's Willpower (0 for a player the bot has never seen)."""
        row = await self._store.fetch_one(
            "SELECT points FROM willpower WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
        )
        return int(row["points"]) if row else 0

    async def add(self, guild_id: int, user_id: int, points: int) -> WillpowerChange:
        """Add points (0 or more); the total stops at 10 and `lost` says how many points went past it."""
        _check_whole("Willpower gained", points, low=0)
        async with self._store.transaction() as connection:
            return await gain_in(connection, guild_id, user_id, points)

    async def spend(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange:
        """Spend points (1 or more) if the player has them, else NotEnoughWillpower and nothing changes. A repeat
        of interaction_id gets the first one's change back and spends nothing."""
        _check_whole("Willpower to spend", points, low=1)
        async with self._store.transaction() as connection:
            if (outcome := await recalled_in(connection, interaction_id)) is not None:
                return WillpowerChange(**outcome)
            row = await connection.fetchrow(_SPEND, guild_id, user_id, points)
            if row is not None:
                change = WillpowerChange(int(row["points"]) + points, int(row["points"]))
                await remember_in(connection, interaction_id, change.as_dict())
        if row is None:
            raise NotEnoughWillpower(await self.get(guild_id, user_id), points)
        return change

    async def set(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange:
        """Set the player's Willpower to points (0 to 10), whatever it was; a repeat of interaction_id gets the
        first one's change back."""
        _check_whole("Willpower", points, low=0, high=MAX_WILLPOWER)
        async with self._store.transaction() as connection:
            if (outcome := await recalled_in(connection, interaction_id)) is not None:
                return WillpowerChange(**outcome)
            before = await locked_points(connection, guild_id, user_id)
            await connection.execute(_STORE, guild_id, user_id, points)
            change = WillpowerChange(before, points)
            await remember_in(connection, interaction_id, change.as_dict())
        return change

    async def withdraw_spend(self, guild_id: int, user_id: int, points: int, *, interaction_id: int) -> bool:
        """Refund a spend whose answer never reached the player (see the SQLite store)."""
        async with self._store.transaction() as connection:
            if not await forget_in(connection, interaction_id):
                return False
            await connection.execute(_REFUND, guild_id, user_id, points, MAX_WILLPOWER)
        return True

    async def withdraw_set(self, guild_id: int, user_id: int, change: WillpowerChange, *, interaction_id: int) -> bool:
        """Take back a set whose answer never reached the player, while nothing changed the points since (see the
        SQLite store); False when it stays."""
        async with self._store.transaction() as connection:
            if await connection.fetchval(_UNSET, guild_id, user_id, change.before, change.after) is None:
                return False
            await forget_in(connection, interaction_id)
        return True
