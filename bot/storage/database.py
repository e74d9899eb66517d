"""The open database, whichever kind (`sqlite.Database`, `postgres.PostgresDatabase`): one class per thing kept."""

from __future__ import annotations

from typing import ClassVar, Generic, Self, TypeVar

from bot.storage.applied import AppliedInteractions
from bot.storage.dialects import Dialect
from bot.storage.driver import Statements
from bot.storage.extended import ExtendedTests
from bot.storage.leases import ShardLeases
from bot.storage.meta import KeyedText, RememberedText
from bot.storage.resources import ResourceRatings
from bot.storage.roll_log import RollLog
from bot.storage.rolls import YearZeroRolls
from bot.storage.willpower import Willpower

StoreT = TypeVar("StoreT", bound=Statements)


class Storage(Generic[StoreT]):
    """What `bot.db` is: one attribute per thing kept, on its driver and dialect; ``async with`` closes it."""

    dialect: ClassVar[Dialect]

    def __init__(self, store: StoreT) -> None:
        self.store = store
        self.applied = applied = AppliedInteractions(store, self.dialect.before_recall)
        self.willpower = Willpower(store, self.dialect, applied)
        self.resources = ResourceRatings(store, applied)
        self.rolls = YearZeroRolls(store, self.dialect, applied, self.willpower)
        self.extended = ExtendedTests(store, self.dialect, applied)
        self.meta = KeyedText(store, "meta", "key", "value")
        self.leases = ShardLeases(store, self.dialect.lease_turn)
        self.log = RollLog(store, self.dialect.log_push)
        self.languages = RememberedText(store, "server_languages", "guild_id", "language")

    async def close(self) -> None:
        """Write what is still noted (unless closed or lost already), then close; harmless when already closed."""
        if not self.store.closed:
            await self.rolls.messages.flush()
        await self.store.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exception: object) -> None:
        await self.close()
