"""Fixtures for driving rollkeeper's real bot against the fake Discord, on a real SQLite file."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest

from bot.client import EXTENSIONS, RollkeeperBot
from bot.settings import Settings, load_settings
from bot.storage.sqlite_store import DEFAULT_BUSY_TIMEOUT_MS
from tests.fakediscord import GUILD_READY_TIMEOUT

TOKEN = "fake-token.for-tests.only"


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "rollkeeper.sqlite3"


@pytest.fixture
def make_settings(tmp_path, db_path) -> Callable[..., Settings]:
    """Settings as the bot would read them from the environment; keyword overrides use the env names."""

    def make(**environ: str) -> Settings:
        values = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(db_path), **environ}
        return load_settings(values, cwd=tmp_path)

    return make


@pytest.fixture
async def start_bot(fake_discord, make_settings):
    """Start a RollkeeperBot on the fake Discord (stopping the previous one first): restarts reuse the db."""

    async def start(
        *,
        extensions=EXTENSIONS,
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
