"""What PostgreSQL adds to the contract: a server that is bad, unreachable or goes away and comes back, the
migrations' tracking table, and `python -m bot` refusing a DATABASE_URL it cannot use."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest

from bot.settings import database_location
from bot.storage.errors import StorageOffline, StorageUnavailable
from bot.storage.postgres import PostgresDatabase
from bot.storage.roll_records import RollState
from bot.storage.schema import load_migrations
from tests.postgres import PostgresServer
from tests.storage.reading import add_willpower, new_roll

G, C, U = 1111, 2222, 3333
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
LIFETIME = timedelta(hours=24)
PASSWORD = "hunter2-never-shown"


@pytest.fixture(scope="module")
def own_server():
    """A server of this module's own, which the tests stop and start again."""
    server = PostgresServer.start()
    yield server
    server.close()


def test_where_names_host_port_and_database_but_never_the_password():
    assert database_location(f"postgresql://bot:{PASSWORD}@db.example:5433/rolls") == "postgresql://db.example:5433/rolls"
    assert database_location(f"postgres://bot:{PASSWORD}@db.example/rolls?sslmode=require") == "postgresql://db.example/rolls"
    assert database_location("postgresql://postgres@/rolls?host=/run/pg") == "postgresql:///rolls?host=/run/pg"


async def test_an_unreachable_server_is_named_without_the_password():
    with pytest.raises(StorageUnavailable) as refused:
        await PostgresDatabase.open(f"postgresql://bot:{PASSWORD}@127.0.0.1:1/rolls")
    message = str(refused.value)
    assert "127.0.0.1:1" in message and "cannot reach the server" in message
    assert PASSWORD not in message


async def test_a_missing_database_is_named(postgres_server):
    with pytest.raises(StorageUnavailable, match="no such database") as refused:
        await PostgresDatabase.open(postgres_server.url("never_created"))
    assert "/never_created?host=" in str(refused.value)


async def test_migrations_are_recorded_by_number_and_name(postgres_url):
    async with await PostgresDatabase.open(postgres_url) as db, db.store.connection() as connection:
        rows = await connection.fetch("SELECT version, name FROM schema_migrations ORDER BY version")
    expected = [(migration.version, migration.name) for migration in load_migrations("postgres")]
    assert [(row["version"], row["name"]) for row in rows] == expected


async def test_while_the_server_is_away_players_are_told_to_try_again_and_it_reconnects_by_itself(own_server):
    db = await PostgresDatabase.open(own_server.fresh_url())
    try:
        roll_id = await new_roll(db, G, C, U, "{}", NOW)
        await asyncio.to_thread(own_server.stop)
        with pytest.raises(StorageOffline, match="try again"):
            await db.rolls.claim_push(roll_id, U, "{}", 2, NOW, LIFETIME)
        with pytest.raises(StorageOffline):
            await add_willpower(db, G, U, 1)
        await asyncio.to_thread(own_server.resume)
        claim = await _when_back(lambda: db.rolls.claim_push(roll_id, U, "{}", 2, NOW, LIFETIME))
        assert claim.refusal is None and claim.willpower.after == 2  # nothing was half-written while it was away
        assert await db.willpower.get(G, U) == 2
    finally:
        await db.close()


async def _when_back(operation, tries: int = 50):
    """The operation's result once the server answers again (a restarted server takes a moment)."""
    for _ in range(tries):
        try:
            return await operation()
        except StorageOffline:
            await asyncio.sleep(0.2)
    return await operation()


def _run_bot(tmp_path, url: str) -> subprocess.CompletedProcess[str]:
    environ = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "DISCORD_TOKEN": "fake-token.x.y"}
    return subprocess.run(
        (sys.executable, "-m", "bot"),
        cwd=tmp_path,
        env=environ | {"DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("url", "named"),
    [
        (f"postgresql://bot:{PASSWORD}@127.0.0.1:1/rolls", "127.0.0.1:1"),
        (f"mysql://bot:{PASSWORD}@127.0.0.1/rolls", "DATABASE_URL must be a PostgreSQL URL"),
        (f"postgresql://bot:{PASSWORD}@127.0.0.1:port/rolls", "DATABASE_URL must be a PostgreSQL URL"),
    ],
)
def test_python_m_bot_refuses_a_database_url_it_cannot_use_in_one_line_with_exit_2(tmp_path, url, named):
    result = _run_bot(tmp_path, url)
    assert result.returncode == 2
    assert named in result.stderr and PASSWORD not in result.stderr
    assert "Traceback" not in result.stderr and "\n" not in result.stderr.strip()


async def test_two_processes_claiming_the_same_rolls_at_once_push_each_exactly_once(postgres_url, tmp_path):
    """Two OS processes, each with its own pool, claim the same 200 rolls, started together: every roll is
    pushed once, by one process or the other, and each roller's Willpower rose once."""
    from tests.storage.claimer import NOW as CLAIM_TIME
    from tests.storage.claimer import claim_all

    async with await PostgresDatabase.open(postgres_url) as db:
        rolls = {await new_roll(db, G, C, U + n, "{}", CLAIM_TIME): U + n for n in range(200)}
        go = tmp_path / "go"
        pairs = [f"{roll}:{user}" for roll, user in rolls.items()]
        other = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.storage.claimer", postgres_url, str(go), *pairs, stdout=subprocess.PIPE
        )
        here = asyncio.create_task(claim_all(postgres_url, go, rolls))
        assert await asyncio.wait_for(other.stdout.readline(), 60) == b"ready\n"
        await asyncio.sleep(0.2)  # this process's pool is open too
        go.touch()
        mine, (theirs, _) = await here, await other.communicate()
        won_there = json.loads(theirs.splitlines()[-1])
        assert sorted(mine + won_there) == sorted(rolls)  # each roll won once, by one process or the other
        for roll, user in rolls.items():
            assert await db.willpower.get(G, user) == 1
            assert (await db.rolls.get(roll)).state is RollState.PUSHED
    print(f"rolls won: {len(mine)} here, {len(won_there)} in the other process")


