"""Willpower Points per player per server, 0 to 10.

A spend is one atomic statement (it happens only where the points are there). A gain and a GM's set need the
points before the change as well as after (a gain past 10 is lost, and the card says how much), so they read
and write inside one ``BEGIN IMMEDIATE`` transaction; the push claim gains inside its own.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from bot.storage.applied import forget_in, recalled_in, remember_in
from bot.storage.errors import InvalidValue, NotEnoughWillpower
from bot.storage.store import Store, Transaction
from rules.errors import RulesError
from rules.yearzero import MAX_WILLPOWER, apply_willpower

_CURRENT = "SELECT points FROM willpower WHERE guild_id = :guild AND user_id = :user"

_STORE = """
INSERT INTO willpower (guild_id, user_id, points) VALUES (:guild, :user, :points)
ON CONFLICT (guild_id, user_id) DO UPDATE SET points = excluded.points
"""

_SPEND = """
UPDATE willpower SET points = points - :points
WHERE guild_id = :guild AND user_id = :user AND points >= :points
RETURNING points
"""

# A spend withdrawn is refunded, whatever changed since (two lost spends each give their points back).
_REFUND = "UPDATE willpower SET points = min(points + :points, :most) WHERE guild_id = :guild AND user_id = :user"

# A set withdrawn puts the points back only while they are still what it left: a later change built on it.
_UNSET = """
UPDATE willpower SET points = :before
WHERE guild_id = :guild AND user_id = :user AND points = :after
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
    """Add points inside transaction; the total stops at 10, and the change says how many were lost past it."""
    before = await current_in(transaction, guild_id, user_id)
    return await store_in(transaction, guild_id, user_id, gained(before, points))


async def store_in(transaction: Transaction, guild_id: int, user_id: int, change: WillpowerChange) -> WillpowerChange:
    """Write change.after as the player's Willpower inside transaction; return the change."""
    await transaction.fetch_all(_STORE, {"guild": guild_id, "user": user_id, "points": change.after})
    return change


def gained(before: int, points: int) -> WillpowerChange:
    """The change when a player with before points gains points (0 or more)."""
    _check_whole("Willpower gained", points, low=0)
    try:
        after, lost = apply_willpower(before, points)
    except RulesError as error:
        raise InvalidValue(str(error)) from error
    return WillpowerChange(before, after, lost=lost)


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

    async def spend(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange:
        """Spend points (1 or more) if the player has them, else NotEnoughWillpower and nothing changes.

        With interaction_id, a repeat of that interaction gets the first one's change back and spends nothing."""
        _check_whole("Willpower to spend", points, low=1)
        params = {"guild": guild_id, "user": user_id, "points": points}
        if interaction_id is None:
            rows = await self._store.write(_SPEND, params)
        else:
            async with self._store.transaction() as transaction:
                if (outcome := await recalled_in(transaction, interaction_id)) is not None:
                    return WillpowerChange(**outcome)
                rows = await transaction.fetch_all(_SPEND, params)
                if rows:
                    after = int(rows[0]["points"])
                    await remember_in(transaction, interaction_id, WillpowerChange(after + points, after).as_dict())
        if not rows:
            raise NotEnoughWillpower(await self.get(guild_id, user_id), points)
        after = int(rows[0]["points"])
        return WillpowerChange(after + points, after)

    async def set(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange:
        """Set the player's Willpower to points (0 to 10), whatever it was; a repeat of interaction_id gets the
        first one's change back."""
        _check_whole("Willpower", points, low=0, high=MAX_WILLPOWER)
        async with self._store.transaction() as transaction:
            if (outcome := await recalled_in(transaction, interaction_id)) is not None:
                return WillpowerChange(**outcome)
            before = await current_in(transaction, guild_id, user_id)
            change = await store_in(transaction, guild_id, user_id, WillpowerChange(before, points))
            await remember_in(transaction, interaction_id, change.as_dict())
        return change

    async def withdraw_spend(self, guild_id: int, user_id: int, points: int, *, interaction_id: int) -> bool:
        """Refund a spend (made by interaction_id) whose answer never reached the player, and forget the
        interaction (a repeat may spend anew); False when it was not applied or was withdrawn already."""
        params = {"guild": guild_id, "user": user_id, "points": points, "most": MAX_WILLPOWER}
        async with self._store.transaction() as transaction:
            if not await forget_in(transaction, interaction_id):
                return False
            await transaction.fetch_all(_REFUND, params)
        return True

    async def withdraw_set(self, guild_id: int, user_id: int, change: WillpowerChange, *, interaction_id: int) -> bool:
        """Take back a set (made by interaction_id) whose answer never reached the player: the points go back to
        change.before and the interaction is forgotten. Only while nothing changed them since: a later answer
        showed a total built on this set, which then stays (False)."""
        params = {"guild": guild_id, "user": user_id, "before": change.before, "after": change.after}
        async with self._store.transaction() as transaction:
            if not await transaction.fetch_all(_UNSET, params):
                return False
            await forget_in(transaction, interaction_id)
        return True
