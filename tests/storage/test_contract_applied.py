"""The storage contract for told = stored, on SQLite and on PostgreSQL: each interaction applies once, even
delivered twice at once through two stores, and one process at a time holds a shard's lease."""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage.applied import AlreadyApplied
from bot.storage.database import Storage
from tests.storage.reading import create_for, outcome

G, C, U = 1111, 2222, 3333
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
LIFETIME = timedelta(hours=24)
INTERACTION = 1_500_000_000_000_000_001


async def test_a_repeated_interaction_gets_the_first_ones_answer_and_changes_nothing(db: Storage):
    roll = await create_for(db, INTERACTION, G, C, U, json.dumps({"n": 1}), NOW)
    again = await create_for(db, INTERACTION, G, C, U, json.dumps({"n": 2}), NOW)
    assert again.id == roll.id and again.payload == json.dumps({"n": 1})
    claim = await db.rolls.claim_push(roll.id, U, "{}", 2, NOW, LIFETIME, interaction_id=INTERACTION + 1)
    repeat = await db.rolls.claim_push(roll.id, U, "{}", 2, NOW, LIFETIME, interaction_id=INTERACTION + 1)
    assert claim.refusal is None and repeat.refusal is None and repeat.willpower == claim.willpower
    assert await db.willpower.get(G, U) == 2
    spent = [await db.willpower.spend(G, U, 1, interaction_id=INTERACTION + 2) for _ in range(2)]
    assert spent[0] == spent[1] and await db.willpower.get(G, U) == 1
    assert await db.applied.latest_for(f"yz_roll:{roll.id}") == {"willpower": asdict(claim.willpower)}


async def test_a_repeated_set_or_extended_roll_changes_nothing_and_the_purge_forgets_them(db: Storage):
    await db.willpower.set(G, U, 5, interaction_id=INTERACTION)
    again = await db.willpower.set(G, U, 9, interaction_id=INTERACTION)  # a repeat: the first outcome, nothing set
    assert asdict(again) == {"before": 0, "after": 5, "lost": 0} and await db.willpower.get(G, U) == 5
    await db.extended.record(G, C, "Siege", 10, 2, fresh=True, interaction_id=INTERACTION + 1)
    with pytest.raises(AlreadyApplied) as repeat:
        await db.extended.record(G, C, "Siege", 10, 3, fresh=True, interaction_id=INTERACTION + 1)
    assert repeat.value.outcome["task"]["progress"] == 2 and (await db.extended.get(G, C, "siege")).progress == 2
    assert await outcome(db, INTERACTION) == {"before": 0, "after": 5, "lost": 0}
    assert await outcome(db, INTERACTION + 2) is None
    assert await db.applied.purge(datetime.now(UTC) - timedelta(hours=1)) == 0
    assert await db.applied.purge(datetime.now(UTC) + timedelta(seconds=1)) == 2
    assert await outcome(db, INTERACTION) is None


async def test_one_interaction_delivered_at_once_through_two_stores_applies_once(db: Storage, open_db):
    second = await open_db()
    try:
        await db.willpower.set(G, U, 5)
        for n in range(4):
            spends = [store.willpower.spend(G, U, 1, interaction_id=INTERACTION + 10 + n) for store in (db, second)]
            first, other = await asyncio.gather(*spends)
            assert first == other
    finally:
        await second.close()
    assert await db.willpower.get(G, U) == 1  # four interactions, each applied once


async def test_one_process_at_a_time_holds_a_shards_lease(db: Storage, open_db):
    second = await open_db()
    try:
        ttl = timedelta(seconds=30)
        takes = await asyncio.gather(
            db.leases.take([0, 1], "first:1", NOW, ttl), second.leases.take([0, 1], "second:2", NOW, ttl)
        )
        assert sorted(len(held) for held in takes) == [0, 2]  # one took both shards, the other none
        winner, loser = ("first:1", "second:2") if not takes[0] else ("second:2", "first:1")
        assert await db.leases.renew([0, 1], winner, NOW + ttl / 2, ttl) is True
        assert await db.leases.renew([0, 1], loser, NOW, ttl) is False
        assert await db.leases.take([0], loser, NOW + ttl * 2, ttl) == []  # expired: taken over
        await db.leases.release(winner)
        assert await second.leases.take([1], loser, NOW, ttl) == []
    finally:
        await second.close()


async def test_a_renewal_that_lost_one_lease_renews_none(db: Storage):
    """All the owner's leases or none: the one still its own keeps its old expiry when another was taken over."""
    ttl = timedelta(seconds=30)
    assert await db.leases.take([0], "first:1", NOW, ttl) == []  # until 30 s
    assert await db.leases.take([1], "first:1", NOW + timedelta(seconds=20), ttl) == []  # until 50 s
    assert await db.leases.take([0], "second:2", NOW + timedelta(seconds=35), ttl) == []  # 0 expired: taken over
    assert await db.leases.renew([0, 1], "first:1", NOW + timedelta(seconds=36), ttl) is False
    assert await db.leases.take([1], "second:2", NOW + timedelta(seconds=49), ttl) != []  # still first's until 50 s
    assert await db.leases.take([1], "second:2", NOW + timedelta(seconds=51), ttl) == []  # not renewed to 66 s
    assert await db.leases.renew([0, 1], "second:2", NOW + timedelta(seconds=52), ttl) is True


async def test_takes_racing_through_two_stores_never_both_win_a_shard(db: Storage, open_db):
    """Round after round, two processes starting at once on a free shard: exactly one of them gets it."""
    second = await open_db()
    try:
        ttl = timedelta(seconds=30)
        for shard in range(20):
            takes = await asyncio.gather(
                *(store.leases.take([shard], owner, NOW, ttl) for store, owner in ((db, "a:1"), (second, "b:2")))
            )
            assert sorted(len(held) for held in takes) == [0, 1], shard
    finally:
        await second.close()
