"""The storage contract for withdrawing a change whose answer never reached the player, on SQLite and PostgreSQL.

A withdrawal puts things back as the change found them and forgets its interaction (a repeat delivery may then
apply it anew), but only while nothing changed them since: a later change was shown counting it, so it stays.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage import Storage
from bot.storage.roll_log import NewEntry

G, C, U = 1111, 2222, 3333
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
INTERACTION = 1_600_000_000_000_000_001


async def test_a_withdrawn_spend_gives_the_points_back_and_a_repeat_may_spend_them_again(db: Storage):
    await db.willpower.set(G, U, 5)
    spent = await db.willpower.spend(G, U, 2, interaction_id=INTERACTION)
    assert await db.willpower.withdraw(G, U, spent, interaction_id=INTERACTION) is True
    assert await db.willpower.get(G, U) == 5 and await db.applied.outcome(INTERACTION) is None
    again = await db.willpower.spend(G, U, 2, interaction_id=INTERACTION)  # a repeat delivery, applied anew
    assert (again.before, again.after) == (5, 3) and await db.willpower.get(G, U) == 3


async def test_a_withdrawn_set_restores_what_the_player_had(db: Storage):
    await db.willpower.set(G, U, 2)
    change = await db.willpower.set(G, U, 9, interaction_id=INTERACTION)
    assert await db.willpower.withdraw(G, U, change, interaction_id=INTERACTION) is True
    assert await db.willpower.get(G, U) == 2


async def test_a_willpower_change_counted_by_a_later_one_stays(db: Storage):
    await db.willpower.set(G, U, 5)
    spent = await db.willpower.spend(G, U, 2, interaction_id=INTERACTION)
    await db.willpower.spend(G, U, 1, interaction_id=INTERACTION + 1)  # shown as 3 → 2: it counts the first
    assert await db.willpower.withdraw(G, U, spent, interaction_id=INTERACTION) is False
    assert await db.willpower.get(G, U) == 2 and await db.applied.outcome(INTERACTION) is not None


async def test_a_withdrawn_extended_roll_takes_its_degrees_back(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 3, fresh=True, interaction_id=INTERACTION)
    await db.extended.record(G, C, "siege", 10, 4, fresh=False, interaction_id=INTERACTION + 1)
    assert await db.extended.withdraw(INTERACTION + 1) is True
    task = await db.extended.get(G, C, "Siege")
    assert task is not None and (task.progress, task.needed) == (3, 10)
    assert await db.applied.outcome(INTERACTION + 1) is None and await db.applied.outcome(INTERACTION) is not None


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


async def test_an_extended_roll_counted_by_a_later_roll_stays(db: Storage):
    await db.extended.record(G, C, "Siege", 10, 3, fresh=True, interaction_id=INTERACTION)
    await db.extended.record(G, C, "Siege", 10, 2, fresh=False, interaction_id=INTERACTION + 1)
    assert await db.extended.withdraw(INTERACTION) is False
    task = await db.extended.get(G, C, "Siege")
    assert task is not None and task.progress == 5


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