async def test_connections_cut_in_the_middle_of_claims_leave_no_push_without_its_willpower(postgres_server):
    """The server ends every connection of the bot's database (pg_terminate_backend) every few milliseconds while
    claims run in waves: a claim either lands whole (pushed and its Willpower) or not at all, and the pool
    recovers each time."""
    import asyncpg

    url = postgres_server.fresh_url()
    name = urlsplit(url).path.lstrip("/")
    admin = await asyncpg.connect(postgres_server.admin_url)
    async with await PostgresDatabase.open(url) as db:
        rolls = {await new_roll(db, G, C, U + n, "{}", NOW): U + n for n in range(150)}
        cutting = asyncio.create_task(_cut_again_and_again(admin, name))
        results = []
        for wave in range(0, 150, 10):
            batch = list(rolls.items())[wave : wave + 10]
            claims = (db.rolls.claim_push(roll, user, '{"p": 1}', 1, NOW, LIFETIME) for roll, user in batch)
            results += await asyncio.gather(*claims, return_exceptions=True)
        cutting.cancel()
        await admin.close()
        assert [r for r in results if isinstance(r, BaseException) and not isinstance(r, StorageOffline)] == []
        told_pushed = {roll for roll, r in zip(rolls, results, strict=True) if not isinstance(r, BaseException)}
        assert len(told_pushed) < len(rolls), "no claim was cut: the test did not test anything"
        for roll, user in rolls.items():
            stored = await _when_back(lambda roll=roll: db.rolls.get(roll))
            points = await db.willpower.get(G, user)
            assert (stored.state is RollState.PUSHED) == (points == 1), (roll, stored.state, points)
            assert roll not in told_pushed or stored.state is RollState.PUSHED
    print(f"{len(told_pushed)} of {len(rolls)} claims answered, the others told to try again")


async def _cut_again_and_again(admin, database: str) -> None:
    while True:
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            database,
        )
        await asyncio.sleep(0.02)


def test_without_asyncpg_sqlite_needs_nothing_more_and_postgresql_says_what_to_install(tmp_path):
    """asyncpg is an optional extra: the bot on SQLite never imports it; DATABASE_URL without it is one line."""
    script = (
        "import sys; sys.modules['asyncpg'] = None\n"  # as if the postgres extra were not installed
        "import bot.app.client, bot.__main__, cogs.yearzero.cog\n"
        "from bot.storage.errors import StorageUnavailable\n"
        "from bot.app.opening import probe_postgres\n"
        "try:\n"
        f"    probe_postgres('postgresql://bot:{PASSWORD}@127.0.0.1/rolls')\n"
        "except StorageUnavailable as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run((sys.executable, "-c", script), capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    needs = 'Cannot use the database at DATABASE_URL: PostgreSQL needs asyncpg: pip install -e ".[postgres]"'
    assert result.stdout.strip() == needs


def test_healthcheck_on_postgresql_needs_the_server_and_every_migration(postgres_server, postgres_url, capsys):
    from bot.app.admin import healthcheck
    from bot.settings import Settings

    def check(url: str) -> int:  # DATABASE_PATH is not looked at when DATABASE_URL is set
        return healthcheck(Settings("fake-token.health", postgres_server.directory, database_url=url))

    assert check(postgres_url) == 1  # an empty database: the bot has not migrated it yet
    assert "schema version 0, not" in capsys.readouterr().err

    async def migrate() -> None:
        async with await PostgresDatabase.open(postgres_url):
            pass

    asyncio.run(migrate())
    assert check(postgres_url) == 0 and capsys.readouterr().out == "healthy\n"
    assert check(f"postgresql://bot:{PASSWORD}@127.0.0.1:1/rolls") == 1
    told = capsys.readouterr().err
    assert told.startswith("unhealthy: Cannot use the database at postgresql://127.0.0.1:1/rolls")
    assert PASSWORD not in told
