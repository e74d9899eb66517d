"""Looking after the bot: `python -m bot healthcheck`, `clear-guild-commands`, and a log without voice warnings."""

from __future__ import annotations

import importlib.util
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app.admin import clear_guild_commands, healthcheck
from bot.app.opening import open_sqlite
from bot.settings import Settings
from bot.storage.schema import load_migrations
from tests.conftest import TOKEN


def run_python(tmp_path: Path, *arguments: str, **environ: str) -> subprocess.CompletedProcess[str]:
    clean = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), **environ}
    return subprocess.run(
        (sys.executable, *arguments), cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=60,
        check=False,
    )


# --- healthcheck ----------------------------------------------------------------------------------


def test_healthcheck_fails_before_the_bot_made_the_database(tmp_path: Path, capsys):
    database = tmp_path / "rollkeeper.sqlite3"
    assert healthcheck(Settings(TOKEN, database)) == 1
    assert "no database" in capsys.readouterr().err
    assert not database.exists()  # the check made nothing


async def test_healthcheck_passes_once_the_database_is_migrated(tmp_path: Path, capsys):
    database = tmp_path / "rollkeeper.sqlite3"
    async with await open_sqlite(database):
        assert healthcheck(Settings(TOKEN, database)) == 0  # the running bot holding it is healthy
    assert healthcheck(Settings(TOKEN, database)) == 0
    assert capsys.readouterr().out.count("healthy") == 2


async def test_healthcheck_fails_on_a_database_not_migrated_to_the_latest_schema(tmp_path: Path, capsys):
    database = tmp_path / "rollkeeper.sqlite3"
    async with await open_sqlite(database):
        pass
    older = len(load_migrations()) - 1
    with sqlite3.connect(database) as connection:
        connection.execute(f"PRAGMA user_version = {older}")
    assert healthcheck(Settings(TOKEN, database)) == 1
    assert f"schema version {older}" in capsys.readouterr().err


def test_healthcheck_fails_on_a_file_that_is_not_a_database(tmp_path: Path, capsys):
    database = tmp_path / "rollkeeper.sqlite3"
    database.write_bytes(b"not a database, just some bytes" * 40)
    assert healthcheck(Settings(TOKEN, database)) == 1
    assert "unhealthy" in capsys.readouterr().err


async def test_python_m_bot_healthcheck_is_the_command_docker_runs(tmp_path: Path):
    environ = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "data.sqlite3")}
    before = run_python(tmp_path, "-m", "bot", "healthcheck", **environ)
    assert before.returncode == 1 and before.stderr.startswith("unhealthy: no database")
    async with await open_sqlite(tmp_path / "data.sqlite3"):
        pass
    after = run_python(tmp_path, "-m", "bot", "healthcheck", **environ)
    assert (after.returncode, after.stdout) == (0, "healthy\n")


# --- clear-guild-commands -------------------------------------------------------------------------


async def test_clear_guild_commands_removes_the_servers_copy_and_keeps_the_global_ones(fake_discord, start_bot):
    guild = fake_discord.guild
    await start_bot(GUILD_ID=str(guild.id))
    synced = [command["name"] for command in fake_discord.commands(guild)]
    assert "yz" in synced and "test" in synced
    await start_bot()  # GUILD_ID turned off: the global sync; the server would now show every command twice
    assert sorted(c["name"] for c in fake_discord.commands(None)) == sorted(synced)
    await fake_discord.stop()

    assert await clear_guild_commands(TOKEN, guild.id) == len(synced)
    assert fake_discord.commands(guild) == []
    assert sorted(c["name"] for c in fake_discord.commands(None)) == sorted(synced)
    assert len(fake_discord.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")) == 2


def test_clear_guild_commands_refuses_a_server_id_that_is_not_one(tmp_path: Path):
    result = run_python(tmp_path, "-m", "bot", "clear-guild-commands", "my-server", DISCORD_TOKEN=TOKEN)
    assert result.returncode == 2 and "GUILD_ID must be a server ID" in result.stderr
    assert "Traceback" not in result.stderr


# --- voice warnings -------------------------------------------------------------------------------

MAKE_A_CLIENT = """
import logging, sys
from pathlib import Path
from bot.app.logs import configure_logging
from bot.settings import Settings
if sys.argv[1] == "configured":
    configure_logging(Settings("x", Path("db.sqlite3")))
else:
    logging.basicConfig()
import discord
discord.Client(intents=discord.Intents.none())
logging.getLogger("discord.client").warning("another warning")
"""


@pytest.mark.skipif(
    importlib.util.find_spec("nacl") is not None and importlib.util.find_spec("davey") is not None,
    reason="both voice libraries are installed: discord.py has nothing to warn about",
)
def test_the_start_up_log_has_no_voice_library_warnings(tmp_path: Path):
    plain = run_python(tmp_path, "-c", MAKE_A_CLIENT, "plain")
    assert "voice will NOT be supported" in plain.stderr  # discord.py does warn, without our filter
    configured = run_python(tmp_path, "-c", MAKE_A_CLIENT, "configured")
    assert configured.returncode == 0, configured.stderr
    assert "voice" not in configured.stderr
    assert "another warning" in configured.stderr  # the filter drops those two warnings only
