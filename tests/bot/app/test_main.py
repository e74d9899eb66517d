"""Start-up: `python -m bot` failing fast and clearly, the token kept out of logs, setup_hook and the sync.

The bot is driven end to end against the fake Discord elsewhere; here setup_hook runs without a gateway, with
the tree's sync replaced by a recorder.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import shutil
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.app.client import RollkeeperBot
from bot.app.logs import configure_logging
from bot.app.opening import open_sqlite
from bot.app.serving import serve
from bot.app.sync import CommandSync, command_definitions_hash
from bot.settings import Settings
from bot.storage.roll_log import NewEntry
from bot.storage.sqlite import Database
from tests.storage.reading import new_roll

SECRET = "MTIzNDU2.secret-token-for-tests.do-not-log"
NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def run_bot(tmp_path: Path, *command: str, **environ: str) -> subprocess.CompletedProcess[str]:
    """Run the bot in tmp_path with a clean environment holding only environ (and PATH/HOME)."""
    clean = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), **environ}
    return subprocess.run(
        command or (sys.executable, "-m", "bot"),
        cwd=tmp_path,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_clean_refusal(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert SECRET not in result.stderr
    assert result.stderr.strip() and "\n" not in result.stderr.strip()  # one paragraph
    return result.stderr


# --- python -m bot --------------------------------------------------------------------------------


def test_without_a_token_it_explains_how_to_get_one(tmp_path: Path):
    stderr = assert_clean_refusal(run_bot(tmp_path))
    for words in (
        "DISCORD_TOKEN",
        "developer portal",
        "Bot",
        "Reset Token",
        ".env",
        "DISCORD_TOKEN=",
        "README",
    ):
        assert words in stderr


def test_the_console_script_does_the_same(tmp_path: Path):
    script = shutil.which("rollkeeper", path=str(Path(sys.executable).parent))
    if script is None:
        pytest.skip("the rollkeeper console script is not installed in this environment")
    assert "Reset Token" in assert_clean_refusal(run_bot(tmp_path, script))


def test_an_empty_token_in_dotenv_is_missing(tmp_path: Path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\nLOG_LEVEL=INFO\n")
    assert "Reset Token" in assert_clean_refusal(run_bot(tmp_path))


def test_a_bad_setting_is_named(tmp_path: Path):
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={SECRET}\nGUILD_ID=my-server\n")
    assert "GUILD_ID must be a server ID" in assert_clean_refusal(run_bot(tmp_path))


def test_a_missing_database_directory_is_named(tmp_path: Path):
    path = tmp_path / "missing" / "dice.sqlite3"
    stderr = assert_clean_refusal(run_bot(tmp_path, DISCORD_TOKEN=SECRET, DATABASE_PATH=str(path)))
    assert str(path) in stderr and "does not exist" in stderr
    assert not (tmp_path / "missing").exists()


def test_an_unwritable_database_directory_is_named(tmp_path: Path):
    if os.name == "posix" and os.geteuid() != 0:
        directory = tmp_path / "read-only"
        directory.mkdir(mode=0o500)
    elif sys.platform.startswith("linux"):
        directory = Path("/proc")  # root writes through permissions, but not into /proc
    else:
        pytest.skip("no unwritable directory to test with")
    path = directory / "dice.sqlite3"
    stderr = assert_clean_refusal(run_bot(tmp_path, DISCORD_TOKEN=SECRET, DATABASE_PATH=str(path)))
    assert str(path) in stderr


# --- logging --------------------------------------------------------------------------------------


@pytest.fixture
def restore_logging():
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:], root.level = handlers, level


def test_the_token_never_reaches_a_log_line(tmp_path: Path, restore_logging):
    stream = io.StringIO()
    configure_logging(Settings(SECRET, tmp_path / "db.sqlite3", log_level="DEBUG"), stream)
    log = logging.getLogger("bot.test")
    log.debug("connecting with %s", SECRET)
    try:
        raise RuntimeError(f"bad token {SECRET}")
    except RuntimeError:
        log.exception("failed")
    output = stream.getvalue()
    assert SECRET not in output
    assert output.count("[token hidden]") == 2 and "Traceback" in output  # the message, the exception
    assert logging.getLogger().level == logging.DEBUG


# --- the bot object -------------------------------------------------------------------------------


def settings_for(tmp_path: Path, guild_id: int | None = None) -> Settings:
    return Settings(SECRET, tmp_path / "db.sqlite3", guild_id=guild_id)


def make_command(description: str = "Roll the dice", *, extra_option: bool = False) -> app_commands.Command:
    async def roll(interaction: discord.Interaction, dice: int) -> None:
        """Roll."""

    async def roll_more(interaction: discord.Interaction, dice: int, bonus: int) -> None:
        """Roll."""

    return app_commands.Command(
        name="roll", description=description, callback=roll_more if extra_option else roll
    )


def make_other() -> app_commands.Command:
    async def show(interaction: discord.Interaction) -> None:
        """Show."""

    return app_commands.Command(name="show", description="Show your Willpower", callback=show)


class SyncRecorder:
    """Stands in for CommandTree.sync: records each call, optionally fails like Discord would."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[int | None] = []
        self.fail = fail

    async def __call__(self, *, guild: discord.abc.Snowflake | None = None) -> list[object]:
        self.calls.append(guild.id if guild else None)
        if self.fail:
            raise discord.HTTPException(_FakeResponse(), "Service unavailable")
        return []


