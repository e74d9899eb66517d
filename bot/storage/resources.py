"""Forbidden Lands resource dice: each player's Food, Water, Arrows and Torches ratings where they play, 0 for none
(RULES.md section 7). Each change applies once per interaction; one never shown is withdrawn as Willpower's are."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime

from bot.storage.applied import AppliedInteractions
from bot.storage.driver import Session, Statements
from bot.storage.roll_log import NewEntry, log_in, unlog_in

Key = tuple[int, int, str]  # (guild_id, user_id, resource); guild_id is the place, as Willpower's
_RATINGS = "SELECT resource, rating FROM resource_ratings WHERE guild_id = :guild AND user_id = :user"
# A compare-and-set from :before to :after. No row is none (rows are never deleted): an insert is from none.
_CHANGE = """
INSERT INTO resource_ratings (guild_id, user_id, resource, rating) VALUES (:guild, :user, :resource, :after)
ON CONFLICT (guild_id, user_id, resource) DO UPDATE SET rating = :after WHERE resource_ratings.rating = :before
RETURNING rating
"""


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A rating before and after a set or a roll; a roll's face and log entry."""

    before: int
    after: int
    face: int | None = None
    entry_id: int | None = None


class ResourceRatings:
    def __init__(self, statements: Statements, applied: AppliedInteractions) -> None:
        self._db, self._applied = statements, applied

    async def ratings(self, guild_id: int, user_id: int) -> dict[str, int]:
        """The player's ratings by resource (one never set is missing: none)."""
        rows = await self._db.fetch_all(_RATINGS, {"guild": guild_id, "user": user_id})
        return {row["resource"]: int(row["rating"]) for row in rows}

    async def change(self, key: Key, change: RatingChange, now: datetime, *, interaction_id: int,
                     log: NewEntry | None = None) -> RatingChange | None:
        """The rating from change.before to change.after (a set; a roll, with its log entry) once, in one trip: a
        repeat gets the first change back; None when the rating is no longer change.before (nothing changed)."""
        async def store(session: Session) -> RatingChange | None:
            if (outcome := await self._applied.recalled(session, interaction_id)) is not None:
                return RatingChange(**outcome)
            if not await session.fetch_all(_CHANGE, _params(key, change.before, change.after)):
                return None
            logged = await log_in(session, log, now, interaction_id=interaction_id) if log else None
            stored = replace(change, entry_id=logged)
            await self._applied.remember(session, interaction_id, asdict(stored))
            return stored

        return await self._db.in_one_trip(store)

    async def withdraw(self, key: Key, change: RatingChange, *, interaction_id: int) -> bool:
        """Take back a change never shown, its log entry and interaction too, unless the rating changed since."""
        async with self._db.transaction() as session:
            if not await session.fetch_all(_CHANGE, _params(key, change.after, change.before)):
                return False
            await self._applied.forget(session, interaction_id)
            if change.entry_id is not None:  # a roll's
                await unlog_in(session, change.entry_id)
        return True


def _params(key: Key, before: int, after: int) -> dict[str, object]:
    return {"guild": key[0], "user": key[1], "resource": key[2], "before": before, "after": after}
