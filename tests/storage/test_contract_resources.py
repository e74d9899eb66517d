"""Resource ratings on both databases: a change is a compare-and-set applied once per interaction, stored with its
log entry; a withdrawal takes it back only while nothing changed it since."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from datetime import UTC, datetime

from bot.storage.resources import RatingChange
from bot.storage.roll_log import NewEntry
from tests.storage.reading import outcome

G, C, U = 1111, 2222, 3333
FOOD = (G, U, "food")
NOW = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)


def entry(reading: str = "❌ Food steps down · D6") -> NewEntry:
    return NewEntry(G, C, U, "resources", "food", reading, "3/4:0", {"before": 8, "after": 6})


async def test_a_change_is_a_compare_and_set_kept_per_place_and_player(db):
    assert await db.resources.ratings(G, U) == {}
    assert await db.resources.change(FOOD, RatingChange(0, 8), NOW, interaction_id=1) == RatingChange(0, 8)
    assert await db.resources.change(FOOD, RatingChange(6, 12), NOW, interaction_id=2) is None  # it is 8, not 6
    assert await db.resources.change((G, U, "water"), RatingChange(0, 6), NOW, interaction_id=3) is not None
    assert await db.resources.ratings(G, U) == {"food": 8, "water": 6}
    assert await db.resources.ratings(G + 1, U) == {} and await db.resources.ratings(G, U + 1) == {}
    assert await outcome(db, 2) is None  # refused: nothing applied


async def test_a_roll_is_stored_with_its_log_entry_once(db):
    await db.resources.change(FOOD, RatingChange(0, 8), NOW, interaction_id=1)
    rolled = await db.resources.change(FOOD, RatingChange(8, 6, face=2), NOW, interaction_id=7, log=entry())
    assert rolled is not None and (rolled.before, rolled.after, rolled.face) == (8, 6, 2)
    logged = await db.log.get(rolled.entry_id)
    assert (logged.system, logged.kind, logged.events, logged.reading) == ("resources", "food", ("3/4:0",),
                                                                          "❌ Food steps down · D6")
    again = await db.resources.change(FOOD, RatingChange(6, 6, face=5), NOW, interaction_id=7, log=entry("other"))
    assert again == rolled and await outcome(db, 7) == asdict(rolled)  # the first roll, nothing more stored
    assert await db.resources.ratings(G, U) == {"food": 6} and len(await db.log.page(G, C, U)) == 1


async def test_racing_rolls_from_one_rating_store_one(db):
    await db.resources.change(FOOD, RatingChange(0, 10), NOW, interaction_id=1)
    tries = [db.resources.change(FOOD, RatingChange(10, 8, face=1), NOW, interaction_id=100 + n, log=entry())
             for n in range(6)]
    stored = [change for change in await asyncio.gather(*tries) if change is not None]
    assert len(stored) == 1 and await db.resources.ratings(G, U) == {"food": 8}
    assert len(await db.log.page(G, C, U)) == 1


async def test_a_withdrawal_takes_back_only_what_nothing_changed_since(db):
    await db.resources.change(FOOD, RatingChange(0, 8), NOW, interaction_id=1)
    rolled = await db.resources.change(FOOD, RatingChange(8, 6, face=1), NOW, interaction_id=2, log=entry())
    assert await db.resources.withdraw(FOOD, rolled, interaction_id=2)
    assert await db.resources.ratings(G, U) == {"food": 8} and await db.log.page(G, C, U) == []
    assert await outcome(db, 2) is None  # forgotten: a repeat would roll anew
    rolled = await db.resources.change(FOOD, RatingChange(8, 6, face=2), NOW, interaction_id=3, log=entry())
    await db.resources.change(FOOD, RatingChange(6, 12), NOW, interaction_id=4)  # shown since, counting the roll
    assert not await db.resources.withdraw(FOOD, rolled, interaction_id=3)
    assert await db.resources.ratings(G, U) == {"food": 12} and len(await db.log.page(G, C, U)) == 1
