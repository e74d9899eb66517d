"""Seven Kingdoms extended tests: a named task per channel, its degrees needed and its progress (docs/)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bot.storage.applied import AlreadyApplied, AppliedInteractions, Outcome
from bot.storage.dialects import Dialect
from bot.storage.driver import Row, Statements, from_row
from bot.storage.errors import InvalidValue, NoSuchExtendedTest, TaskComplete, check_whole
from rules.sevenkingdoms.extended import MAX_TASK_NAME, is_complete

LARGEST_COUNT = 2**31 - 1  # the largest a count column holds (INTEGER)
_COLUMNS = "guild_id, channel_id, name, needed, progress, started_by"


@dataclass(frozen=True, slots=True)
class ExtendedTask:
    """A named task and how far the players have got."""

    guild_id: int
    channel_id: int
    name: str
    needed: int
    progress: int
    started_by: int | None = None
    """The player who first started it (a restart keeps them); None for tasks older than migration V4."""

    @property
    def complete(self) -> bool:
        return is_complete(self.needed, self.progress)


def task_name(name: str) -> str:
    """The name as stored: spaces tidied, 1 to 100 characters (names match whatever their case)."""
    tidy = " ".join(str(name).split())
    if not tidy:
        raise InvalidValue("An extended test needs a name.")
    if len(tidy) > MAX_TASK_NAME:
        raise InvalidValue("An extended test's name can be at most {high} characters.", high=MAX_TASK_NAME)
    return tidy


def recorded(task: ExtendedTask, added: int, before: Row | None, *, fresh: bool) -> Outcome:
    """What an extended roll applied, kept for its withdrawal: the task as the roll left it, the degrees added,
    whether it (re)started the task, and its needed and progress as the roll found it (None: the roll started it)."""
    found = {"needed": before["needed"], "progress": before["progress"]} if before is not None else None
    return {"task": asdict(task), "added": added, "fresh": fresh, "before": found}


class ExtendedTests:
    """Extended tests kept per (guild_id, channel_id, name)."""

    def __init__(self, statements: Statements, dialect: Dialect, applied: AppliedInteractions) -> None:
        self._db = statements
        self._applied = applied
        # The statements, from how the dialect finds a task by name whatever its case.
        self._where = where = f"WHERE guild_id = :guild AND channel_id = :channel AND {dialect.task_named}"
        self._in_channel = f"""
SELECT {_COLUMNS} FROM extended_tests WHERE guild_id = :guild AND channel_id = :channel ORDER BY {dialect.task_order}
"""
        # Start at progress 0, or start over; a restart keeps who first started the task.
        self._start = f"""
INSERT INTO extended_tests (guild_id, channel_id, name, needed, progress, started_by)
VALUES (:guild, :channel, :name, :needed, 0, :starter)
ON CONFLICT (guild_id, channel_id, {dialect.task_key}) DO UPDATE SET name = excluded.name, needed = excluded.needed,
    progress = 0, started_by = coalesce(extended_tests.started_by, excluded.started_by)
RETURNING {_COLUMNS}
"""
        # Only to a task not complete: two rolls racing for the last degrees cannot both count.
        self._add = f"""
UPDATE extended_tests SET progress = progress + :degrees {where} AND progress < needed RETURNING {_COLUMNS}
"""
        # A roll withdrawn takes its degrees back, whatever counted since (two lost rolls each take back their own),
        # unless a later roll finished the task on top of it (shown complete).
        self._take_back = f"""
UPDATE extended_tests SET progress = progress - :added
{where} AND needed = :needed AND progress >= :added AND (progress < needed OR progress = :progress)
RETURNING name
"""
        # A roll withdrawn that (re)started its task puts it back only while it is as that roll left it.
        self._as_left = f"{where} AND needed = :needed AND progress = :progress"

    async def record(
        self, guild_id: int, channel_id: int, name: str, needed: int, degrees: int, *, fresh: bool,
        started_by: int | None = None, interaction_id: int | None = None,
    ) -> ExtendedTask:
        """Count one roll's degrees in one transaction, (re)starting the task first when fresh; return the task.
        NoSuchExtendedTest if it is missing, TaskComplete if it finished meanwhile; AlreadyApplied for a repeat."""
        check_whole("Degrees needed", needed, low=1, high=LARGEST_COUNT)
        check_whole("Degrees", degrees, low=0, high=LARGEST_COUNT)
        tidy = task_name(name)
        params = {"guild": guild_id, "channel": channel_id, "name": tidy, "needed": needed, "starter": started_by}
        async with self._db.transaction() as session:
            if (outcome := await self._applied.recalled(session, interaction_id)) is not None:
                raise AlreadyApplied(outcome)
            before = await session.fetch_one(f"SELECT needed, progress FROM extended_tests {self._where}", params)
            if fresh:
                await session.fetch_all(self._start, params)
            row = await session.fetch_one(self._add, params | {"degrees": degrees})
            if row is None:
                raise TaskComplete(tidy) if before else NoSuchExtendedTest(tidy)
            task = from_row(ExtendedTask, row)
            await self._applied.remember(session, interaction_id, recorded(task, degrees, before, fresh=fresh))
        return task

    async def withdraw(self, interaction_id: int) -> bool:
        """Take back the roll interaction_id counted, never shown, and forget it; False if a later roll built on it."""
        async with self._db.transaction() as session:
            outcome = await self._applied.recalled(session, interaction_id)
            if outcome is None or "fresh" not in outcome:  # not applied (or by a version before withdrawals)
                return False
            if not await session.fetch_all(*self._putting_back(outcome)):
                return False
            await self._applied.forget(session, interaction_id)
        return True

    async def get(self, guild_id: int, channel_id: int, name: str) -> ExtendedTask | None:
        """The task, or None if it was never started here (or was cleared)."""
        params = {"guild": guild_id, "channel": channel_id, "name": task_name(name)}
        row = await self._db.fetch_one(f"SELECT {_COLUMNS} FROM extended_tests {self._where}", params)
        return from_row(ExtendedTask, row) if row else None

    async def in_channel(self, guild_id: int, channel_id: int) -> list[ExtendedTask]:
        """Every task of the channel, by name (whatever its case)."""
        rows = await self._db.fetch_all(self._in_channel, {"guild": guild_id, "channel": channel_id})
        return [from_row(ExtendedTask, row) for row in rows]

    async def clear(self, guild_id: int, channel_id: int, name: str) -> bool:
        """Forget the task; False if there was none."""
        params = {"guild": guild_id, "channel": channel_id, "name": task_name(name)}
        return bool(await self._db.write(f"DELETE FROM extended_tests {self._where} RETURNING name", params))

    def _putting_back(self, outcome: Outcome) -> tuple[str, dict[str, Any]]:
        """The statement that withdraws the outcome's roll, while the task is as the roll left it."""
        left, before = outcome["task"], outcome["before"]
        params = {"guild": left["guild_id"], "channel": left["channel_id"], "name": left["name"],
                  "needed": left["needed"], "progress": left["progress"]}
        if not outcome["fresh"]:
            return self._take_back, params | {"added": outcome["added"]}
        if before is None:
            return f"DELETE FROM extended_tests {self._as_left} RETURNING name", params
        restore = "UPDATE extended_tests SET needed = :was_needed, progress = :was_progress"
        was = {"was_needed": before["needed"], "was_progress": before["progress"]}
        return f"{restore} {self._as_left} RETURNING name", params | was
