"""Malformed INTERACTION_CREATE payloads (issue 9, finding 6): each is logged and dropped, the bot keeps serving.

Before, any of these stopped `python -m bot` with exit code 1: discord.py parses an interaction inside the loop
that reads the gateway, and an exception there ends the connection and the process. The drill runs the real
process, sends one malformed payload at a time, and after each one a normal /yz that must be answered with a
roll; at the end the bot still stops cleanly on SIGTERM.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from tests.bot.payloads import click_payload, slash_payload
from tests.drills.conftest import PLAYERS, table_of
from tests.drills.process import BotProcess
from tests.fakediscord import FakeDiscord, Reply

TOKEN = "drill-token.malformed-drill.never-log-me"
PLAYER = PLAYERS[7]
TABLE = table_of(7)


def _yz(fake: FakeDiscord) -> dict:
    return slash_payload(fake, "yz", {"attribute": 3, "skill": 2}, user=PLAYER, channel=TABLE)


def _click(fake: FakeDiscord, custom_id: object = "rk:yz:push:1") -> dict:
    payload = click_payload(fake, {"channel_id": str(TABLE.id), "id": "1"}, "rk:yz:push:1", user=PLAYER)
    payload["data"]["custom_id"] = custom_id
    return payload


def _without(payload: dict, *path: str) -> dict:
    holder = payload
    for key in path[:-1]:
        holder = holder[key]
    del holder[path[-1]]
    return payload


def _with(payload: dict, value: object, *path: str) -> dict:
    holder = payload
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return payload


MALFORMED: dict[str, Callable[[FakeDiscord], dict]] = {
    "a member without user": lambda fake: _without(_yz(fake), "member", "user"),
    'a user id "abc"': lambda fake: _with(_yz(fake), "abc", "member", "user", "id"),
    'guild_id "x"': lambda fake: _with(_yz(fake), "x", "guild_id"),
    "a click without data": lambda fake: _without(_click(fake), "data"),
    "a null custom_id": lambda fake: _click(fake, None),
    "an integer custom_id": lambda fake: _click(fake, 12345),
    'member.permissions "lots"': lambda fake: _with(_yz(fake), "lots", "member", "permissions"),
}


async def answered_unless_stopped(fake: FakeDiscord, bot: BotProcess, payload: dict) -> Reply:
    """Send payload; return once it is answered or the bot process has exited, whichever comes first."""
    reply = await fake.send_interaction(payload, wait=False)
    answered = asyncio.ensure_future(reply.final.wait())  # past the acknowledgement of a change
    exited = asyncio.ensure_future(bot.process.wait())
    await asyncio.wait({answered, exited}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    answered.cancel()
    exited.cancel()
    return reply


@pytest.fixture
def settings(tmp_path) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "rollkeeper.sqlite3"), "LOG_LEVEL": "INFO"}


async def test_each_malformed_interaction_is_dropped_and_the_bot_keeps_serving(fake_discord, tmp_path, settings):
    fake = fake_discord
    bot = await BotProcess.start(fake, tmp_path, tmp_path / "bot.log", **settings)
    await bot.until_ready()
    for what, make in MALFORMED.items():
        dropped_before = bot.log().count("Dropped a malformed INTERACTION_CREATE")
        reply = await fake.send_interaction(make(fake), wait=False)
        answered = await answered_unless_stopped(fake, bot, _yz(fake))
        assert bot.process.returncode is None, f"{what}: the bot stopped\n{bot.log()}"
        rolled = answered.embeds and answered.embed["description"].startswith("Year Zero")
        assert rolled, f"{what}: {answered.describe()}"
        assert reply.callbacks == [], f"{what}: a payload nobody can read was answered"
        assert bot.log().count("Dropped a malformed INTERACTION_CREATE") == dropped_before + 1, what
    assert await bot.stop() == 0
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log
    assert TOKEN not in log
