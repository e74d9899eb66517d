"""Shared fixtures. `fake_discord`: a fake Discord on 127.0.0.1 for driving the real discord.py bot; `start_bot`:
rollkeeper's real bot started on it, on a real SQLite file (`db_path`, `make_settings`).

`token_never_logged` (session-wide, automatic) watches every log record of the whole run, at DEBUG, and fails the
run at its end if one holds a bot token the tests use - in its message or in its exception's text.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from bot.app.client import RollkeeperBot
    from bot.settings import Settings

TEST_TOKENS = ("fake-token", "secret-token-for-tests", "drill-token")
"""A piece of each bot token the tests give the bot: start_bot below and test_settings.py ("fake-token..."), the
fake's default ("fake-token"), test_main.py ("...secret-token-for-tests..."), the drills ("drill-token...")."""


class SecretWatch(logging.Handler):
    """Notes each log record whose formatted text (traceback included) holds one of the test tokens."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))
        self.leaks: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = self.format(record)
        if any(token in text for token in TEST_TOKENS):
            self.leaks.append(f"{record.levelname} {text[:500]}")


@pytest.fixture(scope="session", autouse=True)
def token_never_logged():
    """Every record of the run passes by the watch (the root logger at DEBUG); a token in one fails the run.

    A test that puts the token in a record on purpose (to check the redaction) must do so with its own handlers
    only, as tests/bot/app/test_main.py does (logging.basicConfig(force=True) takes this one off meanwhile).
    """
    watch, root = SecretWatch(), logging.getLogger()
    level = root.level
    root.addHandler(watch)
    root.setLevel(logging.DEBUG)
    yield watch
    root.removeHandler(watch)
    root.setLevel(level)
    assert watch.leaks == [], "a bot token reached the logs:\n" + "\n".join(watch.leaks)


@pytest.fixture(scope="session")
def discord_spec():
    """Discord's OpenAPI description, loaded once per test session (a WithoutSpec where it is not found)."""
    from tests.fakediscord import SpecValidator

    return SpecValidator.shared()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line saying whether the bodies the bot sent were checked against Discord's OpenAPI description."""
    from tests.fakediscord.spec import spec_path

    path = spec_path()
    if path.is_file():
        terminalreporter.write_line(f"Discord OpenAPI check: on ({path})")
    else:
        terminalreporter.write_line(
            f"Discord OpenAPI check: off (no {path}); the fake Discord's own checks ran. To turn it on, put "
            "Discord's openapi.json there or set DISCORD_OPENAPI=/path/to/openapi.json"
        )


@pytest.fixture
def fake_guilds() -> tuple:
    """The servers of the test's fake Discord (empty: its default one). A test module overrides this fixture to
    give its own, e.g. ``return (GUILD,)``."""
    return ()


@pytest.fixture
async def fake_discord(discord_spec, fake_guilds, request):
    """A running FakeDiscord with fake_guilds; at teardown it stops the bot and fails on any body Discord would
    refuse. In a module marked `faults` (a fault drill) answers may take up to 30 s, and requests Discord refuses
    are expected - a repeat's answer meets "already acknowledged" (40060), a retried edit follows a taken one -
    but an error in the bot is not."""
    from tests.fakediscord import FakeDiscord

    faults = request.node.get_closest_marker("faults") is not None
    patience = {"timeout": 30.0} if faults else {}
    async with FakeDiscord(guilds=fake_guilds, validator=discord_spec, **patience) as fake:
        yield fake
        await fake.stop()
        if faults:
            fake.take_violations()
            assert fake.bot_errors == []
        else:
            fake.assert_clean()


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server for the whole run (tests/postgres.py), stopped and deleted at the end."""
    from tests.postgres import PostgresServer

    server = PostgresServer.start()
    yield server
    server.close()


@pytest.fixture
def postgres_url(postgres_server):
    """The URL of a new, empty PostgreSQL database for this test alone, dropped after it."""
    url = postgres_server.fresh_url()
    yield url
    postgres_server.drop(url)


TOKEN = "fake-token.for-tests.only"


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "rollkeeper.sqlite3"


@pytest.fixture
def make_settings(tmp_path, db_path) -> Callable[..., Settings]:
    """Settings as the bot would read them from the environment; keyword overrides use the env names."""
    from bot.settings import load_settings  # here, as the fixtures above import: the rules' tests load no bot

    def make(**environ: str) -> Settings:
        values = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(db_path), **environ}
        return load_settings(values, cwd=tmp_path)

    return make


@pytest.fixture
async def start_bot(fake_discord, make_settings):
    """Start a RollkeeperBot on the fake Discord (stopping the previous one first): restarts reuse the db."""
    from bot.app.client import EXTENSIONS, RollkeeperBot
    from bot.app.opening import DEFAULT_BUSY_TIMEOUT_MS
    from tests.fakediscord import GUILD_READY_TIMEOUT

    async def start(
        *,
        extensions: tuple[str, ...] = EXTENSIONS,
        clock: Callable[[], datetime] | None = None,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        **environ: str,
    ) -> RollkeeperBot:
        await fake_discord.stop()
        options = {"clock": clock} if clock is not None else {}
        bot = RollkeeperBot(
            make_settings(**environ),
            extensions=extensions,
            busy_timeout_ms=busy_timeout_ms,
            guild_ready_timeout=GUILD_READY_TIMEOUT,
            **options,
        )
        await fake_discord.run(bot, token=TOKEN)
        return bot

    return start
