"""Who started an extended test (migration V4): kept by a restart, filled in for a task that had none."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app.opening import open_sqlite
from tests.storage.reading import start_task

G, C, ALICE, BOB = 1111, 2222, 3333, 4444


@pytest.fixture
async def db(tmp_path: Path):
    async with await open_sqlite(tmp_path / "rollkeeper.sqlite3") as database:
        yield database


async def test_the_first_roll_names_the_starter_and_a_restart_keeps_them(db):
    started = await db.extended.record(G, C, "Siege", 10, 2, fresh=True, started_by=ALICE)
    assert started.started_by == ALICE and started.progress == 2
    restarted = await db.extended.record(G, C, "siege", 8, 0, fresh=True, started_by=BOB)
    assert (restarted.started_by, restarted.needed, restarted.progress) == (ALICE, 8, 0)
    added = await db.extended.record(G, C, "Siege", 8, 3, fresh=False, started_by=BOB)
    assert added.started_by == ALICE and (await db.extended.get(G, C, "SIEGE")).started_by == ALICE


async def test_a_task_without_a_starter_takes_the_one_who_restarts_it(db):
    old = await start_task(db, G, C, "Old task", 3)  # as a task from before V4 reads
    assert old.started_by is None
    restarted = await start_task(db, G, C, "Old task", 3, started_by=BOB)
    assert restarted.started_by == BOB
    assert [task.started_by for task in await db.extended.in_channel(G, C)] == [BOB]
