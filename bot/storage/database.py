"""The open database, whichever kind (`sqlite.Database`, `postgres.PostgresDatabase`): what it keeps, one class
per thing on the driver's statements and its dialect; its purge and its closing."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime, timedelta
from types import TracebackType
from typing import Self

from bot.storage.applied import AppliedIn, AppliedInteractions
from bot.storage.dialects import Dialect
from bot.storage.driver import Statements
from bot.storage.extended import ExtendedTests
from bot.storage.languages import ServerLanguages
from bot.storage.leases import ShardLeases
from bot.storage.meta import Meta
from bot.storage.roll_log import RollLog
from bot.storage.rolls import YearZeroRolls
from bot.storage.willpower import Willpower


class Storage(ABC):
    """What `bot.db` is: ``.rolls``, ``.willpower``, ``.extended``, ``.meta``, ``.applied`` (interactions applied,
    for answering repeats), ``.leases`` (shards served), ``.log`` (the roll log) and ``.languages`` (servers' chosen
    languages); ``async with`` closes it.

    Both kinds keep the same guarantees (tests/storage/ runs one contract suite on both)."""

    def __init__(self, statements: Statements, dialect: Dialect) -> None:
        self._statements = statements
        applied = AppliedIn(dialect.before_recall)
        self.rolls = YearZeroRolls(statements, dialect, applied)
        self.willpower = Willpower(statements, dialect, applied)
        self.extended = ExtendedTests(statements, dialect, applied)
        self.meta = Meta(statements)
        self.applied = AppliedInteractions(statements)
        self.leases = ShardLeases(statements, dialect.lease_turn)
        self.log = RollLog(statements, dialect)
        self.languages = ServerLanguages(statements)

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the data is, fit for a log line or an error message (never a password)."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    async def purge_expired(
        self, now: datetime, push_lifetime: timedelta, log_retention: timedelta | None = None
    ) -> int:
        """Delete what has outlived its use (Year Zero rolls past their lifetime, and roll log entries past
        log_retention when given) in small batches, then give the freed space back; return how many Year Zero
        rolls were deleted."""
        purged = await self.rolls.purge_expired(now, push_lifetime)
        if log_retention is not None:
            await self.log.purge_older(now, log_retention)
        await self._give_space_back()
        return purged

    async def _give_space_back(self) -> None:
        """After a purge, return the space it freed (PostgreSQL's autovacuum does so by itself)."""
        return None

    def _writable(self) -> bool:
        """Whether what is still noted can be written before closing."""
        return not self._statements.closed

    async def close(self) -> None:
        """Write what is still noted, then close; harmless when already closed."""
        if self._writable():
            await self.rolls.flush_messages()
        await self._statements.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()
