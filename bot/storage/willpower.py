"""Willpower Points per player per server: 0 to 10, every change one atomic, clamped SQL statement."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from bot.storage.errors import InvalidValue, NotEnoughWillpower
from bot.storage.store import Store, Transaction

MAX_WILLPOWER = 10

_CURRENT = "SELECT points FROM willpower WHERE guild_id = :guild AND user_id = :user"

_GAIN = """
INSERT INTO willpower (guild_id, user_id, points) VALUES (:guild, :user, MIN(:max, MAX(0, :points)))
ON CONFLICT (guild_id, user_id) DO UPDATE SET points = MIN(:max, MAX(0, points + :points))
RETURNING points
"""

_SPEND = """
UPDATE willpower SET points = points - :points
WHERE guild_id = :guild AND user_id = :user AND points >= :points
RETURNING points
"""

_SET = """
INSERT INTO willpower (guild_id, user_id, points) VALUES (:guild, :user, :points)
ON CONFLICT (guild_id, user_id) DO UPDATE SET points = excluded.points
RETURNING points
"""


@dataclass(frozen=True, slots=True)
class WillpowerChange:
    """A player's Willpower before and after one change, and the points lost past 10 (gains only)."""

    before: int
    after: int
    lost: int = 0

    @property
    def gained(self) -> int:
        """Points actually added (negative for a spend)."""
        return self.after - self.before

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


async def current_in(transaction: Transaction, guild_id: int, user_id: int) -> int:
    """The player's Willpower as seen inside transaction (0 when never set)."""
    row = await transaction.fetch_one(_CURRENT, {"guild": guild_id, "user": user_id})
    return int(row["points"]) if row else 0


async def gain_in(transaction: Transaction, guild_id: int, user_id: int, points: int) -> WillpowerChange:
    """Add points inside transaction, clamped at 10 in SQL; the change reports what was lost past 10."""
    _check_whole("Willpower gained", points, low=0)
    before = await current_in(transaction, guild_id, user_id)
    params = {"guild": guild_id, "user": user_id, "points": points, "max": MAX_WILLPOWER}
    row = await transaction.fetch_one(_GAIN, params)
    after = int(row["points"]) if row else before
    return WillpowerChange(before, after, lost=before + points - after)


def _check_whole(name: str, value: int, *, low: int, high: int | None = None) -> None:
    """Refuse anything but a whole number in [low, high] with a message a player can read."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue(f"{name} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise InvalidValue(f"{name} must be {bounds}, not {value}")


class Willpower:
    """Willpower Points kept per (guild_id, user_id)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def get(self, guild_id: int, user_id: int) -> int:
        """The player's Willpower (0 for a player the bot has never seen)."""
        row = await self._store.fetch_one(_CURRENT, {"guild": guild_id, "user": user_id})
        return int(row["points"]) if row else 0

    async def add(self, guild_id: int, user_id: int, points: int) -> WillpowerChange:
        """Add points (0 or more); the total stops at 10 and `lost` says how many points went past it."""
        async with self._store.transaction() as transaction:
            return await gain_in(transaction, guild_id, user_id, points)

    async def spend(self, guild_id: int, user_id: int, points: int) -> WillpowerChange:
        """Spend points (1 or more) if the player has them, else NotEnoughWillpower and nothing changes."""
        _check_whole("Willpower to spend", points, low=1)
        params = {"guild": guild_id, "user": user_id, "points": points}
        async with self._store.transaction() as transaction:
            row = await transaction.fetch_one(_SPEND, params)
            if row is None:
                raise NotEnoughWillpower(await current_in(transaction, guild_id, user_id), points)
        after = int(row["points"])
        return WillpowerChange(after + points, after)

    async def set(self, guild_id: int, user_id: int, points: int) -> WillpowerChange:
        """Set the player's Willpower to points (0 to 10), whatever it was."""
        _check_whole("Willpower", points, low=0, high=MAX_WILLPOWER)
        params = {"guild": guild_id, "user": user_id, "points": points}
        async with self._store.transaction() as transaction:
            before = await current_in(transaction, guild_id, user_id)
            row = await transaction.fetch_one(_SET, params)
        return WillpowerChange(before, int(row["points"]) if row else points)
