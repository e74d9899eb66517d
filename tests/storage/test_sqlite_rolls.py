"""Year Zero rolls in real SQLite files: superseding, the push claimed exactly once, refusals, purge."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.opening import open_sqlite
from bot.storage.errors import InvalidValue, StorageBusy
from bot.storage.roll_messages import MESSAGE_FLUSH_DELAY
from bot.storage.roll_records import PushRefusal, RollState
from bot.storage.schema import load_migrations
from bot.storage.sqlite import Database
from cogs.yearzero.endings import REFUSED
from tests.storage.reading import add_willpower, new_roll, schema_version

G, C, U, OTHER = 1111, 2222, 3333, 4444
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
LIFETIME = timedelta(hours=24)
FIRST = json.dumps({"dice": [6, 1, 3]})
PUSHED = json.dumps({"dice": [6, 1, 5]})


@pytest.fixture
async def db(tmp_path: Path):
    async with await open_sqlite(tmp_path / "db.sqlite3", busy_timeout_ms=200) as database:
        yield database


async def claim(db: Database, roll_id: int, user_id: int = U, gain: int = 1, now: datetime = NOW):
    return await db.rolls.claim_push(roll_id, user_id, PUSHED, gain, now, LIFETIME)


async def states(db: Database) -> dict[int, str]:
    return {row["id"]: row["state"] for row in await db.store.fetch_all("SELECT id, state FROM yz_roll_states")}


# --- storing and superseding ----------------------------------------------------------------------


async def test_create_stores_a_pending_roll(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    roll = await db.rolls.get(roll_id)
    assert (roll.guild_id, roll.channel_id, roll.user_id, roll.payload) == (G, C, U, FIRST)
    assert (roll.state, roll.message_id, roll.pushed_payload) == (RollState.PENDING, None, None)
    assert roll.created_at == NOW
    assert roll.created_at + LIFETIME == NOW + LIFETIME
    db.rolls.messages.note(roll_id, C, 98765)
    db.rolls.messages.note(roll_id + 100, C, 1)  # no such roll: nothing to write for it
    assert await db.rolls.messages.flush() == 1
    assert (await db.rolls.get(roll_id)).message_id == 98765
    assert await db.rolls.get(roll_id + 100) is None


async def message_ids_on_disk(db: Database) -> dict[int, int | None]:
    with sqlite3.connect(db.store.path) as connection:
        return dict(connection.execute("SELECT id, message_id FROM yz_rolls").fetchall())


async def test_noted_messages_are_seen_at_once_and_written_together_a_moment_later(db: Database):
    first = await new_roll(db, G, C, U, FIRST, NOW)
    second = await new_roll(db, G, C, U + 1, FIRST, NOW)
    db.rolls.messages.note(first, C, 111)
    db.rolls.messages.note(second, C, 222)
    assert (await db.rolls.get(first)).message_id == 111
    assert (await db.rolls.latest_pending(G, C, U + 1, NOW, LIFETIME)).message_id == 222
    assert await message_ids_on_disk(db) == {first: None, second: None}
    await asyncio.sleep(MESSAGE_FLUSH_DELAY * 4)
    assert await message_ids_on_disk(db) == {first: 111, second: 222}


async def test_noted_messages_are_written_before_the_database_closes(tmp_path: Path):
    database = await open_sqlite(tmp_path / "closing.sqlite3")
    roll_id = await new_roll(database, G, C, U, FIRST, NOW)
    database.rolls.messages.note(roll_id, C, 333)
    await database.close()
    async with await open_sqlite(tmp_path / "closing.sqlite3") as again:
        assert (await again.rolls.get(roll_id)).message_id == 333


async def test_a_new_roll_supersedes_only_the_same_players_rolls_in_that_channel(db: Database):
    mine = await new_roll(db, G, C, U, FIRST, NOW)
    elsewhere = await new_roll(db, G, C + 1, U, FIRST, NOW)
    theirs = await new_roll(db, G, C, OTHER, FIRST, NOW)
    newer = await new_roll(db, G, C, U, FIRST, NOW + timedelta(minutes=1))
    assert await states(db) == {mine: "superseded", elsewhere: "pending", theirs: "pending", newer: "pending"}
    latest = await db.rolls.latest_pending(G, C, U, NOW + timedelta(minutes=2), LIFETIME)
    assert latest.id == newer


async def test_supersede_without_a_new_roll(db: Database):
    first = await new_roll(db, G, C, U, FIRST, NOW)
    [superseded] = await db.rolls.supersede(G, C, U)
    assert superseded.id == first and superseded.state is RollState.SUPERSEDED
    assert await db.rolls.supersede(G, C, U) == []
    assert (await claim(db, first)).refusal is PushRefusal.SUPERSEDED
    assert await db.rolls.latest_pending(G, C, U, NOW, LIFETIME) is None


async def test_latest_pending_ignores_pushed_and_expired_rolls(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    assert await db.rolls.latest_pending(G, C, U, NOW + LIFETIME + timedelta(seconds=1), LIFETIME) is None
    assert (await claim(db, roll_id)).refusal is None
    assert await db.rolls.latest_pending(G, C, U, NOW, LIFETIME) is None


def test_naive_datetimes_are_refused():
    from bot.storage.driver import epoch

    with pytest.raises(ValueError, match="aware"):
        epoch(datetime(2025, 1, 1))


# --- the claim ------------------------------------------------------------------------------------


async def test_claim_pushes_and_adds_willpower_together(db: Database):
    await db.willpower.set(G, U, 8)
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    result = await claim(db, roll_id, gain=3, now=NOW + timedelta(minutes=5))
    assert result.refusal is None
    assert (result.willpower.before, result.willpower.after, result.willpower.lost) == (8, 10, 1)
    assert (result.roll.state, result.roll.pushed_payload) == (RollState.PUSHED, PUSHED)
    assert result.roll.pushed_at == NOW + timedelta(minutes=5)
    assert await db.rolls.get(roll_id) == result.roll
    assert await db.willpower.get(G, U) == 10
    assert asdict(result.willpower) == {"before": 8, "after": 10, "lost": 1}


async def test_refusals_say_why_and_change_nothing(db: Database):
    old = await new_roll(db, G, C, U, FIRST, NOW - LIFETIME - timedelta(seconds=1))
    superseded = await new_roll(db, G, C + 1, U, FIRST, NOW)
    pushed = await new_roll(db, G, C + 1, U, FIRST, NOW)
    assert (await claim(db, pushed, gain=2)).refusal is None
    before = await states(db)
    cases = {
        pushed: (U, PushRefusal.ALREADY_PUSHED),
        superseded: (U, PushRefusal.SUPERSEDED),
        old: (U, PushRefusal.EXPIRED),
        999: (U, PushRefusal.UNKNOWN),
    }
    for roll_id, (user_id, reason) in cases.items():
        result = await claim(db, roll_id, user_id, gain=5)
        assert (result.refusal, result.willpower) == (reason, None)
        assert REFUSED[result.refusal]
    not_yours = await claim(db, pushed, OTHER, gain=5)
    assert not_yours.refusal is PushRefusal.NOT_YOURS and not_yours.roll.user_id == U
    assert await states(db) == before
    assert await db.willpower.get(G, U) == 2 and await db.willpower.get(G, OTHER) == 0


async def test_a_bad_gain_rolls_the_claim_back(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    with pytest.raises(InvalidValue):
        await claim(db, roll_id, gain=-1)
    assert (await db.rolls.get(roll_id)).state is RollState.PENDING
    assert (await claim(db, roll_id, gain=1)).refusal is None


async def test_someone_else_is_refused_even_before_the_roller_pushes(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    assert (await claim(db, roll_id, OTHER)).refusal is PushRefusal.NOT_YOURS
    assert (await db.rolls.get(roll_id)).state is RollState.PENDING
    assert (await claim(db, roll_id, U)).refusal is None


async def test_lifetime_boundary(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    late = await claim(db, roll_id, now=NOW + LIFETIME + timedelta(milliseconds=10))
    assert late.refusal is PushRefusal.EXPIRED
    assert (await claim(db, roll_id, now=NOW + LIFETIME)).refusal is None


@pytest.mark.parametrize("roll_id", [0, -1, 2**63, 2**80, True])
async def test_hostile_roll_ids_are_unknown(db: Database, roll_id: int):
    assert (await claim(db, roll_id)).refusal is PushRefusal.UNKNOWN
    assert await db.rolls.get(roll_id) is None


async def test_exactly_one_of_fifty_concurrent_claims_wins(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    results = await asyncio.gather(*(claim(db, roll_id, gain=3) for _ in range(50)))
    assert sum(result.refusal is None for result in results) == 1
    assert {result.refusal for result in results if result.refusal is not None} == {PushRefusal.ALREADY_PUSHED}
    assert await db.willpower.get(G, U) == 3


async def test_two_connections_on_one_file_claim_once(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    async with await open_sqlite(path) as one, await open_sqlite(path) as two:
        rolls = [await new_roll(one, G, C + n, U, FIRST, NOW) for n in range(20)]
        claims = [claim(database, roll_id, gain=1) for roll_id in rolls for database in (one, two) * 5]
        results = await asyncio.gather(*claims)
        winners = [result.roll.id for result in results if result.refusal is None]
        assert sorted(winners) == rolls
        assert await two.willpower.get(G, U) == 10
        assert sum(result.willpower.lost for result in results if result.refusal is None) == 10


_CHILD = """
import asyncio, json, sys
from datetime import datetime, timedelta
from bot.app.opening import open_sqlite

