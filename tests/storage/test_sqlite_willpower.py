"""Willpower in a real SQLite file: 0 to 10, clamped in SQL, refused spends change nothing."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from functools import partial
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app.opening import open_sqlite
from bot.errors import PlayerError
from bot.storage.errors import InvalidValue, NotEnoughWillpower
from bot.storage.sqlite import Database
from tests.storage.reading import add_willpower

G, U = 1111, 3333


@pytest.fixture
async def db(tmp_path: Path):
    async with await open_sqlite(tmp_path / "db.sqlite3", busy_timeout_ms=200) as database:
        yield database


async def test_willpower_starts_at_zero_and_clamps_at_ten(db: Database):
    assert await db.willpower.get(G, U) == 0
    first = await add_willpower(db, G, U, 7)
    second = await add_willpower(db, G, U, 7)
    assert (first.before, first.after, first.lost) == (0, 7, 0)
    assert (second.before, second.after, second.lost, second.gained) == (7, 10, 4, 3)
    assert await db.willpower.get(G, U) == 10
    assert await db.willpower.get(G, U + 1) == 0 and await db.willpower.get(G + 1, U) == 0


async def test_spend_refusal_changes_nothing(db: Database):
    await db.willpower.set(G, U, 2)
    with pytest.raises(NotEnoughWillpower) as caught:
        await db.willpower.spend(G, U, 3)
    assert str(caught.value) == "You have 2 Willpower; you cannot spend 3."
    assert await db.willpower.get(G, U) == 2
    spent = await db.willpower.spend(G, U, 2)
    assert (spent.before, spent.after) == (2, 0)
    with pytest.raises(NotEnoughWillpower, match="You have 0 Willpower"):
        await db.willpower.spend(G, U, 1)


@pytest.mark.parametrize(
    ("call", "amount"), [("set", 11), ("set", -1), ("spend", 0), ("add", -2), ("set", 2.5)]
)
async def test_bad_amounts_are_refused_before_sql(db: Database, call: str, amount):
    changes = {"set": db.willpower.set, "spend": db.willpower.spend, "add": partial(add_willpower, db)}
    with pytest.raises(InvalidValue):
        await changes[call](G, U, amount)
    assert await db.willpower.get(G, U) == 0


async def test_the_table_itself_refuses_values_outside_zero_to_ten(db: Database):
    await db.willpower.set(G, U, 10)
    with sqlite3.connect(db.store.path) as other, pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        other.execute("UPDATE willpower SET points = 11")
    assert await db.willpower.get(G, U) == 10


async def test_concurrent_changes_are_all_counted(db: Database):
    await db.willpower.set(G, U, 10)
    spends = await asyncio.gather(*(db.willpower.spend(G, U, 1) for _ in range(10)), return_exceptions=False)
    assert sorted(change.after for change in spends) == list(range(10))
    gains = await asyncio.gather(*(add_willpower(db, G, U, 1) for _ in range(15)))
    assert sum(change.gained for change in gains) == 10 and sum(change.lost for change in gains) == 5


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["add", "spend", "set"]), st.integers(0, 12)), max_size=12))
def test_willpower_follows_a_clamped_model(tmp_path: Path, steps):
    async def run() -> None:
        path = tmp_path / f"model-{time.monotonic_ns()}.sqlite3"
        async with await open_sqlite(path) as database:
            model = 0
            for call, amount in steps:
                model = await _step(database, model, call, amount)
                assert await database.willpower.get(G, U) == model

    asyncio.run(run())


async def _step(database: Database, model: int, call: str, amount: int) -> int:
    """Apply one step to the database and return what the model says the total now is."""
    if call == "add":
        change = await add_willpower(database, G, U, amount)
        assert change.lost == max(0, model + amount - 10)
        return min(10, model + amount)
    if call == "spend" and 1 <= amount <= model:
        await database.willpower.spend(G, U, amount)
        return model - amount
    if call == "set" and amount <= 10:
        await database.willpower.set(G, U, amount)
        return amount
    with pytest.raises(PlayerError):
        await getattr(database.willpower, call)(G, U, amount)
    return model
