"""Told = stored in every place the app is played (issue 22), with the real `python -m bot` in its own process.

The SIGTERM drill of test_told_stored.py, its rollers spread over three places: channels of a server that added
the app, channels of a server that never did (the app came with each player's account) and group DMs. Answers are
slow (every acknowledgement and answer delayed), the bot is stopped mid-storm: every push stored was shown with
the Willpower stored, every click not shown pushed left its roll pending, and the bot never used its own token
where it is not (the fake lists that as a violation, and the fixture fails on any).
"""

from __future__ import annotations

import asyncio
import copy

import pytest

from bot.playground.invoke import find_component
from tests.drills.conftest import PLAYERS, TABLES
from tests.drills.process import BotProcess, answer_of
from tests.drills.reading import is_pushed_roll, push_button_roll
from tests.drills.test_told_stored import check_told_equals_stored, settings
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGroupDM, FakeGuild, FakeUser, Reply
from tests.fakediscord.faults import CALLBACK, EDIT_ORIGINAL

COMMAND, COMPONENT = 2, 3
NO_BOTS = FakeGuild("Game Night without the bot", has_app=False,
                    channels=tuple(FakeChannel(f"nobot-{number}") for number in range(1, 4)))
ROLLERS = PLAYERS[:18]
GROUPS = tuple(FakeGroupDM(f"party-{number}", members=tuple(ROLLERS[12 + number::3])) for number in range(3))
LATE = 3


def place_of(number: int, player: FakeUser) -> dict:
    """Rollers 0-5 at the server's tables, 6-11 in the server without the bot, 12-17 in three group DMs."""
    if number < 6:
        return {"guild": TABLES, "channel": TABLES.channels[number % 3]}
    if number < 12:
        return {"guild": NO_BOTS, "channel": NO_BOTS.channels[number % 3]}
    return {"group": next(group for group in GROUPS if player in group.members)}


@pytest.fixture
async def fake_discord(discord_spec):
    async with FakeDiscord(guilds=[TABLES, NO_BOTS], validator=discord_spec, timeout=30.0) as fake:
        yield fake
        await fake.stop()
        fake.assert_clean()


def click(fake: FakeDiscord, message: dict, player: FakeUser, place: dict) -> dict:
    component = find_component(message, None, "Push")
    data = {"custom_id": component["custom_id"], "component_type": component["type"]}
    return fake.payload(COMPONENT, data, user=player, **place) | {"message": copy.deepcopy(message)}


async def test_sigterm_during_a_slow_push_storm_drains_in_every_place(fake_discord, tmp_path):
    bot = await BotProcess.start(fake_discord, tmp_path, tmp_path / "bot.log", **settings(tmp_path))
    try:
        await bot.until_ready()
        await storm_and_drain(fake_discord, bot, tmp_path / "rollkeeper.sqlite3")
    finally:
        await bot.kill()


async def storm_and_drain(fake: FakeDiscord, bot: BotProcess, db) -> None:
    places = {player: place_of(number, player) for number, player in enumerate(ROLLERS)}
    rolled: list[Reply] = await asyncio.gather(*(
        answer_of(fake, fake.command_payload("yz", {"attribute": 4, "skill": 4}, user=player, **places[player]))
        for player in ROLLERS
    ))
    rolls = {player: (push_button_roll(reply.message), reply.message) for player, reply in zip(
        ROLLERS, rolled, strict=True)}
    fake.inject("POST", CALLBACK, delay=1.5, times=10_000)
    fake.inject("PATCH", EDIT_ORIGINAL, delay=1.5, times=10_000)
    early, late = ROLLERS[:-LATE], ROLLERS[-LATE:]
    clicks = [(rolls[p][0], await fake.send_interaction(click(fake, rolls[p][1], p, places[p]), wait=False))
              for p in early]
    await asyncio.sleep(0.5)
    bot.process.send_signal(15)
    await asyncio.sleep(0.3)
    for player in late:
        if bot.process.returncode is None and fake.gateway.session is not None and not fake.gateway.session.closed:
            sent = await fake.send_interaction(click(fake, rolls[player][1], player, places[player]), wait=False)
            clicks.append((rolls[player][0], sent))
    assert await asyncio.wait_for(bot.process.wait(), 60) == 0, bot.log()
    await asyncio.sleep(0.5)
    pushed = sum(is_pushed_roll(reply) for _, reply in clicks)
    assert pushed >= len(early) // 2, "the clicks in hand were finished"
    check_told_equals_stored(db, clicks)
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log
