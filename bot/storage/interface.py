"""What the bot keeps, as the cogs and the bot see it: one interface, two stores (SQLite and PostgreSQL).

`Storage` is the open database (``bot.db``): ``.rolls``, ``.willpower``, ``.extended``, ``.meta``. SQLite's
`bot.storage.Database` and PostgreSQL's `bot.storage.postgres.PostgresDatabase` both satisfy it, with the same
guarantees, each kept in one atomic statement or transaction: a roll is pushed at most once, by its roller only,
whatever races; Willpower changes are atomic and stay within 0-10; a newer roll supersedes the player's older
ones in that channel; an extended test's progress counts each roll once. tests/storage/ holds the one contract
suite that both run.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from bot.storage.extended import ExtendedTask
from bot.storage.rolls import PushClaim, PushRefusal, YearZeroRoll
from bot.storage.willpower import WillpowerChange


class RollStore(Protocol):
    """Year Zero rolls a player may push or keep, and their push claims."""

    async def create(
        self, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime, pushes_allowed: int = 1
    ) -> int: ...

    async def supersede(self, guild_id: int, channel_id: int, user_id: int) -> list[YearZeroRoll]: ...

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

    async def spend(self, guild_id: int, user_id: int, points: int) -> WillpowerChange: ...

    async def set(self, guild_id: int, user_id: int, points: int) -> WillpowerChange: ...


class ExtendedStore(Protocol):
    """Seven Kingdoms extended tests per channel."""

    async def start(
        self, guild_id: int, channel_id: int, name: str, needed: int, *, started_by: int | None = None
    ) -> ExtendedTask: ...

    async def add(self, guild_id: int, channel_id: int, name: str, degrees: int) -> ExtendedTask: ...

    async def record(
        self,
        guild_id: int,
        channel_id: int,
        name: str,
        needed: int,
        degrees: int,
        *,
        fresh: bool,
        started_by: int | None = None,
    ) -> ExtendedTask: ...

    async def get(self, guild_id: int, channel_id: int, name: str) -> ExtendedTask | None: ...

    async def in_channel(self, guild_id: int, channel_id: int) -> list[ExtendedTask]: ...

    async def clear(self, guild_id: int, channel_id: int, name: str) -> bool: ...


class MetaStore(Protocol):
    """Small facts the bot keeps about itself (key -> text)."""

    async def get(self, key: str) -> str | None: ...

    async def set(self, key: str, value: str) -> None: ...

    async def delete(self, key: str) -> bool: ...


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
    def location(self) -> str:
        """Where the data is, fit for a log line or an error message (never a password)."""
        ...

    async def schema_version(self) -> int: ...

    async def purge_expired(self, now: datetime, push_lifetime: timedelta) -> int:
        """Delete what has outlived its use, in small batches; return how many rows."""
        ...

    async def close(self) -> None: ...
