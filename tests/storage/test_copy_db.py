"""`python -m bot copy-db`: a SQLite database copied into PostgreSQL, idempotently, ids and states kept."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from bot.app.copying import copy_database
from bot.app.opening import open_sqlite
from bot.storage.postgres import PostgresDatabase
from bot.storage.roll_records import PushRefusal, RollState
from tests.storage.reading import add_degrees, new_roll, outcome, start_task

G, C, U, OTHER = 1111, 2222, 3333, 4444
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
LIFETIME = timedelta(hours=24)


async def a_game_night(path) -> dict[str, int]:
    """A SQLite database with a purged roll, a pushed one, a superseded one, a pending one and every other table."""
    async with await open_sqlite(path) as db:
        await new_roll(db, G, C, U, '{"old": true}', NOW - LIFETIME * 2)
        await db.store.purge("yz_rolls", NOW - LIFETIME)
        pushed = await new_roll(db, G, C, OTHER, '{"n": 1}', NOW)
        await db.rolls.claim_push(pushed, OTHER, '{"n": 2}', 2, NOW, LIFETIME)
        superseded = await new_roll(db, G, C, U, '{"n": 3}', NOW)
        pending = await new_roll(db, G, C, U, '{"n": 4}', NOW)
        db.rolls.messages.note(pending, C, 987654321)
        await db.willpower.set(G, U, 7, interaction_id=1_500_000_000_000_000_007)
        await start_task(db, G, C, "Climb the Wall", 5, started_by=OTHER)
        await add_degrees(db, G, C, "climb the wall", 2)
        await db.meta.set("commands_hash:1", "abc")
    return {"pushed": pushed, "superseded": superseded, "pending": pending}


async def test_copying_keeps_ids_states_and_every_table_and_a_second_copy_changes_nothing(tmp_path, postgres_url):
    source = tmp_path / "rollkeeper.sqlite3"
    ids = await a_game_night(source)
    for _ in range(2):
        async with await open_sqlite(source) as sqlite, await PostgresDatabase.open(postgres_url) as postgres:
            counts = await copy_database(sqlite, postgres)
        assert counts == {
            "yz_rolls": 3, "willpower": 2, "extended_tests": 1, "meta": 1, "applied_interactions": 1, "roll_log": 0
        }
    async with await PostgresDatabase.open(postgres_url) as db:
        assert (await db.rolls.get(ids["pushed"])).state is RollState.PUSHED
        assert (await db.rolls.get(ids["superseded"])).state is RollState.SUPERSEDED
        pending = await db.rolls.latest_pending(G, C, U, NOW, LIFETIME)
        assert (pending.id, pending.payload, pending.message_id) == (ids["pending"], '{"n": 4}', 987654321)
        assert (await db.willpower.get(G, U), await db.willpower.get(G, OTHER)) == (7, 2)
        task = await db.extended.get(G, C, "CLIMB THE WALL")
        assert (task.progress, task.started_by) == (2, OTHER)
        assert await db.meta.get("commands_hash:1") == "abc"
        assert await outcome(db, 1_500_000_000_000_000_007) == {"before": 0, "after": 7, "lost": 0}
        assert await db.rolls.refusal_for_missing(1) is PushRefusal.EXPIRED  # the purged roll's id stays spent
        assert await new_roll(db, G, C, U, "{}", NOW) == ids["pending"] + 1
        claim = await db.rolls.claim_push(ids["pending"], U, "{}", 1, NOW, LIFETIME)
        assert claim.refusal is PushRefusal.SUPERSEDED  # by the roll just stored in PostgreSQL


def copy_db(tmp_path, *arguments: str) -> subprocess.CompletedProcess[str]:
    environ = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)}
    return subprocess.run(
        (sys.executable, "-m", "bot", "copy-db", *arguments),
        cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=60, check=False,
    )


async def test_the_command_copies_and_says_how_many_rows(tmp_path, postgres_url):
    await a_game_night(tmp_path / "game.sqlite3")
    result = copy_db(tmp_path, "--from", "sqlite:///game.sqlite3", "--to", postgres_url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "yz_rolls: 3 rows copied", "willpower: 2 rows copied", "extended_tests: 1 rows copied", "meta: 1 rows copied",
        "applied_interactions: 1 rows copied", "roll_log: 0 rows copied",
    ]
    async with await PostgresDatabase.open(postgres_url) as db:
        assert await db.willpower.get(G, U) == 7


@pytest.mark.parametrize(
    ("source", "target", "said"),
    [
        ("sqlite:///missing.sqlite3", "postgresql://postgres@/x?host=/nowhere", "names no SQLite database"),
        ("sqlite:///game.sqlite3", "mysql://u:hunter2@h/x", "--to must be a PostgreSQL URL"),
        ("sqlite:///game.sqlite3", "postgresql://u:hunter2@127.0.0.1:1/x", "127.0.0.1:1"),
    ],
)
async def test_a_database_it_cannot_use_is_named_in_one_line_and_nothing_is_copied(tmp_path, source, target, said):
    await a_game_night(tmp_path / "game.sqlite3")
    result = copy_db(tmp_path, "--from", source, "--to", target)
    assert result.returncode == 2 and said in result.stderr
    assert "hunter2" not in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "missing.sqlite3").exists()


async def test_without_asyncpg_the_command_says_what_to_install(tmp_path):
    await a_game_night(tmp_path / "game.sqlite3")
    script = (
        "import sys; sys.modules['asyncpg'] = None\n"  # as if the postgres extra were not installed
        "sys.argv = ['bot', 'copy-db', '--from', 'sqlite:///game.sqlite3', '--to', 'postgresql://u@h/x']\n"
        "from bot.__main__ import main\n"
        "sys.exit(main())\n"
    )
    result = subprocess.run(
        (sys.executable, "-c", script), cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False
    )
    assert (result.returncode, result.stderr.strip()) == (2, 'copy-db needs asyncpg: pip install -e ".[postgres]"')


def test_sqlite_urls_name_relative_and_absolute_files():
    from pathlib import Path

    from bot.app.copydb import sqlite_path

    assert sqlite_path("sqlite:////data/rollkeeper.sqlite3") == Path("/data/rollkeeper.sqlite3")
    assert sqlite_path("sqlite:///game.sqlite3") == Path.cwd() / "game.sqlite3"
    assert sqlite_path("/srv/game.sqlite3") == Path("/srv/game.sqlite3")
