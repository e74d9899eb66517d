"""The storage contract for Willpower, extended tests, meta, the servers' languages and migrations, on SQLite and on
PostgreSQL."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from functools import partial

import pytest

from bot.app.opening import open_sqlite
from bot.storage import meta
from bot.storage.database import Storage
from bot.storage.errors import InvalidValue, NoSuchExtendedTest, NotEnoughWillpower, TaskComplete
from rules.sevenkingdoms.extended import still_needed
from tests.storage.reading import add_degrees, add_willpower, delete_meta, schema_version, start_task

G, C, U = 1111, 2222, 3333


# --- Willpower ----------------------------------------------------------------------------------------


async def test_willpower_starts_at_zero_and_each_change_reports_before_and_after(db: Storage):
    assert await db.willpower.get(G, U) == 0
    assert asdict(await add_willpower(db, G, U, 4)) == {"before": 0, "after": 4, "lost": 0}
    assert asdict(await db.willpower.spend(G, U, 3)) == {"before": 4, "after": 1, "lost": 0}
    assert asdict(await db.willpower.set(G, U, 7)) == {"before": 1, "after": 7, "lost": 0}
    assert asdict(await add_willpower(db, G, U, 5)) == {"before": 7, "after": 10, "lost": 2}
    assert await db.willpower.get(G, U) == 10
    assert await db.willpower.get(G + 1, U) == 0  # kept per server


async def test_a_spend_beyond_what_the_player_has_changes_nothing(db: Storage):
    await db.willpower.set(G, U, 2)
    with pytest.raises(NotEnoughWillpower) as refused:
        await db.willpower.spend(G, U, 3)
    assert refused.value.values == {"have": 2, "wanted": 3}
    assert await db.willpower.get(G, U) == 2


@pytest.mark.parametrize(
    ("change", "points"),
    [("set", 11), ("set", -1), ("set", True), ("spend", 0), ("spend", -2), ("add", -1), ("add", 1.5)],
)
async def test_willpower_outside_its_bounds_is_refused_before_storing(db: Storage, change, points):
    await db.willpower.set(G, U, 5)
    changes = {"set": db.willpower.set, "spend": db.willpower.spend, "add": partial(add_willpower, db)}
    with pytest.raises(InvalidValue):
        await changes[change](G, U, points)
    assert await db.willpower.get(G, U) == 5


async def test_racing_spends_through_two_stores_never_go_below_zero(db: Storage, open_db):
    second = await open_db()
    try:
        await db.willpower.set(G, U, 5)
        spends = [store.willpower.spend(G, U, 1) for store in [db, second] * 6]
        results = await asyncio.gather(*spends, return_exceptions=True)
    finally:
        await second.close()
    assert sum(not isinstance(result, BaseException) for result in results) == 5
    assert all(isinstance(result, NotEnoughWillpower) for result in results if isinstance(result, BaseException))
    assert await db.willpower.get(G, U) == 0


async def test_racing_gains_through_two_stores_add_up_and_stop_at_ten(db: Storage, open_db):
    second = await open_db()
    try:
        results = await asyncio.gather(*(add_willpower(store, G, U, 1) for store in [db, second] * 6))
    finally:
        await second.close()
    assert sorted(result.after for result in results) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10]
    assert sum(result.lost for result in results) == 2
    assert await db.willpower.get(G, U) == 10


# --- extended tests -----------------------------------------------------------------------------------


async def test_an_extended_test_counts_degrees_until_complete_and_names_match_whatever_their_case(db: Storage):
    started = await start_task(db, G, C, "  Climb   the Wall ", 5)
    assert (started.name, started.needed, started.progress, started.complete) == ("Climb the Wall", 5, 0, False)
    assert (await add_degrees(db, G, C, "climb the wall", 2)).progress == 2
    done = await db.extended.record(G, C, "CLIMB THE WALL", 5, 3, fresh=False)
    assert (done.progress, done.complete, still_needed(done.needed, done.progress)) == (5, True, 0)
    with pytest.raises(TaskComplete):
        await db.extended.record(G, C, "Climb the wall", 5, 1, fresh=False)
    assert (await db.extended.get(G, C, "climb THE wall")).progress == 5


async def test_restarting_an_extended_test_resets_it_and_keeps_the_name_as_last_typed(db: Storage):
    await start_task(db, G, C, "wall", 5)
    await add_degrees(db, G, C, "wall", 4)
    restarted = await db.extended.record(G, C, "WALL", 3, 1, fresh=True)
    assert (restarted.name, restarted.needed, restarted.progress) == ("WALL", 3, 1)
    assert [task.name for task in await db.extended.in_channel(G, C)] == ["WALL"]


async def test_an_extended_test_keeps_who_first_started_it_through_restarts(db: Storage):
    assert (await start_task(db, G, C, "wall", 5, started_by=U)).started_by == U
    assert (await start_task(db, G, C, "WALL", 3, started_by=U + 1)).started_by == U  # a restart keeps them
    assert (await db.extended.record(G, C, "wall", 3, 1, fresh=True, started_by=U + 2)).started_by == U
    assert (await db.extended.record(G, C, "gate", 3, 1, fresh=True, started_by=U + 1)).started_by == U + 1
    assert (await start_task(db, G, C, "old", 2)).started_by is None
    assert [task.started_by for task in await db.extended.in_channel(G, C)] == [U + 1, None, U]


async def test_a_missing_extended_test_is_refused_and_clear_forgets_one(db: Storage):
    with pytest.raises(NoSuchExtendedTest):
        await add_degrees(db, G, C, "nothing", 1)
    with pytest.raises(NoSuchExtendedTest):
        await db.extended.record(G, C, "nothing", 3, 1, fresh=False)
    await start_task(db, G, C, "b task", 2)
    await start_task(db, G, C, "A task", 2)
    await start_task(db, G, C + 1, "elsewhere", 2)
    assert [task.name for task in await db.extended.in_channel(G, C)] == ["A task", "b task"]
    assert await db.extended.clear(G, C, "a TASK") is True
    assert await db.extended.clear(G, C, "a task") is False
    assert await db.extended.get(G, C, "A task") is None


@pytest.mark.parametrize(("name", "needed"), [("", 3), ("x" * 101, 3), ("ok", 0), ("ok", 2**31)])
async def test_a_bad_extended_test_is_refused_before_storing(db: Storage, name, needed):
    with pytest.raises(InvalidValue):
        await start_task(db, G, C, name, needed)
    assert await db.extended.in_channel(G, C) == []


async def test_two_rolls_racing_for_the_last_degrees_through_two_stores_count_once(db: Storage, open_db):
    await start_task(db, G, C, "gate", 3)
    await add_degrees(db, G, C, "gate", 2)
    second = await open_db()
    try:
        rolls = [store.extended.record(G, C, "gate", 3, 2, fresh=False) for store in [db, second] * 4]
        results = await asyncio.gather(*rolls, return_exceptions=True)
    finally:
        await second.close()
    counted = [result for result in results if not isinstance(result, BaseException)]
    assert len(counted) == 1 and counted[0].progress == 4
    assert all(isinstance(result, TaskComplete) for result in results if isinstance(result, BaseException))


async def test_racing_adds_through_two_stores_all_count_and_a_refused_roll_starts_nothing(db: Storage, open_db):
    await start_task(db, G, C, "siege", 100)
    second = await open_db()
    try:
        stores = [db, second] * 5
        adds = [add_degrees(store, G, C, "SIEGE", degrees) for store, degrees in zip(stores, range(1, 11), strict=True)]
        await asyncio.gather(*adds)
    finally:
        await second.close()
    assert (await db.extended.get(G, C, "siege")).progress == 55
    with pytest.raises(NoSuchExtendedTest):
        await db.extended.record(G, C, "nowhere", 4, 1, fresh=False)
    with pytest.raises(InvalidValue):
        await db.extended.record(G, C, "siege", 0, 1, fresh=True)
    assert await db.extended.get(G, C, "nowhere") is None and (await db.extended.get(G, C, "siege")).needed == 100


# --- the servers' chosen languages ----------------------------------------------------------------------


async def test_a_servers_language_is_kept_replaced_and_forgotten(db: Storage):
    big = 2**62  # a Discord id past 32 bits
    assert await db.languages.get(G) is None
    await db.languages.set(G, "de")
    await db.languages.set(big, "sv_SE")
    await db.languages.set(G, "fr")
    assert (await db.languages.get(G), await db.languages.get(big)) == ("fr", "sv_SE")
    await db.languages.set(G, None)
    await db.languages.set(G, None)  # forgetting twice is harmless
    assert (await db.languages.get(G), await db.languages.get(big)) == (None, "sv_SE")


async def test_a_servers_language_is_read_once_a_minute_and_another_process_sees_a_change_then(
    db: Storage, open_db, monkeypatch
):
    other = await open_db()  # a second bot process (another shard) on the same store
    try:
        assert await db.languages.get(G) is None
        await other.languages.set(G, "de")
        assert await db.languages.get(G) is None  # remembered: a roll asks the store no more than once a minute
        monkeypatch.setattr(meta, "REMEMBERED_FOR", 0.0)
        assert await db.languages.get(G) == "de"  # the minute has passed
    finally:
        await other.close()


# --- meta and migrations ------------------------------------------------------------------------------


async def test_meta_keeps_one_value_per_key(db: Storage):
    assert await db.meta.get("commands_hash:1") is None
    await db.meta.set("commands_hash:1", "abc")
    await db.meta.set("commands_hash:1", "déf")
    assert await db.meta.get("commands_hash:1") == "déf"
    assert await delete_meta(db, "commands_hash:1") is True
    assert await delete_meta(db, "commands_hash:1") is False


async def test_the_schema_is_at_the_last_migration_and_reopening_applies_nothing_twice(db, open_db, migrations):
    assert await schema_version(db) == len(migrations)
    await db.willpower.set(G, U, 3)
    again = await open_db()
    try:
        assert await schema_version(again) == len(migrations)
        assert await again.willpower.get(G, U) == 3
    finally:
        await again.close()


async def test_stores_opened_at_once_migrate_the_database_once(open_db, migrations):
    stores = await asyncio.gather(*(open_db() for _ in range(4)))
    try:
        assert [await schema_version(store) for store in stores] == [len(migrations)] * 4
    finally:
        for store in stores:
            await store.close()


async def test_a_database_newer_than_the_code_is_refused_by_name(db, kind, tmp_path, request, migrations):
    """An older rollkeeper started on a database a newer one migrated: a clear error, nothing changed."""
    from bot.storage.errors import StorageError
    from bot.storage.postgres import PostgresDatabase

    older = migrations[:-1] if len(migrations) > 1 else []
    with pytest.raises(StorageError, match="newer than this rollkeeper knows"):
        if kind == "sqlite":
            await open_sqlite(tmp_path / "contract.sqlite3", migrations=older)
        else:
            await PostgresDatabase.open(request.getfixturevalue("postgres_url"), migrations=older)
    assert await schema_version(db) == len(migrations)
