"""Shared pieces of the drills: a game night's server, its players, database dumps, a log watch.

ROLLKEEPER_DRILL_SCALE (default 1) multiplies the amount of work of the load and crash drills for manual runs,
e.g. ``ROLLKEEPER_DRILL_SCALE=5 pytest tests/drills``; the default keeps the whole directory CI-fast.
"""

from __future__ import annotations

import copy
import logging
import os
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.playground.invoke import find_component
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser

SCALE = float(os.environ.get("ROLLKEEPER_DRILL_SCALE", "1"))
COMPONENT = 3
TABLES = FakeGuild("Game Night", channels=tuple(FakeChannel(f"table-{number:02}") for number in range(1, 21)))
"""One server, twenty tables (channels)."""
PLAYERS = tuple(FakeUser(f"player-{number:03}") for number in range(200))
assert len({player.id for player in PLAYERS}) == len(PLAYERS)
VOICE_WARNING = re.compile(r"(PyNaCl|davey) is not installed, voice will NOT be supported")


def scaled(count: int) -> int:
    return max(1, round(count * SCALE))


def table_of(number: int) -> FakeChannel:
    """Player number n sits at table n mod 20: ten players a table."""
    return TABLES.channels[number % len(TABLES.channels)]


def dump_database(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table (SQLite's own bookkeeping included), sorted: equal dumps, equal databases."""
    with closing(sqlite3.connect(path)) as connection:
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: sorted(connection.execute(f'SELECT * FROM "{table}"'), key=repr) for table in sorted(tables)}


def query(path: Path, sql: str, params: tuple = ()) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(path)) as connection:
        connection.row_factory = sqlite3.Row
        return list(connection.execute(sql, params))


def click_payload(fake: FakeDiscord, message: dict, user: FakeUser, label: str = "Push") -> dict:
    """`user` clicking the button `label` of a message as the fake stores it (Discord sends the message along)."""
    component = find_component(message, None, label)
    data = {"custom_id": component["custom_id"], "component_type": component["type"]}
    channel = TABLES.find_channel(int(message["channel_id"]))
    return fake.payload(COMPONENT, data, user=user, channel=channel) | {"message": copy.deepcopy(message)}


class LogWatch(logging.Handler):
    """Every WARNING or worse logged in this process (by the bot, discord.py, asyncio...), voice's absence aside."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not VOICE_WARNING.search(record.getMessage()):
            self.records.append(record)

    def lines(self) -> list[str]:
        return [f"{record.levelname} {record.name}: {record.getMessage()}" for record in self.records]


@pytest.fixture
def log_watch():
    """Collects warnings and errors from every logger (the fake's own check sees only discord.py's errors)."""
    watch = LogWatch()
    root = logging.getLogger()
    root.addHandler(watch)
    try:
        yield watch
    finally:
        root.removeHandler(watch)


@pytest.fixture
async def fake_discord(discord_spec):
    """The fake Discord with the game night's server; at teardown it fails on any body Discord would refuse."""
    async with FakeDiscord(guilds=[TABLES], validator=discord_spec, timeout=30.0) as fake:
        yield fake
        await fake.stop()
        fake.assert_clean()
