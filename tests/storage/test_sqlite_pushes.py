"""Several pushes per roll, Keep, and the rolls whose messages need their buttons taken off, in real SQLite files."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.opening import open_sqlite
from bot.storage.roll_records import PushRefusal, RollState
from bot.storage.schema import load_migrations
from bot.storage.sqlite import Database
from tests.storage.reading import new_roll, superseded_by

G, C, U, OTHER = 1111, 2222, 3333, 4444
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
LIFETIME = timedelta(hours=24)
FIRST = json.dumps({"dice": [2, 3]})


@pytest.fixture
async def db(tmp_path: Path):
    async with await open_sqlite(tmp_path / "db.sqlite3", busy_timeout_ms=200) as database:
        yield database


async def push(db: Database, roll_id: int, made: int, *, last: bool = False, gain: int = 1, user: int = U):
    payload = json.dumps({"push": made + 1})
    return await db.rolls.claim_push(roll_id, user, payload, gain, NOW, LIFETIME, pushes_made=made, last=last)


async def test_each_push_is_claimed_once_in_order_and_the_last_ends_the_roll(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW, pushes_allowed=3)
    first = await push(db, roll_id, 0)
    assert first.refusal is None and (first.roll.state, first.roll.pushes_made) == (RollState.PENDING, 1)
    assert (await push(db, roll_id, 0)).refusal is PushRefusal.PUSHED_MEANWHILE  # push 1 again: no
    assert (await push(db, roll_id, 2)).refusal is PushRefusal.PUSHED_MEANWHILE  # skipping push 2: no
    assert (await push(db, roll_id, 1)).refusal is None
    third = await push(db, roll_id, 2, last=True)
    assert third.refusal is None and (third.roll.state, third.roll.pushes_made) == (RollState.PUSHED, 3)
    assert json.loads(third.roll.pushed_payload) == {"push": 3}
    assert (await push(db, roll_id, 3)).refusal is PushRefusal.NO_PUSHES_LEFT
    assert await db.willpower.get(G, U) == 3


async def test_a_push_past_the_allowed_number_is_refused_by_the_database_itself(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW, pushes_allowed=1)
    assert (await push(db, roll_id, 0, last=False)).refusal is None  # a caller that forgot to say "last"
    refused = await push(db, roll_id, 1)
    assert refused.refusal is not None and (await db.rolls.get(roll_id)).pushes_made == 1


async def test_fifty_racing_claims_of_the_second_push_give_exactly_one(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW, pushes_allowed=2)
    assert (await push(db, roll_id, 0)).refusal is None
    results = await asyncio.gather(*(push(db, roll_id, 1, last=True, gain=2) for _ in range(50)))
    assert sum(result.refusal is None for result in results) == 1
    assert {result.refusal for result in results if result.refusal is not None} == {PushRefusal.NO_PUSHES_LEFT}
    assert await db.willpower.get(G, U) == 3


async def test_keep_ends_the_roll_only_for_its_roller(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW, pushes_allowed=2)
    assert (await db.rolls.keep(roll_id, OTHER, NOW, LIFETIME)).refusal is PushRefusal.NOT_YOURS
    kept = await db.rolls.keep(roll_id, U, NOW, LIFETIME)
    assert kept.refusal is None and kept.roll.state is RollState.KEPT and kept.willpower is None
    assert (await push(db, roll_id, 0)).refusal is PushRefusal.KEPT
    assert (await db.rolls.keep(roll_id, U, NOW, LIFETIME)).refusal is PushRefusal.KEPT
    assert await db.rolls.latest_pending(G, C, U, NOW, LIFETIME) is None


async def test_keep_racing_a_push_lets_one_win(db: Database):
    for n in range(10):
        roll_id = await new_roll(db, G, C + n, U, FIRST, NOW)
        pushed, kept = await asyncio.gather(push(db, roll_id, 0, last=True), db.rolls.keep(roll_id, U, NOW, LIFETIME))
        assert (pushed.refusal is None) != (kept.refusal is None)
        assert (await db.rolls.get(roll_id)).state is (RollState.PUSHED if pushed.refusal is None else RollState.KEPT)


async def test_keep_refuses_expired_superseded_and_unknown_rolls(db: Database):
    old = await new_roll(db, G, C, U, FIRST, NOW - LIFETIME - timedelta(seconds=1))
    superseded = await new_roll(db, G, C + 1, U, FIRST, NOW)
    await new_roll(db, G, C + 1, U, FIRST, NOW)
    refusals = [(await db.rolls.keep(i, U, NOW, LIFETIME)).refusal for i in (old, superseded, 999, 2**70)]
    assert refusals == [PushRefusal.EXPIRED, PushRefusal.SUPERSEDED, PushRefusal.UNKNOWN, PushRefusal.UNKNOWN]


async def test_superseded_by_names_the_roll_a_new_one_replaced_once(db: Database):
    older = await new_roll(db, G, C, U, FIRST, NOW)
    db.rolls.messages.note(older, C, 555)
    assert await superseded_by(db, older, G, C, U) is None
    newer = await new_roll(db, G, C, U, FIRST, NOW)
    replaced = await superseded_by(db, newer, G, C, U)
    assert (replaced.id, replaced.message_id) == (older, 555)
    assert await superseded_by(db, newer, G, C, OTHER) is None
    assert (await push(db, newer, 0, last=True)).refusal is None
    newest = await new_roll(db, G, C, U, FIRST, NOW)
    assert await superseded_by(db, newest, G, C, U) is None  # newer ended pushed; older was edited already


async def test_expiring_lists_pushable_rolls_with_a_message_past_their_lifetime(db: Database):
    ids = [await new_roll(db, G, C + n, U, FIRST, NOW - LIFETIME - timedelta(minutes=5)) for n in range(4)]
    fresh = await new_roll(db, G, C + 9, U, FIRST, NOW)
    for roll_id in (*ids, fresh):
        db.rolls.messages.note(roll_id, (await db.rolls.get(roll_id)).channel_id, 1000 + roll_id)
    await db.rolls.messages.flush()
    await db.rolls.keep(ids[0], U, NOW - LIFETIME - timedelta(minutes=4), LIFETIME)
    listed = await db.rolls.expiring(NOW, LIFETIME, limit=2)
    assert [roll.id for roll in listed] == ids[1:3] and listed[0].message_id == 1000 + ids[1]
    assert await db.store.purge("yz_rolls", NOW - LIFETIME) == 4
    assert await db.rolls.expiring(NOW, LIFETIME, limit=2) == []


async def test_rolls_stored_before_several_pushes_allow_one_and_keep_their_ids(tmp_path: Path):
    path = tmp_path / "old.sqlite3"
    migrations = load_migrations()
    several = next(m.version for m in migrations if "several_pushes" in m.name)
    before = [m for m in migrations if m.version < several]
    async with await open_sqlite(path, migrations=before):
        pass
    with sqlite3.connect(path) as connection:
        insert = "INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at) VALUES (?, ?, ?, ?, ?)"
        for n in range(3):
            connection.execute(insert, (G, C + n, U, FIRST, NOW.timestamp()))
        connection.execute("UPDATE yz_rolls SET state = 'pushed', pushed_payload = '{}', pushed_at = 1 WHERE id = 1")
        connection.execute("DELETE FROM yz_rolls WHERE id = 3")  # purged: its id must never come back
    async with await open_sqlite(path) as db:
        pushed, pending = await db.rolls.get(1), await db.rolls.get(2)
        assert (pushed.state, pushed.pushes_allowed, pushed.pushes_made) == (RollState.PUSHED, 1, 1)
        assert (pending.state, pending.pushes_allowed, pending.pushes_made) == (RollState.PENDING, 1, 0)
        assert await new_roll(db, G, C, OTHER, FIRST, NOW) == 4
        assert (await db.rolls.claim_push(3, U, "{}", 0, NOW, LIFETIME)).refusal is PushRefusal.EXPIRED
