"""Storage for the bot: one interface (`Storage`), kept in SQLite through one aiosqlite connection, or in
PostgreSQL through an asyncpg pool (`bot.storage.postgres`) when DATABASE_URL is set. What the two share is
written once in `bot.storage.shared` (and in the classes whose statements are the same on both: meta, leases).

Usage::

    db = await open_storage(settings)        # or Database.open(path), PostgresDatabase.open(url)
    roll_id = await db.rolls.create(guild_id, channel_id, user_id, payload_json, now)
    claim = await db.rolls.claim_push(roll_id, user_id, pushed_json, willpower_gain, now, lifetime)
    change = await db.willpower.spend(guild_id, user_id, 2, interaction_id=interaction.id)  # applied once
    await db.close()

No SQL lives outside this package.
"""

from bot.storage.applied import AlreadyApplied, AppliedInteractions
from bot.storage.database import Database
from bot.storage.errors import (
    InvalidValue,
    NoSuchExtendedTest,
    NotEnoughWillpower,
    StorageBusy,
    StorageError,
    StorageOffline,
    StorageUnavailable,
    TaskComplete,
)
from bot.storage.extended import ExtendedTask, ExtendedTests
from bot.storage.files import check_database_path, probe_database
from bot.storage.interface import ExtendedStore, MetaStore, RollStore, Storage, WillpowerStore
from bot.storage.leases import HeldLease, ShardLeases
from bot.storage.meta import Meta
from bot.storage.migrations import Migration, load_migrations
from bot.storage.opening import open_storage, postgres_health, probe_postgres
from bot.storage.roll_log import LogEntry, NewEntry, RevealRefusal, RollLog
from bot.storage.rolls import PushClaim, PushRefusal, RollState, YearZeroRoll, YearZeroRolls, refusal_of
from bot.storage.store import DEFAULT_BUSY_TIMEOUT_MS
from bot.storage.willpower import MAX_WILLPOWER, Willpower, WillpowerChange

__all__ = [
    "AlreadyApplied",
    "AppliedInteractions",
    "HeldLease",
    "ShardLeases",
    "DEFAULT_BUSY_TIMEOUT_MS",
    "MAX_WILLPOWER",
    "Database",
    "ExtendedStore",
    "ExtendedTask",
    "ExtendedTests",
    "InvalidValue",
    "LogEntry",
    "Meta",
    "MetaStore",
    "Migration",
    "NewEntry",
    "NoSuchExtendedTest",
    "TaskComplete",
    "NotEnoughWillpower",
    "PushClaim",
    "PushRefusal",
    "RevealRefusal",
    "RollLog",
    "RollState",
    "RollStore",
    "StorageBusy",
    "Storage",
    "StorageError",
    "StorageOffline",
    "StorageUnavailable",
    "Willpower",
    "WillpowerChange",
    "WillpowerStore",
    "YearZeroRoll",
    "YearZeroRolls",
    "check_database_path",
    "load_migrations",
    "open_storage",
    "postgres_health",
    "probe_database",
    "probe_postgres",
    "refusal_of",
]