class _FakeResponse:
    status, reason = 503, "Service Unavailable"


async def start(
    tmp_path: Path,
    *commands_: app_commands.Command,
    guild_id: int | None = None,
    recorder: SyncRecorder | None = None,
):
    """Build a bot, add commands, run setup_hook with a recorded sync; return (bot, recorder)."""
    bot = RollkeeperBot(settings_for(tmp_path, guild_id), extensions=(), application_id=4242)
    for command in commands_:
        bot.tree.add_command(command)
    recorder = recorder or SyncRecorder()
    bot.tree.sync = recorder  # type: ignore[method-assign]
    await bot.__aenter__()  # what `async with bot` does first (serve() does it): an AutoShardedBot's close() needs it
    await bot.setup_hook()
    return bot, recorder


async def test_the_definitions_hash_is_stable_and_sees_changes(tmp_path: Path):
    async def hash_of(*commands_: app_commands.Command) -> str:
        bot = RollkeeperBot(settings_for(tmp_path), extensions=())
        for command in commands_:
            bot.tree.add_command(command)
        return await command_definitions_hash(bot.tree)

    base = await hash_of(make_command(), make_other())
    assert await hash_of(make_command(), make_other()) == base
    assert await hash_of(make_other(), make_command()) == base  # order of registration does not matter
    assert await hash_of(make_command("Roll some dice"), make_other()) != base
    assert await hash_of(make_command(extra_option=True), make_other()) != base
    assert await hash_of(make_command()) != base


def test_invite_asks_for_exactly_send_messages_and_embed_links(tmp_path: Path):
    bot = RollkeeperBot(settings_for(tmp_path), extensions=(), application_id=4242)
    url = bot.invite_url()
    wanted = discord.Permissions(send_messages=True, embed_links=True).value
    assert "client_id=4242" in url and "scope=bot+applications.commands" in url
    assert f"permissions={wanted}&" in url + "&" and url.endswith("&integration_type=0")
    account = bot.account_install_url()  # the user install: the commands only, no bot user, no permissions
    assert "client_id=4242" in account and "scope=applications.commands" in account and "bot" not in account
    assert "permissions" not in account and account.endswith("&integration_type=1")
    assert bot.intents == discord.Intents.default() and not bot.intents.message_content


async def test_global_sync_happens_only_when_the_commands_change(tmp_path: Path):
    first, recorder = await start(tmp_path, make_command())
    assert recorder.calls == [None]
    await first.close()
    again, recorder = await start(tmp_path, make_command())
    assert recorder.calls == [] and await again.sync_commands() is CommandSync.UNCHANGED
    await again.close()
    changed, recorder = await start(tmp_path, make_command(), make_other())
    assert recorder.calls == [None]
    await changed.close()


async def test_a_failed_sync_is_retried_at_the_next_start(tmp_path: Path, caplog: pytest.LogCaptureFixture):
    failing, recorder = await start(tmp_path, make_command(), recorder=SyncRecorder(fail=True))
    assert recorder.calls == [None] and "Could not sync" in caplog.text
    await failing.close()
    retried, recorder = await start(tmp_path, make_command())
    assert recorder.calls == [None]
    await retried.close()


async def test_a_dev_guild_gets_the_commands_at_once(tmp_path: Path):
    bot, recorder = await start(tmp_path, make_command(), guild_id=777)
    assert recorder.calls == [777]
    assert [command.name for command in bot.tree.get_commands(guild=discord.Object(777))] == ["roll"]
    await bot.close()