async def main(path, user_ids):
    async with await open_sqlite(path, busy_timeout_ms=10000) as db:
        print("ready", flush=True)
        sys.stdin.readline()
        now, lifetime = datetime.fromisoformat(sys.argv[2]), timedelta(hours=24)
        won = []
        for roll_id, user_id in reversed(user_ids):
            result = await db.rolls.claim_push(roll_id, user_id, '{"by": "child"}', 1, now, lifetime)
            if result.refusal is None:
                won.append(roll_id)
            await asyncio.sleep(0.001)  # let the other process in: SQLite's busy wait is not fair
        print(json.dumps(won), flush=True)

asyncio.run(main(sys.argv[1], json.loads(sys.argv[3])))
"""


async def test_two_processes_claim_each_roll_once(tmp_path: Path):
    path = tmp_path / "db.sqlite3"
    async with await open_sqlite(path, busy_timeout_ms=10000) as db:
        rolls = [(await new_roll(db, G, C, 10_000 + n, FIRST, NOW), 10_000 + n) for n in range(120)]
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", _CHILD, str(path), NOW.isoformat(), json.dumps(rolls),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert (await child.stdout.readline()).strip() == b"ready"
        child.stdin.write(b"go\n")
        await child.stdin.drain()
        ours = []
        for roll_id, user_id in rolls:  # the child goes the other way: the two meet somewhere in between
            if (await claim(db, roll_id, user_id)).refusal is None:
                ours.append(roll_id)
            await asyncio.sleep(0.001)
        theirs = json.loads(await child.stdout.readline())
        assert await child.wait() == 0
        assert sorted(ours + theirs) == [roll_id for roll_id, _ in rolls]
        assert await states(db) == {roll_id: "pushed" for roll_id, _ in rolls}
        points = await db.store.fetch_all("SELECT points FROM willpower WHERE guild_id = ?", (G,))
        assert [row["points"] for row in points] == [1] * len(rolls)


async def test_a_cancelled_write_leaves_no_transaction_open(db: Database):
    for delay_steps in range(6):
        task = asyncio.create_task(new_roll(db, G, C, U, FIRST, NOW))
        for _ in range(delay_steps):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        pending = await db.store.fetch_all("SELECT id FROM yz_roll_states WHERE state = 'pending'")
        assert len(pending) <= 1
    assert (await add_willpower(db, G, U, 1)).after == 1


async def test_a_locked_database_refuses_the_claim_and_keeps_the_roll(db: Database):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    other = sqlite3.connect(db.store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageBusy):
            await claim(db, roll_id, gain=2)
        with pytest.raises(StorageBusy):
            await new_roll(db, G, C, U, FIRST, NOW)
    finally:
        other.rollback()
        other.close()
    assert await states(db) == {roll_id: "pending"}
    assert await db.willpower.get(G, U) == 0
    assert (await claim(db, roll_id, gain=2)).willpower.after == 2


# --- the purge ------------------------------------------------------------------------------------


async def test_purge_deletes_only_rolls_past_their_lifetime(db: Database):
    old_pending = await new_roll(db, G, C, U, FIRST, NOW - timedelta(hours=30))
    old_pushed = await new_roll(db, G, C + 1, U, FIRST, NOW - timedelta(hours=25))
    assert (await claim(db, old_pushed, now=NOW - timedelta(hours=25))).refusal is None
    recent = await new_roll(db, G, C + 2, U, FIRST, NOW - timedelta(hours=23))
    assert await db.store.purge("yz_rolls", NOW - LIFETIME) == 2
    assert await states(db) == {recent: "pending"}
    assert await db.store.purge("yz_rolls", NOW - LIFETIME) == 0
    # A purged id was a roll once: it reads as expired, and ids are never reused.
    assert (await claim(db, old_pending)).refusal is PushRefusal.EXPIRED
    assert await new_roll(db, G, C, U, FIRST, NOW) > recent


async def store_at_v2(db: Database, user: int) -> int:
    """A roll as the bot stored it at schema V2 (today's INSERT names columns that came later)."""
    sql = "INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at) VALUES (?, ?, ?, ?, ?)"
    sql += " RETURNING id"
    return (await db.store.write(sql, (G, C, user, FIRST, NOW.timestamp())))[0]["id"]


async def test_rolls_stored_before_v3_keep_their_states_after_it(tmp_path: Path):
    """A database at V2 (whose trigger wrote 'superseded' into the older row) migrates to V3 (where being older
    is enough): every roll keeps the state the bot acts on, and rolls stored afterwards supersede the old ones."""
    path = tmp_path / "upgraded.sqlite3"
    up_to_v2 = [migration for migration in load_migrations() if migration.version <= 2]
    async with await open_sqlite(path, migrations=up_to_v2) as old:
        first, second, other = [await store_at_v2(old, user) for user in (U, U, OTHER)]
        assert (await old.store.fetch_one("SELECT state FROM yz_rolls WHERE id = ?", (first,)))[0] == "superseded"
    async with await open_sqlite(path) as db:
        assert await schema_version(db) >= 3
        triggers = await db.store.fetch_all("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        assert "yz_rolls_supersede" not in [row["name"] for row in triggers]
        assert await states(db) == {first: "superseded", second: "pending", other: "pending"}
        third = await new_roll(db, G, C, U, FIRST, NOW + timedelta(minutes=1))
        raw = await db.store.fetch_one("SELECT state FROM yz_rolls WHERE id = ?", (second,))
        assert raw[0] == "pending"  # not rewritten: the newer roll supersedes it by being newer
        assert await states(db) == {first: "superseded", second: "superseded", other: "pending", third: "pending"}
        assert (await claim(db, second)).refusal is PushRefusal.SUPERSEDED
        assert (await db.rolls.latest_pending(G, C, U, NOW + timedelta(minutes=2), LIFETIME)).id == third
        assert (await claim(db, third)).refusal is None
        assert await db.rolls.latest_pending(G, C, U, NOW + timedelta(minutes=2), LIFETIME) is None
