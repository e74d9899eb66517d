"""Shards across processes on one store: push storms arriving through both shards, and a process killed mid-storm.

Two bots run shard 0 and shard 1 of 2 and share one store. A roll's Push button can be clicked through either
shard (a player's client may be served by a process that has just taken the shard over), and /push can race the
clicks through the other one. Whatever the races, each roll is pushed once, and each player's Willpower is the
sum of the gains the bot reported to them.

Until the PostgreSQL store lands, the store is one SQLite file: two bots in this process, and two bot processes on
this machine (SQLite's locking is sound between processes of one machine; the settings refuse a slice of the
shards on SQLite because processes on *other* machines could not share the file, so the process drill lifts that
refusal through the launcher's SHARE_SQLITE, a test-side switch).
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import os
import signal
from collections import Counter

import pytest

from bot.client import RollkeeperBot
from bot.shards import ShardPlan
from bot.storage import MAX_WILLPOWER, PushRefusal
from cogs.yearzero import NO_ROLL_TO_PUSH
from tests.bot.payloads import slash_payload
from tests.bot.sharding import interactions_seen
from tests.drills.conftest import PLAYERS, TABLES, click_payload, scaled
from tests.drills.launcher import SHARE_SQLITE
from tests.drills.process import BotProcess
from tests.drills.reading import answered_once, is_pushed_roll, private_text, push_button_roll, willpower_line
from tests.drills.test_crash import check_consistent, willpower_by_player
from tests.fakediscord import GUILD_READY_TIMEOUT, FakeDiscord, FakeUser, Reply

TOKEN = "drill-token.shard-drill.never-log-me"
CLICKS = 50
ROLLS = scaled(6)
ALREADY_PUSHED = PushRefusal.ALREADY_PUSHED.message
ANSWER_TIMEOUT = 60.0
HOME_SHARD = (TABLES.id >> 22) % 2
"""The shard that owns the game night's server; the other shard is the one a takeover would route through."""


@pytest.fixture
async def fake_discord(discord_spec):
    """The game night's server on a fake Discord of two shards."""
    async with FakeDiscord(guilds=[TABLES], validator=discord_spec, timeout=60.0, shard_count=2) as fake:
        yield fake
        await fake.stop()
        fake.assert_clean()


async def answered(fake: FakeDiscord, payload: dict, shard: int) -> Reply:
    reply = await fake.send_interaction(payload, wait=False, shard=shard)
    await asyncio.wait_for(reply.answered.wait(), ANSWER_TIMEOUT)
    return reply


async def roll_for(fake: FakeDiscord, player: FakeUser, number: int) -> tuple[int, dict]:
    """The player rolls /yz with eight dice (pushable but for a chance of 1 in 6561): (roll id, its message)."""
    table = TABLES.channels[number % len(TABLES.channels)]
    reply = await answered(fake, slash_payload(fake, "yz", {"attribute": 4, "skill": 4}, user=player, channel=table),
                           HOME_SHARD)
    roll_id = push_button_roll(reply.message)
    assert roll_id is not None, reply.describe()
    return roll_id, copy.deepcopy(reply.message)


def storm(fake: FakeDiscord, player: FakeUser, message: dict) -> list[tuple[dict, int]]:
    """CLICKS clicks on the roll's Push button, alternately through each shard, and /push through the middle."""
    table = TABLES.find_channel(int(message["channel_id"]))
    payloads = [(click_payload(fake, message, player), number % 2) for number in range(CLICKS)]
    payloads.insert(CLICKS // 2, (slash_payload(fake, "push", {}, user=player, channel=table), 1 - HOME_SHARD))
    return payloads


def one_push_each(answers: list[Reply]) -> int:
    """Exactly one answer shows the roll pushed; every other is a private "already pushed" (or, for /push, "no
    roll to push"). Returns the Willpower the push reported gaining."""
    assert all(answered_once(reply) for reply in answers)
    pushed = [reply for reply in answers if is_pushed_roll(reply)]
    assert len(pushed) == 1, [reply.describe() for reply in pushed]
    losers = Counter(private_text(reply) for reply in answers if not is_pushed_roll(reply))
    assert set(losers) <= {ALREADY_PUSHED, NO_ROLL_TO_PUSH}, losers
    return willpower_line(pushed[0])[0]


def bot_on(settings, shard: int) -> RollkeeperBot:
    plan = ShardPlan(count=2, ids=(shard,))
    return RollkeeperBot(dataclasses.replace(settings, shards=plan), guild_ready_timeout=GUILD_READY_TIMEOUT,
                         identify_spacing=0)


async def test_push_storms_through_two_shards_push_each_roll_once(fake_discord, make_settings, db_path):
    """Two bots (as two processes would) on one store: 50 clicks and a /push on each roll, through both shards."""
    fake = fake_discord
    bots = [await fake.run(bot_on(make_settings(), shard)) for shard in (0, 1)]
    seen = [interactions_seen(bot) for bot in bots]
    rolls, answers, gains = {}, [], Counter[int]()
    for number, player in enumerate(PLAYERS[:ROLLS]):
        roll_id, message = await roll_for(fake, player, number)
        rolls[roll_id] = (player, None, message)
        stormed = await asyncio.gather(*(answered(fake, payload, shard) for payload, shard in storm(fake, player, message)))
        gains[player.id] += one_push_each(list(stormed))
        answers += [(roll_id, reply) for reply in stormed]
    rows = check_consistent(db_path, rolls, answers)  # each shown push stored with the gain it showed
    assert [row["state"] for row in rows.values()] == ["pushed"] * ROLLS
    # each shard carried half the clicks, plus the /yz (home shard) or the /push (the other) of every roll
    assert [len(through) for through in seen] == [ROLLS * (CLICKS // 2 + 1)] * 2
    assert willpower_by_player(db_path) == {user: min(MAX_WILLPOWER, gain) for user, gain in gains.items() if gain}
