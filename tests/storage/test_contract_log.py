"""The storage contract for the roll log, on SQLite and on PostgreSQL: entries written and paged, a pushed roll's
entry updated once per push, an interaction logged once, a pushable roll stored (and withdrawn) with its entry, a
private entry revealed once by its roller only, retention in batches."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.app.chores import purge_store
from bot.storage.database import Storage
from bot.storage.roll_log import NewEntry, RevealRefusal
from tests.storage.reading import create_for, new_roll

G, C, U, OTHER = 1111, 2222, 3333, 4444
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def entry(user: int = U, **fields) -> NewEntry:
    return NewEntry(G, C, user, "yz", "roll", "1 success", **fields)


async def test_entries_are_paged_newest_first_and_private_ones_only_to_their_roller(db: Storage):
    ids = [await db.log.write(entry(events="1/2:1"), NOW + timedelta(seconds=n)) for n in range(3)]
    secret = await db.log.write(entry(OTHER, private=True, card={"title": "x"}), NOW)
    assert [e.id for e in await db.log.page(G, C, U)] == ids[::-1]
    assert [e.id for e in await db.log.page(G, C, OTHER)] == [secret, *ids[::-1]]
    assert [e.id for e in await db.log.page(G, C, U, before=ids[2], limit=1)] == [ids[1]]
    assert [e.id for e in await db.log.page(G, C, U, after=ids[0])] == [ids[2], ids[1]]
    assert [e.id for e in await db.log.since(G, C, U, NOW + timedelta(seconds=1))] == ids[1:]
    assert (await db.log.get(ids[0])).events == ("1/2:1",)


async def test_since_reads_one_player_or_all_and_between_hides_others_unrevealed_private_rolls(db: Storage):
    secret = await db.log.write(entry(OTHER, private=True, card={"title": "x"}), NOW)
    public = await db.log.write(entry(U), NOW)
    mine = await db.log.write(entry(U, private=True, card={"title": "y"}), NOW)
    start = NOW - timedelta(hours=1)
    assert [e.id for e in await db.log.since(G, C, U, start, user_id=OTHER)] == []
    assert [e.id for e in await db.log.since(G, C, OTHER, start, user_id=OTHER)] == [secret]
    assert [e.id for e in await db.log.since(G, C, U, start, user_id=U)] == [public, mine]
    assert [e.id for e in await db.log.since(G, C, U, start)] == [public, mine]
    assert [e.id for e in await db.log.between(G, C, U, start, NOW)] == []  # the end is excluded
    assert [e.id for e in await db.log.between(G, C, OTHER, start, NOW + timedelta(1))] == [secret, public]


async def test_a_pushable_rolls_entry_takes_its_id_once_and_counts_its_pushes(db: Storage):
    roll_id = await new_roll(db, G, C, U, "{}", NOW)
    logged = entry(extras={"banes": 1})
    assert await db.log.write(logged, NOW, entry_id=roll_id) == roll_id
    assert await db.log.write(logged, NOW, entry_id=roll_id) == roll_id  # a repeat changes nothing
    assert await db.log.record_push(roll_id, 1, "2 successes", "1/3:1", {"willpower": 2, "banes": 3}, None)
    assert not await db.log.record_push(roll_id, 1, "2 successes", "1/3:1", {"willpower": 2, "banes": 3}, None)
    assert await db.log.record_push(roll_id, 2, "3 successes", "", {"willpower": 1, "banes": 4}, None)
    assert not await db.log.record_push(roll_id, 1, "late", "1/3:0", {"willpower": 5, "banes": 0}, None)
    pushed = await db.log.get(roll_id)
    assert (pushed.reading, pushed.events) == ("3 successes", ("1/3:1",))
    assert pushed.extras == {"banes": 4, "pushes": 2, "willpower": 3}
    assert await db.log.write(entry(), NOW) != roll_id and await new_roll(db, G, C, U, "{}", NOW) > roll_id


async def test_a_private_entry_is_revealed_once_by_its_roller_only(db: Storage, open_db):
    secret = await db.log.write(entry(private=True, card={"title": "hidden"}), NOW)
    public = await db.log.write(entry(), NOW)
    assert (await db.log.claim_reveal(secret, OTHER, NOW)).refusal is RevealRefusal.NOT_YOURS
    assert (await db.log.claim_reveal(public, U, NOW)).refusal is RevealRefusal.NOT_PRIVATE
    second = await open_db()
    try:
        claims = await asyncio.gather(*(store.log.claim_reveal(secret, U, NOW) for store in [db, second] * 4))
    finally:
        await second.close()
    won = [claim for claim in claims if claim.refusal is None]
    assert len(won) == 1 and won[0].entry.card == {"title": "hidden"}
    assert {claim.refusal for claim in claims if claim.refusal} == {RevealRefusal.ALREADY_REVEALED}
    assert [e.id for e in await db.log.between(G, C, OTHER, NOW, NOW + timedelta(1))] == [secret, public]


async def test_entries_older_than_the_retention_are_purged_in_batches(db: Storage):
    old = [await db.log.write(entry(), NOW - timedelta(days=100)) for _ in range(5)]
    new = await db.log.write(entry(), NOW)
    assert await db.store.purge("roll_log", NOW - timedelta(days=90), batch=2) == 5
    assert [await db.log.get(entry_id) for entry_id in old] == [None] * 5 and await db.log.get(new) is not None
    await db.log.write(entry(), NOW - timedelta(days=100))
    await purge_store(db, NOW, timedelta(hours=12), timedelta(days=90))  # the round's purge takes the log too
    assert [e.id for e in await db.log.page(G, C, U)] == [new]


async def test_an_interaction_is_logged_once_and_a_repeat_gets_its_entry(db: Storage):
    first = await db.log.write(entry(private=True, card={"title": "x"}), NOW, interaction_id=77)
    assert await db.log.write(entry(events="1/2:0"), NOW, interaction_id=77) == first
    assert [e.id for e in await db.log.page(G, C, U)] == [first] and (await db.log.get(first)).private


async def test_a_pushable_roll_is_stored_with_its_entry_and_withdrawn_with_it(db: Storage):
    roll = await create_for(db, 78, G, C, U, "{}", NOW, log=entry(events="1/2:1"))
    again = await create_for(db, 78, G, C, U, '{"n": 2}', NOW, log=entry(events="1/2:0"))
    logged = await db.log.get(roll.id)
    assert again.id == roll.id and logged is not None and logged.events == ("1/2:1",)
    assert len(await db.log.page(G, C, U)) == 1
    assert await db.rolls.withdraw(roll.id) and await db.log.get(roll.id) is None
