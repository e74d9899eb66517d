"""The roll log on a real SQLite file: one INSERT per roll (with a pushable roll inside it), Reveal claimed
once, private entries read only by their roller, retention."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from itertools import takewhile
from pathlib import Path

import pytest

from bot.app.chores import purge_store
from bot.app.opening import open_sqlite
from bot.settings import DEFAULT_ROLL_LOG_DAYS, SettingsError, load_settings
from bot.storage.roll_log import NewEntry, RevealRefusal
from bot.storage.schema import load_migrations
from bot.storage.sqlite import Database
from tests.storage.reading import new_roll, trace

G, C, ALICE, BOB = 1111, 2222, 7, 8
NOW = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
LIFETIME = timedelta(hours=12)


@pytest.fixture
async def db(tmp_path: Path):
    async with await open_sqlite(tmp_path / "db.sqlite3") as database:
        yield database


def entry(user: int = ALICE, *, private: bool = False, events: str = "1/2:1", system: str = "heroic") -> NewEntry:
    card = {"title": "Success", "description": "**Success**"} if private else None
    return NewEntry(G, C, user, system, "task", "Success", events, {"pushes": 0}, private, card)


async def test_a_year_zero_roll_is_logged_under_its_own_id_in_one_statement_once(db: Database):
    roll_id = await new_roll(db, G, C, ALICE, '{"roll": 1}', NOW, 2)
    seen: list[str] = []
    await trace(db, seen.append)
    assert await db.log.write(entry(system="yearzero"), NOW, entry_id=roll_id) == roll_id
    # SQLite's trace calls back once per step of a statement (the trigger's step too): one statement all the same.
    assert len(set(seen)) == 1 and seen[0].split()[0].upper() == "INSERT"
    assert await db.log.write(entry(system="yearzero"), NOW, entry_id=roll_id) == roll_id  # a repeat: no change
    claim = await db.rolls.claim_push(roll_id, ALICE, "{}", 1, NOW, LIFETIME)
    assert claim.refusal is None
    assert await db.log.record_push(roll_id, 1, "Pushed", "1/6:0", {"willpower": 2, "banes": 2}, None)
    assert not await db.log.record_push(roll_id, 1, "Pushed", "1/6:0", {"willpower": 2, "banes": 2}, None)  # repeat
    assert await db.log.record_push(roll_id, 2, "Pushed again", "", {"willpower": 1, "banes": 3}, None)
    assert not await db.log.record_push(roll_id, 1, "Pushed", "1/6:0", {"willpower": 2, "banes": 2}, None)  # late
    pushed = await db.log.get(roll_id)
    assert pushed is not None and pushed.events == ("1/2:1", "1/6:0") and pushed.reading == "Pushed again"
    assert pushed.extras == {"pushes": 2, "willpower": 3, "banes": 3}  # pushes and Willpower add up
    assert len(await db.log.page(G, C, ALICE)) == 1


async def test_an_entry_reads_back_as_written(db: Database):
    logged = await db.log.get(await db.log.write(entry(), NOW))
    assert logged is not None and await db.rolls.get(logged.id) is None
    assert logged.reading == "Success" and logged.card is None and logged.extras == {"pushes": 0}


async def test_log_ids_start_above_the_rolls_stored_before_the_log(tmp_path: Path):
    path = tmp_path / "upgraded.sqlite3"
    before_log = list(takewhile(lambda migration: "roll_log" not in migration.name, load_migrations()))
    async with await open_sqlite(path, migrations=before_log) as old:
        for _ in range(3):
            last = await new_roll(old, G, C, ALICE, "{}", NOW)
    async with await open_sqlite(path) as db:
        logged = await db.log.write(entry(), NOW)
        assert logged > last and (await db.rolls.get(last)) is not None


async def test_a_reveal_is_claimed_once_and_only_by_the_roller(db: Database):
    secret = await db.log.write(entry(private=True), NOW)
    assert (await db.log.claim_reveal(secret, BOB, NOW)).refusal is RevealRefusal.NOT_YOURS
    claims = await asyncio.gather(*(db.log.claim_reveal(secret, ALICE, NOW) for _ in range(30)))
    winners = [claim for claim in claims if claim.refusal is None]
    assert len(winners) == 1 and winners[0].entry is not None and winners[0].entry.card == entry(private=True).card
    assert {claim.refusal for claim in claims} == {None, RevealRefusal.ALREADY_REVEALED}
    public = await db.log.write(entry(), NOW)
    assert (await db.log.claim_reveal(public, ALICE, NOW)).refusal is RevealRefusal.NOT_PRIVATE
    assert (await db.log.claim_reveal(10**6, ALICE, NOW)).refusal is RevealRefusal.UNKNOWN
    assert (await db.log.claim_reveal(2**70, ALICE, NOW)).refusal is RevealRefusal.UNKNOWN


async def test_private_entries_are_read_only_by_their_roller(db: Database):
    await db.log.write(entry(ALICE, private=True), NOW)
    await db.log.write(entry(BOB), NOW)
    assert [e.user_id for e in await db.log.page(G, C, BOB)] == [BOB]
    assert [e.user_id for e in await db.log.page(G, C, ALICE)] == [BOB, ALICE]
    assert [e.user_id for e in await db.log.since(G, C, BOB, NOW - LIFETIME, user_id=ALICE)] == []
    assert [e.user_id for e in await db.log.since(G, C, ALICE, NOW - LIFETIME, user_id=ALICE)] == [ALICE]
    assert [e.user_id for e in await db.log.between(G, C, BOB, NOW, NOW + LIFETIME)] == [BOB]


async def test_pages_go_older_and_newer(db: Database):
    ids = [await db.log.write(entry(), NOW) for _ in range(5)]
    first = await db.log.page(G, C, ALICE, limit=2)
    assert [e.id for e in first] == ids[:-3:-1]
    older = await db.log.page(G, C, ALICE, before=first[-1].id, limit=2)
    assert [e.id for e in older] == [ids[2], ids[1]]
    newer = await db.log.page(G, C, ALICE, after=older[0].id, limit=2)
    assert [e.id for e in newer] == [e.id for e in first]


async def test_entries_older_than_the_retention_are_purged(db: Database):
    await db.log.write(entry(), NOW - timedelta(days=91))
    kept = await db.log.write(entry(), NOW - timedelta(days=89))
    assert await db.store.purge("roll_log", NOW - timedelta(days=DEFAULT_ROLL_LOG_DAYS)) == 1
    assert [e.id for e in await db.log.page(G, C, ALICE)] == [kept]


async def test_a_repeated_interaction_is_logged_once_and_gets_the_first_entry_back(db: Database):
    first = await db.log.write(entry(private=True), NOW, interaction_id=900)
    assert await db.log.write(entry(private=True, events="1/3:0"), NOW, interaction_id=900) == first
    assert await db.log.write(entry(), NOW, interaction_id=901) != first
    logged = await db.log.page(G, C, ALICE)
    assert [e.id for e in logged][-1] == first and len(logged) == 2 and logged[-1].events == ("1/2:1",)


async def test_the_log_purge_deletes_in_batches(db: Database):
    for _ in range(7):
        await db.log.write(entry(), NOW - timedelta(days=100))
    kept = await db.log.write(entry(), NOW)
    seen: list[str] = []
    await trace(db, seen.append)
    assert await db.store.purge("roll_log", NOW - timedelta(days=DEFAULT_ROLL_LOG_DAYS), batch=3) == 7
    deletes = [sql for sql in seen if sql.split()[0].upper() == "DELETE"]
    assert len(deletes) == 3 and all("LIMIT" in sql for sql in deletes)  # 3 + 3 + 1 rows, never all at once
    assert [e.id for e in await db.log.page(G, C, ALICE)] == [kept]


async def test_the_database_purge_takes_the_log_past_its_retention_too(db: Database):
    await db.log.write(entry(), NOW - timedelta(days=100))
    kept = await db.log.write(entry(), NOW - timedelta(days=1))
    await purge_store(db, NOW, LIFETIME, timedelta(days=DEFAULT_ROLL_LOG_DAYS))
    assert [e.id for e in await db.log.page(G, C, ALICE)] == [kept]


def test_roll_log_days_is_a_setting_with_a_clear_error(tmp_path: Path):
    base = {"DISCORD_TOKEN": "x.y.z"}
    assert load_settings(base, cwd=tmp_path).roll_log_days == DEFAULT_ROLL_LOG_DAYS == 90
    assert load_settings(base | {"ROLL_LOG_DAYS": "7"}, cwd=tmp_path).roll_log_retention == timedelta(days=7)
    for bad in ("0", "-3", "1.5", "many", "99999"):
        with pytest.raises(SettingsError, match="ROLL_LOG_DAYS"):
            load_settings(base | {"ROLL_LOG_DAYS": bad}, cwd=tmp_path)


async def test_log_entries_and_rolls_never_share_an_id_but_a_rolls_own_entry(db: Database):
    heroic = await db.log.write(entry(), NOW)
    roll = await new_roll(db, G, C, ALICE, "{}", NOW)
    assert roll > heroic and await db.log.write(entry(system="yearzero"), NOW, entry_id=roll) == roll
    assert await db.log.write(entry(), NOW) > roll
    assert await new_roll(db, G, C, BOB, "{}", NOW) > roll + 1
