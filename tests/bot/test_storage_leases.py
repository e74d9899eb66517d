"""Shard leases and applied interactions in a real SQLite file: one process per shard, one apply per interaction."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.client import RollkeeperBot
from bot.app.opening import open_sqlite
from bot.app.shard_lease import LeaseHeld, is_gone, new_owner
from bot.storage.applied import AlreadyApplied
from bot.storage.schema import load_migrations
from tests.conftest import TOKEN
from tests.fakediscord import GUILD_READY_TIMEOUT
from tests.storage.reading import create_for, outcome, schema_version

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
TTL = timedelta(seconds=30)


@pytest.fixture
async def db(tmp_path: Path):
    async with await open_sqlite(tmp_path / "db.sqlite3", busy_timeout_ms=200) as database:
        yield database


async def test_the_schema_has_every_migration(db):
    assert await schema_version(db) == len(load_migrations())


async def test_a_second_owner_is_refused_until_the_lease_expires(db):
    assert await db.leases.take([0, 1], "first", NOW, TTL) == []
    held = await db.leases.take([1, 2], "second", NOW + timedelta(seconds=29), TTL)
    assert [(lease.shard_id, lease.owner) for lease in held] == [(1, "first")]
    assert await db.leases.take([2], "third", NOW, TTL) == []  # shard 2 was not taken by "second": all or none
    assert await db.leases.take([0, 1], "second", NOW + timedelta(seconds=31), TTL) == []  # expired: taken over
    assert not await db.leases.renew([0, 1], "first", NOW + timedelta(seconds=32), TTL)  # lost, and says so


async def test_renewing_keeps_the_lease_and_release_gives_it_back(db):
    await db.leases.take([0], "first", NOW, TTL)
    assert await db.leases.renew([0], "first", NOW + timedelta(seconds=20), TTL)
    assert await db.leases.take([0], "second", NOW + timedelta(seconds=45), TTL) != []  # renewed until 50 s
    await db.leases.release("first")
    assert await db.leases.take([0], "second", NOW + timedelta(seconds=45), TTL) == []


async def test_a_lease_of_a_dead_owner_can_be_overruled(db):
    await db.leases.take([0], "dead", NOW, TTL)
    assert await db.leases.take([0], "me", NOW, TTL, overrule={"dead"}) == []


async def test_an_owner_is_gone_only_when_its_process_on_this_host_is():
    mine = new_owner()
    assert not is_gone("elsewhere:1:abcd") and not is_gone("garbage")
    host, pid, _ = mine.split(":")
    assert is_gone(f"{host}:{pid}:earlier-run")  # this pid, another run (a restarted container)
    process = await asyncio.create_subprocess_exec("true")
    await process.wait()
    assert is_gone(f"{host}:{process.pid}:x") and not is_gone(f"{host}:1:x")


async def test_a_second_bot_on_the_same_database_is_refused(fake_discord, make_settings, monkeypatch):
    # Both bots run in this one process: the first is named as a process elsewhere, else the second would see
    # its own pid in the lease and take it over as an earlier run's (see bot.app.shard_lease.is_gone).
    monkeypatch.setattr("bot.app.shard_lease.new_owner", lambda: "another-host:4242:first")
    first = RollkeeperBot(make_settings(), guild_ready_timeout=GUILD_READY_TIMEOUT, extensions=())
    await fake_discord.run(first, token=TOKEN)
    monkeypatch.undo()
    second = RollkeeperBot(make_settings(), guild_ready_timeout=GUILD_READY_TIMEOUT, extensions=())
    with pytest.raises(LeaseHeld, match="Another rollkeeper .* is already serving shard 0"):
        async with second:
            await second.login(TOKEN)  # runs setup_hook, which takes the lease
    assert first.is_ready() and not first.is_closed()
    await fake_discord.stop()
    third = RollkeeperBot(make_settings(), guild_ready_timeout=GUILD_READY_TIMEOUT, extensions=())
    await fake_discord.run(third, token=TOKEN)  # the first gave its lease back when it stopped
    assert third.is_ready()


async def test_a_bot_that_lost_its_lease_stops(fake_discord, make_settings, db_path):
    bot = RollkeeperBot(
        make_settings(LEASE_TTL_SECONDS="1.5", LEASE_RENEW_SECONDS="0.1"),
        guild_ready_timeout=GUILD_READY_TIMEOUT, extensions=(),
    )
    await fake_discord.run(bot, token=TOKEN)
    # Past the TTL: the renewals kept the lease (a TTL of many renewals, so that a loaded machine's stall of a
    # second does not let it expire: it failed so under load with 0.4 s).
    await asyncio.sleep(1.7)
    assert not bot.is_closed()
    with closing(sqlite3.connect(db_path)) as connection, connection:
        connection.execute("UPDATE shard_leases SET owner = 'usurper'")  # as if it had expired and been taken
    for _ in range(100):
        if bot.is_closed():
            break
        await asyncio.sleep(0.05)
    assert bot.is_closed()


async def test_an_interaction_is_applied_once(db):
    await db.willpower.set(1, 2, 5, interaction_id=100)
    again = await db.willpower.set(1, 2, 9, interaction_id=100)  # a repeat: the first outcome, nothing set
    assert (again.before, again.after) == (0, 5) and await db.willpower.get(1, 2) == 5
    spent = [await db.willpower.spend(1, 2, 2, interaction_id=101) for _ in range(3)]
    assert {(change.before, change.after) for change in spent} == {(5, 3)} and await db.willpower.get(1, 2) == 3
    await db.extended.record(1, 3, "Siege", 10, 2, fresh=True, interaction_id=102)
    with pytest.raises(AlreadyApplied) as repeat:
        await db.extended.record(1, 3, "Siege", 10, 2, fresh=True, interaction_id=102)
    assert repeat.value.outcome["task"]["progress"] == 2 and (await db.extended.get(1, 3, "Siege")).progress == 2
    first = await create_for(db, 103, 1, 3, 2, '{"roll": 1}', NOW)
    again_roll = await create_for(db, 103, 1, 3, 2, '{"roll": 2}', NOW)
    assert again_roll.id == first.id and again_roll.payload == '{"roll": 1}'
    assert await outcome(db, 101) == {"before": 5, "after": 3, "lost": 0}
    assert await db.applied.purge(datetime.now(UTC) + timedelta(seconds=1)) == 4
    assert await outcome(db, 101) is None


async def test_the_bot_purges_applied_interactions_with_the_rolls(start_bot, db_path):
    bot = await start_bot(extensions=())
    await bot.db.willpower.set(1, 2, 5, interaction_id=7)
    with closing(sqlite3.connect(db_path)) as connection, connection:  # applied two days ago
        connection.execute("UPDATE applied_interactions SET applied_at = applied_at - 2 * 86400")
    await bot.db.willpower.set(1, 2, 6, interaction_id=8)  # applied now: kept
    await bot.purge_expired_rolls()
    assert await outcome(bot.db, 7) is None and await outcome(bot.db, 8) is not None


async def test_only_a_roll_never_shown_nor_pushed_is_withdrawn(db):
    older = await create_for(db, 200, 1, 3, 2, '{"roll": 1}', NOW)
    unshown = await create_for(db, 201, 1, 3, 2, '{"roll": 2}', NOW)
    assert (await db.rolls.get(older.id)).state.value == "superseded"
    assert await db.rolls.withdraw(unshown.id)
    assert (await db.rolls.get(older.id)).state.value == "pending"  # the shown roll is the latest again
    db.rolls.messages.note(older.id, 3, 999)  # shown
    assert not await db.rolls.withdraw(older.id) and await db.rolls.get(older.id) is not None
