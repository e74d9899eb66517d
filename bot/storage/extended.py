"""Seven Kingdoms extended tests: a named task per channel, needing degrees of success, and its progress."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import aiosqlite

from bot.storage.applied import AlreadyApplied, forget_in, recalled_in, remember_in
from bot.storage.errors import InvalidValue, NoSuchExtendedTest, TaskComplete
from bot.storage.store import Store
from rules.sevenkingdoms_extended import MAX_TASK_NAME, is_complete, still_needed

_START = """
INSERT INTO extended_tests (guild_id, channel_id, name, needed, progress, started_by)
VALUES (:guild, :channel, :name, :needed, 0, :starter)
ON CONFLICT (guild_id, channel_id, name)
DO UPDATE SET name = excluded.name, needed = excluded.needed, progress = 0,
    started_by = coalesce(extended_tests.started_by, excluded.started_by)
RETURNING *
"""

_ADD = """
UPDATE extended_tests SET progress = progress + :degrees
WHERE guild_id = :guild AND channel_id = :channel AND name = :name
RETURNING *
"""

# A roll counts only while the task is unfinished: two rolls racing for the last degrees cannot both count.
_ADD_UNFINISHED = _ADD.replace("RETURNING", "AND progress < needed\nRETURNING")

_WHERE = "WHERE guild_id = :guild AND channel_id = :channel AND name = :name"

# A roll withdrawn that started or restarted its task puts it back only while it is as that roll left it.
_AS_LEFT = f"{_WHERE} AND needed = :needed AND progress = :progress"

# A roll withdrawn that counted toward a task takes its degrees back, whatever counted since (two lost rolls
# each take back their own), unless a later roll finished the task on top of them (that was shown complete).
_TAKE_BACK = f"""
UPDATE extended_tests SET progress = progress - :added
{_WHERE} AND needed = :needed AND progress >= :added AND (progress < needed OR progress = :progress)
RETURNING name
"""


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

    @property
    def remaining(self) -> int:
        return still_needed(self.needed, self.progress)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self) | {"complete": self.complete, "remaining": self.remaining}


def task_name(name: str) -> str:
    """The name as stored: spaces tidied, 1 to 100 characters (names match whatever their case)."""
    tidy = " ".join(str(name).split())
    if not tidy:
        raise InvalidValue("An extended test needs a name.")
    if len(tidy) > MAX_TASK_NAME:
        raise InvalidValue(f"An extended test's name can be at most {MAX_TASK_NAME} characters.")
    return tidy


def _check_count(name: str, value: int, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or value >= 2**31:
        raise InvalidValue(f"{name} must be a whole number of at least {low}, not {value!r}")


def _task(row: aiosqlite.Row) -> ExtendedTask:
    return ExtendedTask(
        row["guild_id"], row["channel_id"], row["name"], row["needed"], row["progress"], row["started_by"]
    )


def recorded(
    task: ExtendedTask, added: int, before: Mapping[str, Any] | aiosqlite.Row | None, *, fresh: bool
) -> dict[str, Any]:
    """What an extended roll applied, as its interaction's outcome, for a withdrawal: the task as the roll left
    it, the degrees added, whether it (re)started the task, and the task's needed and progress as the roll found
    it (None: the roll started it)."""
    found = {"needed": before["needed"], "progress": before["progress"]} if before is not None else None
    return {"task": asdict(task), "added": added, "fresh": fresh, "before": found}


def _putting_back(outcome: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The statement that withdraws the outcome's roll: its degrees taken back, or the task it (re)started put
    back as the roll found it (deleted if the roll started it) while it is as the roll left it."""
    left, before = outcome["task"], outcome["before"]
    params = {"guild": left["guild_id"], "channel": left["channel_id"], "name": left["name"],
              "needed": left["needed"], "progress": left["progress"]}
    if not outcome["fresh"]:
        return _TAKE_BACK, params | {"added": outcome["added"]}
    if before is None:
        return f"DELETE FROM extended_tests {_AS_LEFT} RETURNING name", params
    restore = "UPDATE extended_tests SET needed = :was_needed, progress = :was_progress"
    was = {"was_needed": before["needed"], "was_progress": before["progress"]}
    return f"{restore} {_AS_LEFT} RETURNING name", params | was


