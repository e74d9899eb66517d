"""The open database, as both stores are: what it keeps, its purge and its closing. A driver's subclass opens
it, says where it is and what schema version it has, and may give freed space back after a purge."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any, Protocol, Self

from bot.storage.interface import LogStore
from bot.storage.shared.rolls import SharedRolls


class Closable(Protocol):
    @property
    def closed(self) -> bool: ...

    async def close(self) -> None: ...


class SharedDatabase(ABC):
    """The parts of an open database both drivers share; ``async with`` closes it."""

    store: Closable
    rolls: SharedRolls[Any]
    log: LogStore

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

    @abstractmethod
    async def _give_space_back(self) -> None:
        """After a purge, return the space it freed (where the database does not do so by itself)."""

    def _writable(self) -> bool:
        """Whether what is still noted can be written before closing."""
        return not self.store.closed

    async def close(self) -> None:
        """Write what is still noted, then close the store; harmless when already closed."""
        if self._writable():
            await self.rolls.flush_messages()
        await self.store.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()
