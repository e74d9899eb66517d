"""What the tests ask of a store that the bot itself never asks: an extended test started or advanced on its own,
a roll stored for no interaction, Willpower added on its own, the roll a new one superseded, an applied
interaction's outcome, a meta key deleted, the schema's version, SQLite's trace of statements. Through the bot's
own calls where it has one (`extended.record`, `rolls.create_superseding`, `willpower.gain_in`), else one plain
statement on the store's driver."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.storage.database import Storage
from bot.storage.extended import ExtendedTask
from bot.storage.postgres import PostgresDatabase, applied_version
from bot.storage.roll_log import NewEntry
from bot.storage.roll_records import YearZeroRoll, roll_from
from bot.storage.rolls import YearZeroRolls
from bot.storage.sqlite import Database
from bot.storage.willpower import WillpowerChange


async def start_task(
    db: Storage, guild_id: int, channel_id: int, name: str, needed: int, *, started_by: int | None = None
) -> ExtendedTask:
    """Start (or start over) an extended test at progress 0: a fresh roll of no degrees."""
    return await db.extended.record(guild_id, channel_id, name, needed, 0, fresh=True, started_by=started_by)


async def add_degrees(db: Storage, guild_id: int, channel_id: int, name: str, degrees: int) -> ExtendedTask:
    """Count degrees on a started extended test (its `needed` is not read when the roll is not fresh)."""
    return await db.extended.record(guild_id, channel_id, name, 1, degrees, fresh=False)


async def create_for(
    db: Storage, interaction_id: int, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime,
    pushes_allowed: int = 1, *, log: NewEntry | None = None,
) -> YearZeroRoll:
    """A roll stored for an interaction (once), with its log entry: the bot's own call, its look back unread."""
    where = (guild_id, channel_id, user_id)
    stored, _ = await db.rolls.create_superseding(interaction_id, *where, payload, now, pushes_allowed, log=log)
    return stored


async def new_roll(
    db: Storage, guild_id: int, channel_id: int, user_id: int, payload: str, now: datetime, pushes_allowed: int = 1
) -> int:
    """A pending roll stored by the bot's own call for no interaction (nothing to recognise a repeat by); its id."""
    stored, _ = await db.rolls.create_superseding(None, guild_id, channel_id, user_id, payload, now, pushes_allowed)
    return stored.id


async def superseded_by(
    db: Storage, newer_id: int, guild_id: int, channel_id: int, user_id: int
) -> YearZeroRoll | None:
    """The player's roll here just before newer_id if newer_id superseded it pending: the statement the bot's
    `rolls.create_superseding` runs to find it, on its own."""
    params = {"guild": guild_id, "channel": channel_id, "user": user_id, "newer": newer_id}
    row = await db.store.fetch_one(YearZeroRolls._SUPERSEDED_BY, params)  # noqa: SLF001
    return db.rolls.messages.seen_in(roll_from(row)) if row else None


async def add_willpower(db: Storage, guild_id: int, user_id: int, points: int) -> WillpowerChange:
    """Add Willpower in a transaction of its own, as a push's claim adds it in its own (`willpower.gain_in`)."""
    async with db.store.transaction() as session:
        return await db.willpower.gain_in(session, guild_id, user_id, points)


async def outcome(db: Storage, interaction_id: int) -> dict[str, Any] | None:
    """What the store applied for the interaction, or None when it never did (or forgot it)."""
    recall = "SELECT outcome FROM applied_interactions WHERE interaction_id = :id"
    row = await db.store.fetch_one(recall, {"id": interaction_id})
    return None if row is None else json.loads(row["outcome"])


async def delete_meta(db: Storage, key: str) -> bool:
    """Forget a meta key; False when it was not there."""
    return bool(await db.store.write("DELETE FROM meta WHERE key = :key RETURNING key", {"key": key}))


async def schema_version(db: Storage) -> int:
    """The number of the last migration applied: SQLite's user_version, or PostgreSQL's schema_migrations."""
    if isinstance(db, PostgresDatabase):
        async with db.store.connection() as connection:
            return await applied_version(connection)
    return int((await db.store.fetch_one("PRAGMA user_version"))[0])


async def trace(db: Database, callback: Callable[[str], object]) -> None:
    """Have SQLite call callback with each statement the database's connection runs from now on."""
    async with db.store.alone() as session:
        await session.connection.set_trace_callback(callback)
