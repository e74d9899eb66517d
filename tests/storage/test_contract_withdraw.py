"""The storage contract for withdrawing a change whose answer never reached the player, on SQLite and PostgreSQL.

A withdrawal puts things back as the change found them and forgets its interaction (a repeat delivery may then
apply it anew), but only while nothing changed them since: a later change was shown counting it, so it stays.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage.database import Storage
from bot.storage.roll_log import NewEntry
from tests.storage.reading import add_willpower, outcome

G, C, U = 1111, 2222, 3333
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
INTERACTION = 1_600_000_000_000_000_001


async def test_a_withdrawn_spend_is_refunded_once_and_a_repeat_may_spend_again(db: Storage):
    await db.willpower.set(G, U, 5)
    await db.willpower.spend(G, U, 2, interaction_id=INTERACTION)
    assert await db.willpower.withdraw_spend(G, U, 2, interaction_id=INTERACTION) is True
    assert await db.willpower.withdraw_spend(G, U, 2, interaction_id=INTERACTION) is False  # refunded once
    assert await db.willpower.get(G, U) == 5 and await outcome(db, INTERACTION) is None
    again = await db.willpower.spend(G, U, 2, interaction_id=INTERACTION)  # a repeat delivery, applied anew
    assert (again.before, again.after) == (5, 3) and await db.willpower.get(G, U) == 3


async def test_two_lost_spends_are_each_refunded_whatever_their_order(db: Storage):
    await db.willpower.set(G, U, 10)
    await db.willpower.spend(G, U, 2, interaction_id=INTERACTION)
    await db.willpower.spend(G, U, 3, interaction_id=INTERACTION + 1)
    assert await db.willpower.withdraw_spend(G, U, 2, interaction_id=INTERACTION) is True
    assert await db.willpower.withdraw_spend(G, U, 3, interaction_id=INTERACTION + 1) is True
    assert await db.willpower.get(G, U) == 10


async def test_a_refund_stops_at_ten(db: Storage):
    await db.willpower.set(G, U, 5)
    await db.willpower.spend(G, U, 2, interaction_id=INTERACTION)
    await add_willpower(db, G, U, 7)  # a push gained meanwhile: 3 + 7 = 10
    assert await db.willpower.withdraw_spend(G, U, 2, interaction_id=INTERACTION) is True
    assert await db.willpower.get(G, U) == 10


async def test_only_an_applied_spend_is_refunded(db: Storage):
    await db.willpower.set(G, U, 5)
    await db.willpower.spend(G, U, 2)  # no interaction id: nothing to withdraw by
    assert await db.willpower.withdraw_spend(G, U, 2, interaction_id=INTERACTION) is False
    assert await db.willpower.get(G, U) == 3


async def test_a_withdrawn_set_restores_what_the_player_had(db: Storage):
    await db.willpower.set(G, U, 2)
    change = await db.willpower.set(G, U, 9, interaction_id=INTERACTION)
    assert await db.willpower.withdraw_set(G, U, change, interaction_id=INTERACTION) is True
    assert await db.willpower.get(G, U) == 2 and await outcome(db, INTERACTION) is None


async def test_a_set_that_a_later_change_built_on_stays(db: Storage):
    await db.willpower.set(G, U, 2)
    change = await db.willpower.set(G, U, 9, interaction_id=INTERACTION)
    await db.willpower.spend(G, U, 1, interaction_id=INTERACTION + 1)  # shown as 9 → 8: it counts the set
    assert await db.willpower.withdraw_set(G, U, change, interaction_id=INTERACTION) is False
    assert await db.willpower.get(G, U) == 8 and await outcome(db, INTERACTION) is not None


async def test_a_withdrawn_extended_roll_takes_its_degrees_back(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 3, fresh=True, interaction_id=INTERACTION)
    await db.extended.record(G, C, "siege", 10, 4, fresh=False, interaction_id=INTERACTION + 1)
    assert await db.extended.withdraw(INTERACTION + 1) is True
    task = await db.extended.get(G, C, "Siege")
    assert task is not None and (task.progress, task.needed) == (3, 10)
    assert await outcome(db, INTERACTION + 1) is None and await outcome(db, INTERACTION) is not None


async def test_a_withdrawn_roll_that_started_a_task_takes_the_task_away(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 3, fresh=True, interaction_id=INTERACTION)
    assert await db.extended.withdraw(INTERACTION) is True
    assert await db.extended.get(G, C, "Siege") is None


async def test_a_withdrawn_restart_gives_the_task_back_as_it_was(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 6, fresh=True, started_by=U, interaction_id=INTERACTION)
    await db.extended.record(G, C, "Siege", 4, 1, fresh=True, started_by=U + 1, interaction_id=INTERACTION + 1)
    assert await db.extended.withdraw(INTERACTION + 1) is True
    task = await db.extended.get(G, C, "Siege")
    assert task is not None and (task.progress, task.needed, task.started_by) == (6, 10, U)


async def test_two_lost_extended_rolls_each_take_back_their_own_degrees(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 1, fresh=True, interaction_id=INTERACTION)
    await db.extended.record(G, C, "Siege", 10, 4, fresh=False, interaction_id=INTERACTION + 1)
    await db.extended.record(G, C, "Siege", 10, 2, fresh=False, interaction_id=INTERACTION + 2)
    assert await db.extended.withdraw(INTERACTION + 1) is True
    assert await db.extended.withdraw(INTERACTION + 2) is True
    assert await db.extended.withdraw(INTERACTION + 2) is False  # taken back once
    task = await db.extended.get(G, C, "Siege")
    assert task is not None and task.progress == 1


async def test_a_lost_roll_that_finished_its_task_takes_its_degrees_back(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 3, fresh=True, interaction_id=INTERACTION)
    await db.extended.record(G, C, "Siege", 10, 8, fresh=False, interaction_id=INTERACTION + 1)
    assert await db.extended.withdraw(INTERACTION + 1) is True
    task = await db.extended.get(G, C, "Siege")
    assert task is not None and (task.progress, task.complete) == (3, False)


async def test_a_roll_that_a_later_roll_finished_the_task_on_top_of_stays(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 3, fresh=True, interaction_id=INTERACTION)
    await db.extended.record(G, C, "Siege", 10, 4, fresh=False, interaction_id=INTERACTION + 1)
    await db.extended.record(G, C, "Siege", 10, 5, fresh=False, interaction_id=INTERACTION + 2)  # shown complete
    assert await db.extended.withdraw(INTERACTION + 1) is False
    task = await db.extended.get(G, C, "Siege")
    assert task is not None and task.progress == 12 and task.complete


async def test_a_restart_that_a_later_roll_built_on_stays(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 6, fresh=True, interaction_id=INTERACTION)
    await db.extended.record(G, C, "Siege", 4, 1, fresh=True, interaction_id=INTERACTION + 1)
    await db.extended.record(G, C, "Siege", 4, 2, fresh=False, interaction_id=INTERACTION + 2)
    assert await db.extended.withdraw(INTERACTION + 1) is False
    task = await db.extended.get(G, C, "Siege")
    assert task is not None and (task.progress, task.needed) == (3, 4)


async def test_only_an_applied_extended_roll_can_be_withdrawn(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 3, fresh=True)  # no interaction id: nothing to withdraw by
    assert await db.extended.withdraw(INTERACTION) is False
    task = await db.extended.get(G, C, "Siege")
    assert task is not None and task.progress == 3


async def test_a_withdrawn_log_entry_is_gone_and_others_stay(db: Storage):
    entry = NewEntry(G, C, U, "sevenkingdoms", "extended", "3 degrees", "", {}, True, {"title": "Hit"})
    kept = await db.log.write(entry, NOW, interaction_id=INTERACTION)
    lost = await db.log.write(entry, NOW, interaction_id=INTERACTION + 1)
    assert await db.log.withdraw(lost) is True and await db.log.withdraw(lost) is False
    assert await db.log.get(lost) is None and await db.log.get(kept) is not None