class ExtendedTests:
    """Extended tests kept per (guild_id, channel_id, name)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def start(
        self, guild_id: int, channel_id: int, name: str, needed: int, *, started_by: int | None = None
    ) -> ExtendedTask:
        """Start the task at progress 0; a task of the same name in the channel starts over."""
        _check_count("Degrees needed", needed, low=1)
        params = {
            "guild": guild_id, "channel": channel_id, "name": task_name(name), "needed": needed, "starter": started_by
        }
        rows = await self._store.write(_START, params)
        return _task(rows[0])

    async def add(self, guild_id: int, channel_id: int, name: str, degrees: int) -> ExtendedTask:
        """Add degrees (0 or more) to the progress in one statement; NoSuchExtendedTest if not started."""
        _check_count("Degrees", degrees, low=0)
        tidy = task_name(name)
        params = {"guild": guild_id, "channel": channel_id, "name": tidy, "degrees": degrees}
        rows = await self._store.write(_ADD, params)
        if not rows:
            raise NoSuchExtendedTest(tidy)
        return _task(rows[0])

    async def record(
        self, guild_id: int, channel_id: int, name: str, needed: int, degrees: int, *, fresh: bool,
        started_by: int | None = None, interaction_id: int | None = None,
    ) -> ExtendedTask:
        """Count one roll's degrees in one transaction: (re)start the task first when fresh; return the task as
        stored. A repeat of interaction_id counts nothing: AlreadyApplied, with the first one's task and degrees.

        An unfinished task only: NoSuchExtendedTest if it is missing, TaskComplete if it finished meanwhile.
        """
        _check_count("Degrees needed", needed, low=1)
        _check_count("Degrees", degrees, low=0)
        tidy = task_name(name)
        params = {"guild": guild_id, "channel": channel_id, "name": tidy, "needed": needed, "starter": started_by}
        async with self._store.transaction() as transaction:
            if (outcome := await recalled_in(transaction, interaction_id)) is not None:
                raise AlreadyApplied(outcome)
            before = await transaction.fetch_one(f"SELECT needed, progress FROM extended_tests {_WHERE}", params)
            if fresh:
                await transaction.fetch_one(_START, params)
            row = await transaction.fetch_one(_ADD_UNFINISHED, params | {"degrees": degrees})
            if row is None:
                raise TaskComplete(tidy) if before else NoSuchExtendedTest(tidy)
            task = _task(row)
            await remember_in(transaction, interaction_id, recorded(task, degrees, before, fresh=fresh))
        return task

    async def withdraw(self, interaction_id: int) -> bool:
        """Take back the roll counted by interaction_id, whose answer never reached the player, and forget the
        interaction: its degrees come off the task again, or the task it started or restarted is put back as the
        roll found it. False when it stays: a later roll finished the task on top of it, or built on the
        (re)started task."""
        async with self._store.transaction() as transaction:
            outcome = await recalled_in(transaction, interaction_id)
            if outcome is None or "fresh" not in outcome:  # not applied (or by a version before withdrawals)
                return False
            if not await transaction.fetch_all(*_putting_back(outcome)):
                return False
            await forget_in(transaction, interaction_id)
        return True

    async def get(self, guild_id: int, channel_id: int, name: str) -> ExtendedTask | None:
        """The task, or None if it was never started here (or was cleared)."""
        params = {"guild": guild_id, "channel": channel_id, "name": task_name(name)}
        row = await self._store.fetch_one(f"SELECT * FROM extended_tests {_WHERE}", params)
        return _task(row) if row else None

    async def in_channel(self, guild_id: int, channel_id: int) -> list[ExtendedTask]:
        """Every task of the channel, by name."""
        sql = "SELECT * FROM extended_tests WHERE guild_id = ? AND channel_id = ? ORDER BY name"
        return [_task(row) for row in await self._store.fetch_all(sql, (guild_id, channel_id))]

    async def clear(self, guild_id: int, channel_id: int, name: str) -> bool:
        """Forget the task; False if there was none."""
        params = {"guild": guild_id, "channel": channel_id, "name": task_name(name)}
        return bool(await self._store.write(f"DELETE FROM extended_tests {_WHERE} RETURNING name", params))