async def test_setup_opens_migrates_and_purges_and_close_closes(tmp_path: Path):
    async with await open_sqlite(tmp_path / "db.sqlite3") as database:
        old = await new_roll(database, 1, 2, 3, "{}", NOW - timedelta(hours=25))
        recent = await new_roll(database, 1, 2, 4, "{}", NOW - timedelta(hours=1))
        logged = NewEntry(1, 2, 3, "heroic", "task", "Success")
        old_entry = await database.log.write(logged, NOW - timedelta(days=91))
        kept_entry = await database.log.write(logged, NOW - timedelta(days=89))
    bot = RollkeeperBot(settings_for(tmp_path), extensions=(), application_id=4242, clock=lambda: NOW)
    with pytest.raises(RuntimeError, match="not open"):
        bot.db  # noqa: B018 - the property itself is under test
    bot.tree.sync = SyncRecorder()  # type: ignore[method-assign]
    await bot.__aenter__()
    await bot.setup_hook()
    assert bot.now() == NOW
    await asyncio.wait_for(bot.first_purge_done.wait(), 10)  # behind the start, not before it
    assert await bot.db.rolls.get(old) is None and await bot.db.rolls.get(recent) is not None
    assert await bot.db.log.get(old_entry) is None and await bot.db.log.get(kept_entry) is not None
    database = bot.db
    await bot.close()
    assert database.store.closed
    with pytest.raises(RuntimeError, match="not open"):
        bot.db  # noqa: B018


async def test_a_missing_extension_stops_the_start(tmp_path: Path):
    bot = RollkeeperBot(settings_for(tmp_path), extensions=("cogs.no_such_cog",), application_id=4242)
    bot.tree.sync = SyncRecorder()  # type: ignore[method-assign]
    await bot.__aenter__()
    with pytest.raises(commands.ExtensionNotFound):
        await bot.setup_hook()
    await bot.close()


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
async def test_sigterm_closes_the_bot_and_the_database(tmp_path: Path, caplog: pytest.LogCaptureFixture):
    bot = RollkeeperBot(settings_for(tmp_path), extensions=(), application_id=4242)
    bot.tree.sync = SyncRecorder()  # type: ignore[method-assign]
    opened: list[Database] = []

    async def start(token: str) -> None:  # like Client.start: set up, then run until closed
        assert token == SECRET
        await bot.setup_hook()
        opened.append(bot.db)
        os.kill(os.getpid(), signal.SIGTERM)
        while not bot.is_closed():
            await asyncio.sleep(0.01)

    bot.start = start  # type: ignore[method-assign]
    with caplog.at_level(logging.INFO, logger="bot"):
        await asyncio.wait_for(serve(bot.settings, bot), timeout=10)
    assert bot.is_closed() and opened[0].store.closed
    assert "Shutting down" in caplog.text
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # the handler is gone with the run


def test_interaction_tokens_in_urls_are_redacted():
    """discord.py logs each callback's URL at DEBUG, and the token in it answers as the bot for 15 minutes."""
    from bot.app.logs import INTERACTION_HIDDEN as HIDDEN
    from bot.app.logs import redact

    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTpQQ1pLRE5wc3NBWE0"
    line = f"POST https://discord.com/api/v10/interactions/1234567890/{token}/callback has returned 204"
    assert redact(line, ()) == line.replace(token, HIDDEN) and token not in redact(line, ())
    webhook = f"PATCH /webhooks/55555/{token}/messages/@original"
    assert redact(webhook, ()) == f"PATCH /webhooks/55555/{HIDDEN}/messages/@original"
    assert redact("GET /channels/123/messages/456", ()) == "GET /channels/123/messages/456"


def test_interaction_tokens_in_payloads_are_redacted():
    """discord.py logs each gateway event's payload at DEBUG (a dict's repr), and a body may be logged as JSON:
    the ``token`` value goes, whatever quotes it has, and nothing around it."""
    from bot.app.logs import INTERACTION_HIDDEN as HIDDEN
    from bot.app.logs import redact

    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTpQQ1pLRE5wc3NBWE0"
    event = f"WebSocket Event: {{'t': 'INTERACTION_CREATE', 'd': {{'id': '12', 'token': '{token}', 'version': 1}}}}"
    assert redact(event, ()) == event.replace(token, HIDDEN)
    body = f'{{"id": "12", "Token":"{token}", "note": "a token: kept"}}'
    assert redact(body, ()) == body.replace(token, HIDDEN)
    assert redact("{'note': 'token'}", ()) == "{'note': 'token'}"
