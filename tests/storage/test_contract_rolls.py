"""The storage contract for Year Zero rolls, on SQLite and on PostgreSQL: superseding, expiry, a push claimed
at most once by its roller only (also by two stores racing on one database), refusals, purge, message notes,
repeated interactions and withdrawn rolls."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.app.chores import purge_store
from bot.storage.database import Storage
from bot.storage.driver import PURGE_BATCH
from bot.storage.roll_records import PushRefusal, RollState
from tests.storage.reading import new_roll, superseded_by

G, C, U, OTHER = 1111, 2222, 3333, 4444
BIG = 2**63 - 1  # the largest snowflake-sized id both stores must keep exactly
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
LIFETIME = timedelta(hours=24)
FIRST = json.dumps({"dice": [6, 1, 3]})
PUSHED = json.dumps({"dice": [6, 1, 5]})


async def claim(db: Storage, roll_id: int, user_id: int = U, gain: int = 1, now: datetime = NOW):
    return await db.rolls.claim_push(roll_id, user_id, PUSHED, gain, now, LIFETIME)


async def test_a_stored_roll_reads_back_whole_and_pending(db: Storage):
    roll_id = await new_roll(db, BIG, BIG - 1, BIG - 2, FIRST, NOW)
    roll = await db.rolls.get(roll_id)
    assert (roll.guild_id, roll.channel_id, roll.user_id, roll.payload) == (BIG, BIG - 1, BIG - 2, FIRST)
    assert (roll.state, roll.message_id, roll.pushed_payload, roll.pushed_at) == (RollState.PENDING, None, None, None)
    assert roll.created_at == NOW


async def test_a_newer_roll_supersedes_the_same_players_older_one_in_that_channel_only(db: Storage):
    old = await new_roll(db, G, C, U, FIRST, NOW)
    elsewhere = await new_roll(db, G, C + 1, U, FIRST, NOW)
    someone_else = await new_roll(db, G, C, OTHER, FIRST, NOW)
    new = await new_roll(db, G, C, U, FIRST, NOW + timedelta(seconds=1))
    assert (await db.rolls.get(old)).state is RollState.SUPERSEDED
    assert {(await db.rolls.get(i)).state for i in (elsewhere, someone_else, new)} == {RollState.PENDING}
    assert (await db.rolls.latest_pending(G, C, U, NOW, LIFETIME)).id == new
    assert (await claim(db, old)).refusal is PushRefusal.SUPERSEDED


async def test_supersede_without_a_new_roll_leaves_nothing_pushable(db: Storage):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    [superseded] = await db.rolls.supersede(G, C, U)
    assert (superseded.id, superseded.state) == (roll_id, RollState.SUPERSEDED)
    assert await db.rolls.supersede(G, C, U) == []
    assert await db.rolls.latest_pending(G, C, U, NOW, LIFETIME) is None
    assert (await claim(db, roll_id)).refusal is PushRefusal.SUPERSEDED


async def test_a_claim_pushes_once_and_gains_willpower_in_the_same_step(db: Storage):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    first = await claim(db, roll_id, gain=2, now=NOW + timedelta(minutes=1))
    assert first.refusal is None and first.roll.state is RollState.PUSHED and first.roll.pushed_payload == PUSHED
    assert first.roll.pushed_at == NOW + timedelta(minutes=1)
    assert (first.willpower.before, first.willpower.after, first.willpower.lost) == (0, 2, 0)
    again = await claim(db, roll_id, gain=2)
    assert again.refusal is PushRefusal.ALREADY_PUSHED
    assert await db.willpower.get(G, U) == 2
    assert await db.rolls.latest_pending(G, C, U, NOW, LIFETIME) is None


async def test_willpower_gained_by_a_push_stops_at_ten_and_says_what_was_lost(db: Storage):
    await db.willpower.set(G, U, 9)
    result = await claim(db, await new_roll(db, G, C, U, FIRST, NOW), gain=3)
    assert (result.willpower.before, result.willpower.after, result.willpower.lost) == (9, 10, 2)
    assert await db.willpower.get(G, U) == 10


async def test_only_the_roller_may_push_and_a_refusal_changes_nothing(db: Storage):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    refused = await claim(db, roll_id, user_id=OTHER)
    assert refused.refusal is PushRefusal.NOT_YOURS
    assert (await db.rolls.get(roll_id)).state is RollState.PENDING
    assert await db.willpower.get(G, OTHER) == 0
    assert (await claim(db, roll_id)).refusal is None


async def test_a_roll_past_its_lifetime_cannot_be_pushed_and_the_purge_deletes_it(db: Storage):
    old = await new_roll(db, G, C, U, FIRST, NOW - LIFETIME - timedelta(seconds=1))
    assert (await claim(db, old)).refusal is PushRefusal.EXPIRED
    assert await db.rolls.latest_pending(G, C, U, NOW, LIFETIME) is None
    fresh = await new_roll(db, G, C + 1, U, FIRST, NOW)
    assert await db.store.purge("yz_rolls", NOW - LIFETIME) == 1
    assert await db.rolls.get(old) is None and await db.rolls.get(fresh) is not None
    assert await db.rolls.refusal_for_missing(old) is PushRefusal.EXPIRED
    assert (await claim(db, old)).refusal is PushRefusal.EXPIRED


async def test_an_id_never_given_is_unknown_and_ids_are_not_reused_after_a_purge(db: Storage):
    first = await new_roll(db, G, C, U, FIRST, NOW - LIFETIME * 2)
    await db.store.purge("yz_rolls", NOW - LIFETIME)
    second = await new_roll(db, G, C, U, FIRST, NOW)
    assert second > first
    for hostile in (second + 1, 0, -5, 2**63, 2**70):
        assert await db.rolls.get(hostile) is None
        assert await db.rolls.refusal_for_missing(hostile) is PushRefusal.UNKNOWN
        assert (await claim(db, hostile)).refusal is PushRefusal.UNKNOWN


async def test_message_ids_are_seen_at_once_and_written_by_the_flush(db: Storage, open_db):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW)
    db.rolls.messages.note(roll_id, C, BIG)
    db.rolls.messages.note(roll_id + 100, C, 1)  # no such roll: nothing to write for it
    assert (await db.rolls.get(roll_id)).message_id == BIG
    assert await db.rolls.messages.flush() == 1
    other = await open_db()  # another process reads what was written, not what this one noted
    try:
        assert (await other.rolls.get(roll_id)).message_id == BIG
    finally:
        await other.close()


async def test_fifty_clicks_and_a_push_through_two_stores_push_the_roll_once(db: Storage, open_db):
    """Two bot processes on one database (two connections or pools), clicks racing on one roll: one push."""
    second = await open_db()
    try:
        roll_id = await new_roll(db, G, C, U, FIRST, NOW)
        stores = [db, second] * 25
        results = await asyncio.gather(*(claim(store, roll_id, gain=1) for store in stores))
    finally:
        await second.close()
    claimed = [result for result in results if result.refusal is None]
    assert len(claimed) == 1
    assert {result.refusal for result in results if result.refusal is not None} == {PushRefusal.ALREADY_PUSHED}
    assert await db.willpower.get(G, U) == 1


async def test_racing_pushes_of_distinct_rolls_all_land_and_their_willpower_adds_up(db: Storage, open_db):
    second = await open_db()
    try:
        ids = [await new_roll(db, G, C + n, U, FIRST, NOW) for n in range(8)]
        stores = [db, second] * 4
        results = await asyncio.gather(*(claim(store, i, gain=1) for store, i in zip(stores, ids, strict=True)))
    finally:
        await second.close()
    assert all(result.refusal is None for result in results)
    assert sorted(result.willpower.after for result in results) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert await db.willpower.get(G, U) == 8


@pytest.mark.parametrize("payload", [b"bytes", 5, None])
async def test_a_payload_that_is_not_text_is_refused_before_storing(db: Storage, payload):
    with pytest.raises(TypeError):
        await new_roll(db, G, C, U, payload, NOW)
    assert await db.rolls.latest_pending(G, C, U, NOW, LIFETIME) is None


async def test_a_naive_time_is_refused(db: Storage):
    with pytest.raises(ValueError, match="aware"):
        await new_roll(db, G, C, U, FIRST, datetime(2025, 3, 1))


# --- several pushes, Keep, and the messages that still show buttons -----------------------------------


async def test_a_roll_allowing_two_pushes_claims_each_once_then_has_none_left(db: Storage):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW, pushes_allowed=2)
    first = await db.rolls.claim_push(roll_id, U, PUSHED, 1, NOW, LIFETIME, pushes_made=0, last=False)
    assert first.refusal is None and (first.roll.state, first.roll.pushes_made) == (RollState.PENDING, 1)
    again = await db.rolls.claim_push(roll_id, U, PUSHED, 1, NOW, LIFETIME, pushes_made=0, last=False)
    assert again.refusal is PushRefusal.PUSHED_MEANWHILE  # the first push, claimed twice: once only
    second = await db.rolls.claim_push(roll_id, U, PUSHED, 2, NOW, LIFETIME, pushes_made=1, last=True)
    assert second.refusal is None and (second.roll.state, second.roll.pushes_made) == (RollState.PUSHED, 2)
    third = await db.rolls.claim_push(roll_id, U, PUSHED, 1, NOW, LIFETIME, pushes_made=2)
    assert third.refusal is PushRefusal.NO_PUSHES_LEFT
    assert await db.willpower.get(G, U) == 3


async def test_a_kept_roll_can_no_longer_be_pushed_and_a_pushed_one_no_longer_kept(db: Storage):
    kept = await new_roll(db, G, C, U, FIRST, NOW)
    assert (await db.rolls.keep(kept, OTHER, NOW, LIFETIME)).refusal is PushRefusal.NOT_YOURS
    keep = await db.rolls.keep(kept, U, NOW, LIFETIME)
    assert keep.refusal is None and keep.roll.state is RollState.KEPT and keep.willpower is None
    assert (await claim(db, kept)).refusal is PushRefusal.KEPT
    pushed = await new_roll(db, G, C + 1, U, FIRST, NOW)
    assert (await claim(db, pushed)).refusal is None
    assert (await db.rolls.keep(pushed, U, NOW, LIFETIME)).refusal is PushRefusal.ALREADY_PUSHED
    assert await db.willpower.get(G, U) == 1


async def test_keep_racing_pushes_through_two_stores_ends_the_roll_one_way_only(db: Storage, open_db):
    second = await open_db()
    pushed = 0
    try:
        for round_number in range(6):
            roll_id = await new_roll(db, G, C + round_number, U, FIRST, NOW)
            stores = [db, second] * 5
            keeps = (store.rolls.keep(roll_id, U, NOW, LIFETIME) for store in stores)
            answers = await asyncio.gather(*(claim(store, roll_id) for store in stores), *keeps)
            [won] = [answer for answer in answers if answer.refusal is None]
            stored = await db.rolls.get(roll_id)
            assert stored.state is (RollState.PUSHED if won.willpower else RollState.KEPT)
            pushed += stored.state is RollState.PUSHED
    finally:
        await second.close()
    assert await db.willpower.get(G, U) == pushed  # one point per push that won, none for a keep


async def test_the_roll_just_before_a_new_one_and_the_rolls_expiring_with_a_message(db: Storage):
    older = await new_roll(db, G, C, U, FIRST, NOW - LIFETIME * 2)
    previous = await new_roll(db, G, C, U, FIRST, NOW)
    newest = await new_roll(db, G, C, U, FIRST, NOW)
    assert (await superseded_by(db, newest, G, C, U)).id == previous
    assert await superseded_by(db, previous, G, C + 1, U) is None
    lonely = await new_roll(db, G, C + 1, OTHER, FIRST, NOW - LIFETIME * 2)
    db.rolls.messages.note(older, C, 11)
    db.rolls.messages.note(lonely, C + 1, 12)
    await db.rolls.messages.flush()
    # `older` was superseded by being older; `lonely` expired pending with its buttons still showing
    assert [roll.id for roll in await db.rolls.expiring(NOW, LIFETIME, 10)] == [lonely]


async def test_the_expiring_lookup_walks_past_a_busy_players_rolls_a_round_at_a_time(db: Storage):
    """Issue 18: the lookup reads PURGE_BATCH rolls per statement; a roll still showing its buttons behind one
    player's many superseded rolls is found in a later round, and the busy player's newest is found too."""
    busy = [await new_roll(db, G, C, U, FIRST, NOW - LIFETIME * 2) for _ in range(PURGE_BATCH + 20)]
    lonely = await new_roll(db, G, C + 1, OTHER, FIRST, NOW - LIFETIME * 2)
    for roll_id in busy:
        db.rolls.messages.note(roll_id, C, 10_000 + roll_id)
    db.rolls.messages.note(lonely, C + 1, 9)
    await db.rolls.messages.flush()
    assert [roll.id for roll in await db.rolls.expiring(NOW, LIFETIME, 10)] == [busy[-1], lonely]
    assert [roll.id for roll in await db.rolls.expiring(NOW, LIFETIME, 1)] == [busy[-1]]


async def test_the_purge_deletes_in_batches_until_nothing_expired_is_left(db: Storage):
    expired = [await new_roll(db, G, C + n, U, FIRST, NOW - LIFETIME * 2) for n in range(7)]
    fresh = await new_roll(db, G, C, OTHER, FIRST, NOW)
    assert await db.store.purge("yz_rolls", NOW - LIFETIME, batch=3) == 7  # 3 + 3 + 1
    assert [await db.rolls.get(roll) for roll in expired] == [None] * 7
    assert await purge_store(db, NOW, LIFETIME) == 0 and await db.rolls.get(fresh) is not None


# --- told = stored: repeats, withdrawals, refusals of rolls gone ------------------------------------


async def test_a_repeated_supersede_supersedes_nothing_newer(db: Storage):
    older = await new_roll(db, G, C, U, FIRST, NOW)
    [superseded] = await db.rolls.supersede(G, C, U, interaction_id=77)
    assert superseded.id == older
    newer = await new_roll(db, G, C, U, FIRST, NOW)
    assert await db.rolls.supersede(G, C, U, interaction_id=77) == []  # a replay of the first
    assert (await db.rolls.latest_pending(G, C, U, NOW, LIFETIME)).id == newer


async def test_only_a_roll_never_shown_nor_pushed_is_withdrawn_and_the_one_before_is_latest_again(db: Storage):
    shown = await new_roll(db, G, C, U, FIRST, NOW)
    db.rolls.messages.note(shown, C, 11)
    unshown = await new_roll(db, G, C, U, FIRST, NOW)
    assert await db.rolls.withdraw(unshown) and await db.rolls.get(unshown) is None
    assert (await db.rolls.latest_pending(G, C, U, NOW, LIFETIME)).id == shown
    assert not await db.rolls.withdraw(shown) and await db.rolls.get(shown) is not None
    pushed = await new_roll(db, G, C + 1, U, FIRST, NOW)
    assert (await claim(db, pushed)).refusal is None
    assert not await db.rolls.withdraw(pushed) and not await db.rolls.withdraw(unshown)


async def test_a_keep_of_a_roll_gone_or_never_given_is_refused_by_why(db: Storage):
    old = await new_roll(db, G, C, U, FIRST, NOW - LIFETIME * 2)
    assert (await db.rolls.keep(old, U, NOW, LIFETIME)).refusal is PushRefusal.EXPIRED
    await db.store.purge("yz_rolls", NOW - LIFETIME)
    for roll_id, why in ((old, PushRefusal.EXPIRED), (old + 1, PushRefusal.UNKNOWN), (2**70, PushRefusal.UNKNOWN)):
        answer = await db.rolls.keep(roll_id, U, NOW, LIFETIME)
        assert (answer.roll, answer.refusal) == (None, why)


async def test_a_repeated_push_of_a_roll_purged_since_is_told_it_expired(db: Storage):
    roll_id = await new_roll(db, G, C, U, FIRST, NOW - LIFETIME + timedelta(seconds=1))
    first = await db.rolls.claim_push(roll_id, U, PUSHED, 1, NOW, LIFETIME, interaction_id=78)
    assert first.refusal is None
    await db.store.purge("yz_rolls", NOW + timedelta(seconds=2) - LIFETIME)
    repeat = await db.rolls.claim_push(roll_id, U, PUSHED, 1, NOW, LIFETIME, interaction_id=78)
    assert (repeat.roll, repeat.refusal) == (None, PushRefusal.EXPIRED)
    assert await db.willpower.get(G, U) == 1
