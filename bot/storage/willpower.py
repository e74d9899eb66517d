"""Willpower Points per player per server, 0 to 10, each change atomic (docs/architecture.md, "What is kept")."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from bot.storage.applied import AppliedInteractions
from bot.storage.dialects import Dialect
from bot.storage.driver import Row, Session, Statements
from bot.storage.errors import InvalidValue, NotEnoughWillpower, check_whole
from rules.errors import RulesError
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


class Willpower:
    """Willpower Points kept per (guild_id, user_id)."""

    def __init__(self, statements: Statements, dialect: Dialect, applied: AppliedInteractions) -> None:
        self._db = statements
        self._before_change = dialect.points_before_change
        self._refund = dialect.refund
        self._applied = applied

    async def get(self, guild_id: int, user_id: int) -> int:
        """The player's Willpower (0 for a player the bot has never seen)."""
        return await self._points(self._db, _CURRENT, guild_id, user_id)

    async def gain_in(
        self, session: Session, guild_id: int, user_id: int, points: int, before: int | None = None
    ) -> WillpowerChange:
        """Add points inside session to `before` (read by the caller, write lock held) or to the points read now."""
        check_whole("Willpower gained", points, low=0)
        if before is None:
            before = await self._points(session, self._before_change, guild_id, user_id)
        try:
            after, lost = apply_willpower(before, points)
        except RulesError as error:
            raise InvalidValue(error.template, **error.values) from error
        return await self._store(session, guild_id, user_id, WillpowerChange(before, after, lost=lost))

    async def spend(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange:
        """Spend points (1 or more), else NotEnoughWillpower; a repeat of interaction_id gets the first change back."""
        check_whole("Willpower to spend", points, low=1)
        params = {"guild": guild_id, "user": user_id, "points": points}

        async def spending(session: Session) -> WillpowerChange | None:  # one trip; None: not enough
            if (outcome := await self._applied.recalled(session, interaction_id)) is not None:
                return WillpowerChange(**outcome)
            if not (rows := await session.fetch_all(_SPEND, params)):
                return None
            change = _spent(rows[0], points)
            await self._applied.remember(session, interaction_id, asdict(change))
            return change

        if (spent := await self._db.in_one_trip(spending)) is None:
            raise NotEnoughWillpower(await self.get(guild_id, user_id), points)
        return spent

    async def set(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange:
        """Set the player's Willpower to points (0 to 10); a repeat of interaction_id gets the first change back."""
        check_whole("Willpower", points, low=0, high=MAX_WILLPOWER)

        async def setting(session: Session) -> WillpowerChange:  # one trip
            if (outcome := await self._applied.recalled(session, interaction_id)) is not None:
                return WillpowerChange(**outcome)
            before = await self._points(session, self._before_change, guild_id, user_id)
            change = await self._store(session, guild_id, user_id, WillpowerChange(before, points))
            await self._applied.remember(session, interaction_id, asdict(change))
            return change

        return await self._db.in_one_trip(setting)

    async def withdraw_spend(self, guild_id: int, user_id: int, points: int, *, interaction_id: int) -> bool:
        """Refund a spend never shown, whatever changed since, and forget interaction_id; False if not applied."""
        params = {"guild": guild_id, "user": user_id, "points": points, "most": MAX_WILLPOWER}
        async with self._db.transaction() as session:
            if not await self._applied.forget(session, interaction_id):
                return False
            await session.fetch_all(self._refund, params)
        return True

    async def withdraw_set(self, guild_id: int, user_id: int, change: WillpowerChange, *, interaction_id: int) -> bool:
        """Take back a set never shown (points back to change.before, interaction forgotten) unless changed since."""
        params = {"guild": guild_id, "user": user_id, "before": change.before, "after": change.after}
        async with self._db.transaction() as session:
            if not await session.fetch_all(_UNSET, params):
                return False
            await self._applied.forget(session, interaction_id)
        return True

    async def _points(self, reader: Session | Statements, sql: str, guild_id: int, user_id: int) -> int:
        row = await reader.fetch_one(sql, {"guild": guild_id, "user": user_id})
        return int(row["points"]) if row else 0

    async def _store(self, session: Session, guild_id: int, user_id: int, change: WillpowerChange) -> WillpowerChange:
        await session.fetch_all(_STORE, {"guild": guild_id, "user": user_id, "points": change.after})
        return change


def _spent(row: Row, points: int) -> WillpowerChange:
    """The change a spend made, from the points it left (its RETURNING row)."""
    after = int(row["points"])
    return WillpowerChange(after + points, after)
