"""Which of Discord's shards this process runs: SHARD_COUNT, SHARD_IDS and SYNC_COMMANDS, read and checked.

Discord sends each server's events on one shard, ``shard_id = (server_id >> 22) % shard_count``. One process may
run every shard (the default: as many as Discord recommends), or a slice of them while other processes run the
rest; then every process must share one store, which a SQLite file on one machine cannot be.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

MAX_SHARD_COUNT = 65536
"""Far above what any bot needs (Discord asks for a shard per 2,500 servers); it keeps typos out."""

SYNC_WORDS = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}


class ShardSettingError(ValueError):
    """A shard setting is invalid; bot.settings turns it into its SettingsError (exit 2)."""


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """The shards this process runs, and whether it syncs the slash commands."""

    count: int | None = None
    """SHARD_COUNT; None: the count Discord recommends, asked at connection."""
    ids: tuple[int, ...] | None = None
    """SHARD_IDS, ascending; None: every shard of count."""
    sync_commands: bool | None = None
    """SYNC_COMMANDS as set; None: sync only in the process that runs shard 0."""

    @property
    def runs_shard_zero(self) -> bool:
        return self.ids is None or 0 in self.ids

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs the slash commands: one process is enough, and the one with shard 0 does."""
        return self.runs_shard_zero if self.sync_commands is None else self.sync_commands

    @property
    def is_slice(self) -> bool:
        """True when other processes must run the shards this one leaves out."""
        return self.ids is not None and self.count is not None and len(self.ids) < self.count

    @property
    def leased_shards(self) -> tuple[int, ...]:
        """The shards to lease in the store before connecting (see RollkeeperBot.served_shards)."""
        if self.ids is not None:
            return self.ids
        return tuple(range(self.count)) if self.count is not None else (0,)

    def client_options(self) -> dict[str, object]:
        """The shard_count and shard_ids options of discord.py's AutoShardedBot."""
        return {"shard_count": self.count, "shard_ids": None if self.ids is None else list(self.ids)}


def shard_plan(values: Mapping[str, str | None]) -> ShardPlan:
    """Read SHARD_COUNT, SHARD_IDS and SYNC_COMMANDS (empty text counts as unset)."""
    count = _shard_count(_text(values.get("SHARD_COUNT")))
    ids = _shard_ids(_text(values.get("SHARD_IDS")), count)
    return ShardPlan(count=count, ids=ids, sync_commands=_sync_commands(_text(values.get("SYNC_COMMANDS"))))


def refuse_shared_sqlite(plan: ShardPlan) -> None:
    """A slice of the shards means other processes, perhaps on other machines: SQLite cannot be shared so."""
    if plan.is_slice:
        ids = ",".join(str(shard) for shard in plan.ids or ())
        raise ShardSettingError(
            f"SHARD_IDS={ids} runs only some of the {plan.count} shards, so other processes run the rest and "
            "must share the bot's data; a SQLite file (DATABASE_PATH) cannot be shared between processes on "
            "different machines. Use PostgreSQL (DATABASE_URL=postgresql://user:password@host/database), or "
            "leave SHARD_IDS unset to run every shard in this process."
        )


def _text(value: str | None) -> str:
    return (value or "").strip()


def _whole(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() else None


def _shard_count(text: str) -> int | None:
    if not text:
        return None
    count = _whole(text)
    if count is None or not 1 <= count <= MAX_SHARD_COUNT:
        raise ShardSettingError(
            f"SHARD_COUNT must be a whole number of shards from 1 to {MAX_SHARD_COUNT} (e.g. 4), not {text[:40]!r}; "
            "leave it unset to use the count Discord recommends"
        )
    return count


def _shard_ids(text: str, count: int | None) -> tuple[int, ...] | None:
    if not text:
        return None
    if count is None:
        raise ShardSettingError(
            "SHARD_IDS needs SHARD_COUNT too: set SHARD_COUNT to the total number of shards across all "
            "processes (e.g. SHARD_COUNT=4 with SHARD_IDS=0-1 here and SHARD_IDS=2-3 in the other process)"
        )
    ids: list[int] = []
    for part in text.split(","):
        ids.extend(_shard_range(part.strip(), text, count))
    if len(set(ids)) != len(ids):
        raise ShardSettingError(f"SHARD_IDS names a shard twice: {text[:40]!r}")
    return tuple(sorted(ids))


def _shard_range(part: str, text: str, count: int) -> range:
    """One item of SHARD_IDS: a shard number ``2`` or an inclusive range ``0-3``, each below count."""
    first, dash, last = part.partition("-")
    low, high = _whole(first.strip()), _whole(last.strip()) if dash else _whole(first.strip())
    if low is None or high is None or not low <= high < count:
        raise ShardSettingError(
            f"SHARD_IDS must list shard numbers below SHARD_COUNT={count}, as ranges or one by one (e.g. 0-3 or "
            f"0,2), not {text[:40]!r}"
        )
    return range(low, high + 1)


def _sync_commands(text: str) -> bool | None:
    if not text:
        return None
    if text.lower() not in SYNC_WORDS:
        raise ShardSettingError(
            f"SYNC_COMMANDS must be true or false, not {text[:40]!r}; leave it unset to sync only in the process "
            "that runs shard 0"
        )
    return SYNC_WORDS[text.lower()]


def running_shards(shard_ids: Sequence[int], shard_count: int | None, servers_on: Iterable[int | None]) -> str:
    """The start-up line of a process: its shards, of how many, and how many servers each has (servers_on: the
    shard of each server), e.g. "Running shards 0, 1 of 4: shard 0 has 3 servers, shard 1 has 1 server"."""
    servers = Counter(servers_on)
    each = ", ".join(f"shard {shard} has {_servers(servers[shard])}" for shard in shard_ids)
    named = "shard" if len(shard_ids) == 1 else "shards"
    return f"Running {named} {', '.join(str(shard) for shard in shard_ids)} of {shard_count}: {each}"


def _servers(count: int) -> str:
    return f"{count} server" if count == 1 else f"{count} servers"
