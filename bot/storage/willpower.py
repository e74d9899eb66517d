"""Willpower Points per player per server, 0 to 10, each change atomic: a spend is one statement; a gain (past 10
is lost, and the card says how much) and a GM's set build on the points read with the dialect's
`points_before_change`, so that no other change comes between the read and the write.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from bot.storage.applied import AppliedIn
from bot.storage.dialects import Dialect
from bot.storage.driver import Row, Session, Statements
from bot.storage.errors import InvalidValue, NotEnoughWillpower
from rules.errors import RulesError, Term
from rules.yearzero.willpower import MAX_WILLPOWER, apply_willpower

_CURRENT = "SELECT points FROM willpower WHERE guild_id = :guild AND user_id = :user"
_STORE = """
INSERT INTO willpower (guild_id, user_id, points) VALUES (:guild, :user, :points)
ON CONFLICT (guild_id, user_id) DO UPDATE SET points = excluded.points
"""
_SPEND = """
UPDATE willpower SET points = points - :points WHERE guild_id = :guild AND user_id = :user AND points >= :points
RETURNING points
"""
# A set withdrawn puts the points back only while they are still what it left: a later change built on it.
_UNSET = """
UPDATE willpower SET points = :before WHERE guild_id = :guild AND user_id = :user AND points = :after
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


def gained(before: int, points: int) -> WillpowerChange:
    """The change when a player with before points gains points (0 or more)."""
    check_whole("Willpower gained", points, low=0)
    try:
        after, lost = apply_willpower(before, points)
    except RulesError as error:
        raise InvalidValue(error.template, **error.values) from error
    return WillpowerChange(before, after, lost=lost)


def check_whole(name: str, value: int, *, low: int, high: int | None = None) -> None:
    """Refuse anything but a whole number in [low, high] with a message a player can read."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue("{name} must be a whole number, not {value!r}", name=Term(name), value=value)
    if high is not None and not low <= value <= high:
        raise InvalidValue("{name} must be from {low} to {high}, not {value}", name=Term(name), low=low, high=high,
                           value=value)
    if value < low:
        raise InvalidValue("{name} must be at least {low}, not {value}", name=Term(name), low=low, value=value)


async def points_in(session: Session, before_change: str, guild_id: int, user_id: int) -> int:
    """The player's Willpower inside session, read with the dialect's before_change (0 when never set)."""
    row = await session.fetch_one(before_change, {"guild": guild_id, "user": user_id})
    return int(row["points"]) if row else 0


async def store_in(session: Session, guild_id: int, user_id: int, change: WillpowerChange) -> WillpowerChange:
    """Write change.after as the player's Willpower inside session; return the change."""
    await session.fetch_all(_STORE, {"guild": guild_id, "user": user_id, "points": change.after})
    return change


class Willpower:
    """Willpower Points kept per (guild_id, user_id)."""

    def __init__(self, statements: Statements, dialect: Dialect, applied: AppliedIn) -> None:
        self._db = statements
        self._before_change = dialect.points_before_change
        self._refund = dialect.refund
        self._applied = applied

    async def get(self, guild_id: int, user_id: int) -> int:
        """The player's Willpower (0 for a player the bot has never seen)."""
        row = await self._db.fetch_one(_CURRENT, {"guild": guild_id, "user": user_id})
        return int(row["points"]) if row else 0

    async def add(self, guild_id: int, user_id: int, points: int) -> WillpowerChange:
        """Add points (0 or more); the total stops at 10 and `lost` says how many points went past it."""
        check_whole("Willpower gained", points, low=0)
        async with self._db.transaction() as session:
            before = await points_in(session, self._before_change, guild_id, user_id)
            return await store_in(session, guild_id, user_id, gained(before, points))

    async def spend(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange:
        """Spend points (1 or more) if the player has them, else NotEnoughWillpower and nothing changes. A repeat
        of interaction_id gets the first one's change back and spends nothing."""
        check_whole("Willpower to spend", points, low=1)
        params = {"guild": guild_id, "user": user_id, "points": points}
        if interaction_id is None:
            rows = await self._db.write(_SPEND, params)
        else:
            async with self._db.transaction() as session:
                if (outcome := await self._applied.recalled(session, interaction_id)) is not None:
                    return WillpowerChange(**outcome)
                rows = await session.fetch_all(_SPEND, params)
                if rows:
                    await self._applied.remember(session, interaction_id, _spent(rows[0], points).as_dict())
        if not rows:
            raise NotEnoughWillpower(await self.get(guild_id, user_id), points)
        return _spent(rows[0], points)

    async def set(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange:
        """Set the player's Willpower to points (0 to 10), whatever it was; a repeat of interaction_id gets the
        first one's change back."""
        check_whole("Willpower", points, low=0, high=MAX_WILLPOWER)
        async with self._db.transaction() as session:
            if (outcome := await self._applied.recalled(session, interaction_id)) is not None:
                return WillpowerChange(**outcome)
            before = await points_in(session, self._before_change, guild_id, user_id)
            change = await store_in(session, guild_id, user_id, WillpowerChange(before, points))
            await self._applied.remember(session, interaction_id, change.as_dict())
        return change

    async def withdraw_spend(self, guild_id: int, user_id: int, points: int, *, interaction_id: int) -> bool:
        """Refund a spend (made by interaction_id) whose answer never reached the player, whatever changed since
        (two lost spends each give their points back), and forget the interaction (a repeat may spend anew); False
        when it was not applied or was withdrawn already."""
        params = {"guild": guild_id, "user": user_id, "points": points, "most": MAX_WILLPOWER}
        async with self._db.transaction() as session:
            if not await self._applied.forget(session, interaction_id):
                return False
            await session.fetch_all(self._refund, params)
        return True

    async def withdraw_set(self, guild_id: int, user_id: int, change: WillpowerChange, *, interaction_id: int) -> bool:
        """Take back a set (made by interaction_id) whose answer never reached the player: the points go back to
        change.before and the interaction is forgotten; only while nothing changed them since (False)."""
        params = {"guild": guild_id, "user": user_id, "before": change.before, "after": change.after}
        async with self._db.transaction() as session:
            if not await session.fetch_all(_UNSET, params):
                return False
            await self._applied.forget(session, interaction_id)
        return True


def _spent(row: Row, points: int) -> WillpowerChange:
    """The change a spend made, from the points it left (its RETURNING row)."""
    after = int(row["points"])
    return WillpowerChange(after + points, after)
