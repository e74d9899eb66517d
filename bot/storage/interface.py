"""What the bot keeps, as the cogs and the bot see it: one interface, two stores (SQLite and PostgreSQL).

`Storage` is the open database (``bot.db``): ``.rolls``, ``.willpower``, ``.extended``, ``.meta``. SQLite's
`bot.storage.Database` and PostgreSQL's `bot.storage.postgres.PostgresDatabase` both satisfy it, with the same
guarantees, each kept in one atomic statement or transaction: a roll is pushed at most once, by its roller only,
whatever races; Willpower changes are atomic and stay within 0-10; a newer roll supersedes the player's older
ones in that channel; an extended test's progress counts each roll once. tests/storage/ holds the one contract
suite that both run.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.storage.leases import HeldLease
from bot.storage.log_records import LogEntry, NewEntry, RevealClaim
from bot.storage.roll_records import PushClaim, PushRefusal, YearZeroRoll
from bot.storage.shared.applied import Outcome
from bot.storage.shared.extended import ExtendedTask
from bot.storage.shared.willpower import WillpowerChange


class RollStore(Protocol):
    """Year Zero rolls a player may push or keep, and their push claims."""

    async def create(
        self, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime, pushes_allowed: int = 1
    ) -> int: ...

    async def create_for(
        self,
        interaction_id: int,
        guild_id: int,
        channel_id: int,
        user_id: int,
        payload: str,
        now: datetime,
        pushes_allowed: int = 1,
        *,
        log: NewEntry | None = None,
    ) -> YearZeroRoll: ...

    async def withdraw(self, roll_id: int) -> bool: ...

    async def supersede(
        self, guild_id: int, channel_id: int, user_id: int, *, interaction_id: int | None = None
    ) -> list[YearZeroRoll]: ...

    def note_message(self, roll_id: int, channel_id: int, message_id: int) -> None: ...

    async def flush_messages(self) -> int: ...

    async def get(self, roll_id: int) -> YearZeroRoll | None: ...

    async def refusal_for_missing(self, roll_id: int) -> PushRefusal: ...

    async def latest_pending(
        self, guild_id: int, channel_id: int, user_id: int, now: datetime, lifetime: timedelta
    ) -> YearZeroRoll | None: ...

    async def claim_push(
        self,
        roll_id: int,
        user_id: int,
        pushed_payload: str,
        willpower_gain: int,
        now: datetime,
        lifetime: timedelta,
        *,
        pushes_made: int = 0,
        last: bool = True,
        interaction_id: int | None = None,
    ) -> PushClaim: ...

    async def keep(self, roll_id: int, user_id: int, now: datetime, lifetime: timedelta) -> PushClaim: ...

    async def superseded_by(
        self, newer_id: int, guild_id: int, channel_id: int, user_id: int
    ) -> YearZeroRoll | None: ...

    async def expiring(self, now: datetime, lifetime: timedelta, limit: int) -> list[YearZeroRoll]: ...

    async def purge_expired(self, now: datetime, lifetime: timedelta, batch: int = ...) -> int: ...


class WillpowerStore(Protocol):
    """Willpower Points per player per server, 0 to 10."""

    async def get(self, guild_id: int, user_id: int) -> int: ...

    async def add(self, guild_id: int, user_id: int, points: int) -> WillpowerChange: ...

    async def spend(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange: ...

    async def set(
        self, guild_id: int, user_id: int, points: int, *, interaction_id: int | None = None
    ) -> WillpowerChange: ...

    async def withdraw_spend(self, guild_id: int, user_id: int, points: int, *, interaction_id: int) -> bool: ...

    async def withdraw_set(
        self, guild_id: int, user_id: int, change: WillpowerChange, *, interaction_id: int
    ) -> bool: ...


class ExtendedStore(Protocol):
    """Seven Kingdoms extended tests per channel."""

    async def start(
        self, guild_id: int, channel_id: int, name: str, needed: int, *, started_by: int | None = None
    ) -> ExtendedTask: ...

    async def add(self, guild_id: int, channel_id: int, name: str, degrees: int) -> ExtendedTask: ...

    async def record(
        self, guild_id: int, channel_id: int, name: str, needed: int, degrees: int, *, fresh: bool,
        started_by: int | None = None, interaction_id: int | None = None,
    ) -> ExtendedTask: ...

    async def withdraw(self, interaction_id: int) -> bool: ...

    async def get(self, guild_id: int, channel_id: int, name: str) -> ExtendedTask | None: ...

    async def in_channel(self, guild_id: int, channel_id: int) -> list[ExtendedTask]: ...

    async def clear(self, guild_id: int, channel_id: int, name: str) -> bool: ...


class MetaStore(Protocol):
    """Small facts the bot keeps about itself (key -> text)."""

    async def get(self, key: str) -> str | None: ...

    async def set(self, key: str, value: str) -> None: ...

    async def delete(self, key: str) -> bool: ...


class AppliedStore(Protocol):
    """The interactions whose change the store applied (written by the changes themselves)."""

    async def outcome(self, interaction_id: int) -> Outcome | None: ...

    async def latest_for(self, subject: str) -> Outcome | None: ...

    async def purge(self, before: datetime) -> int: ...


class LeaseStore(Protocol):
    """Leases on shards: one process serves a shard at a time."""

    async def take(
        self, shard_ids: Sequence[int], owner: str, now: datetime, ttl: timedelta, *, overrule: Collection[str] = ()
    ) -> list[HeldLease]: ...

    async def renew(self, shard_ids: Sequence[int], owner: str, now: datetime, ttl: timedelta) -> bool: ...

    async def release(self, shard_ids: Sequence[int], owner: str) -> None: ...


class LogStore(Protocol):
    """The roll log of every channel."""

    async def write(
        self, entry: NewEntry, now: datetime, *, entry_id: int | None = None, interaction_id: int | None = None
    ) -> int: ...

    async def record_push(
        self, entry_id: int, pushes: int, reading: str, events: str, extras: dict[str, Any],
        card: dict[str, Any] | None,
    ) -> bool: ...

    async def withdraw(self, entry_id: int) -> bool: ...

    async def get(self, entry_id: int) -> LogEntry | None: ...

    async def claim_reveal(self, entry_id: int, user_id: int, now: datetime) -> RevealClaim: ...

    async def page(
        self, guild_id: int, channel_id: int, viewer_id: int, *, before: int | None = None,
        after: int | None = None, limit: int = 10,
    ) -> list[LogEntry]: ...

    async def since(
        self, guild_id: int, channel_id: int, viewer_id: int, since: datetime, *, user_id: int | None = None
    ) -> list[LogEntry]: ...

    async def between(
        self, guild_id: int, channel_id: int, viewer_id: int, start: datetime, end: datetime
    ) -> list[LogEntry]: ...

    async def purge_older(self, now: datetime, keep: timedelta, batch: int = ...) -> int: ...


class Storage(Protocol):
    """The open database, whichever kind: what `bot.db` is."""

    @property
    def rolls(self) -> RollStore: ...

    @property
    def willpower(self) -> WillpowerStore: ...

    @property
    def extended(self) -> ExtendedStore: ...

    @property
    def meta(self) -> MetaStore: ...

    @property
    def applied(self) -> AppliedStore: ...

    @property
    def leases(self) -> LeaseStore: ...

    @property
    def log(self) -> LogStore: ...

    @property
    def location(self) -> str:
        """Where the data is, fit for a log line or an error message (never a password)."""
        ...

    async def schema_version(self) -> int: ...

    async def purge_expired(
        self, now: datetime, push_lifetime: timedelta, log_retention: timedelta | None = None
    ) -> int:
        """Delete what has outlived its use (the roll log's entries too, when log_retention is given), in small
        batches; return how many Year Zero rolls."""
        ...

    async def close(self) -> None: ...
