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
import os
import signal
from collections import Counter

import pytest

from bot.shards import ShardPlan
from bot.storage import MAX_WILLPOWER, PushRefusal
from cogs.yearzero import NO_ROLL_TO_PUSH
from tests.bot.payloads import slash_payload
from tests.bot.sharding import interactions_seen, shard_bot
from tests.drills.conftest import PLAYERS, TABLES, click_payload, scaled
from tests.drills.launcher import SHARE_SQLITE
from tests.drills.process import BotProcess
from tests.drills.reading import answered_once, is_pushed_roll, private_text, push_button_roll, willpower_line
from tests.drills.test_crash import check_consistent, willpower_by_player
from tests.fakediscord import FakeDiscord, FakeUser, Reply

TOKEN = "drill-token.shard-drill.never-log-me"
CLICKS = 50
ROLLS = scaled(6)
ALREADY_PUSHED = PushRefusal.ALREADY_PUSHED.message
ANSWER_TIMEOUT = 60.0
PUT_GLOBAL = "/applications/{application_id}/commands"
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
    payload = slash_payload(fake, "yz", {"attribute": 4, "skill": 4}, user=player, channel=table)
    reply = await answered(fake, payload, HOME_SHARD)
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


async def test_push_storms_through_two_shards_push_each_roll_once(fake_discord, make_settings, db_path):
    """Two bots (as two processes would) on one store: 50 clicks and a /push on each roll, through both shards."""
    fake = fake_discord
    bots = [await fake.run(shard_bot(make_settings, ShardPlan(count=2, ids=(shard,)))) for shard in (0, 1)]
    seen = [interactions_seen(bot) for bot in bots]
    rolls, answers, gains = {}, [], Counter[int]()
    for number, player in enumerate(PLAYERS[:ROLLS]):
        roll_id, message = await roll_for(fake, player, number)
        rolls[roll_id] = (player, None, message)
        payloads = storm(fake, player, message)
        stormed = await asyncio.gather(*(answered(fake, payload, shard) for payload, shard in payloads))
        gains[player.id] += one_push_each(list(stormed))
        answers += [(roll_id, reply) for reply in stormed]
    rows = check_consistent(db_path, rolls, answers)  # each shown push stored with the gain it showed
    assert [row["state"] for row in rows.values()] == ["pushed"] * ROLLS
    # each shard carried half the clicks, plus the /yz (home shard) or the /push (the other) of every roll
    assert [len(through) for through in seen] == [ROLLS * (CLICKS // 2 + 1)] * 2
    assert willpower_by_player(db_path) == {user: min(MAX_WILLPOWER, gain) for user, gain in gains.items() if gain}


# -- two processes, one killed mid-storm ------------------------------------------------------------------------

ROLLERS = scaled(24)
STORMED = 0.6
"""The share of the rolls whose clicks are sent; the others' players have not clicked yet when the kill comes."""


def process_settings(tmp_path, shard: int) -> dict[str, str]:
    return {
        "DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "rollkeeper.sqlite3"), "LOG_LEVEL": "INFO",
        "SHARD_COUNT": "2", "SHARD_IDS": str(shard), SHARE_SQLITE: "1",
    }


async def start_shard(fake: FakeDiscord, tmp_path, shard: int, name: str) -> BotProcess:
    bot = await BotProcess.start(fake, tmp_path, tmp_path / f"{name}.log", **process_settings(tmp_path, shard))
    await bot.until_ready()
    return bot


async def deliver(fake: FakeDiscord, payload: dict, shard: int) -> Reply | None:
    """Send through a shard; None when its process is gone (Discord would tell the player it failed)."""
    try:
        return await fake.send_interaction(payload, wait=False, shard=shard)
    except (RuntimeError, ConnectionError):
        return None


def kill_when_answered(fake: FakeDiscord, bot: BotProcess, count: int) -> None:
    """SIGKILL bot from the fake's request handler at the count-th interaction callback, work still in hand."""
    callback, seen = fake.backend.callback, []

    def callback_then_kill(*args, **kwargs):
        seen.append(None)
        if len(seen) >= count and bot.process.returncode is None:
            os.kill(bot.process.pid, signal.SIGKILL)
        return callback(*args, **kwargs)

    fake.backend.callback = callback_then_kill


async def storm_and_kill(fake: FakeDiscord, victim: BotProcess, rolls: dict) -> list[tuple[int, int, Reply]]:
    """Two clicks through each shard and a /push through the other shard for the first STORMED rolls, back to
    back; the victim dies a tenth of the way in. Returns (roll id, shard, reply) for what was delivered."""
    payloads = []
    for roll_id, (player, table, message) in list(rolls.items())[: round(len(rolls) * STORMED)]:
        payloads += [(roll_id, click_payload(fake, message, player), shard) for shard in (0, 1, 0, 1)]
        payloads.append((roll_id, slash_payload(fake, "push", {}, user=player, channel=table), 1 - HOME_SHARD))
    kill_when_answered(fake, victim, len(payloads) // 10)
    sent = [(roll_id, shard, await deliver(fake, payload, shard)) for roll_id, payload, shard in payloads]
    await asyncio.wait_for(victim.process.wait(), ANSWER_TIMEOUT)
    del fake.backend.callback
    return [(roll_id, shard, reply) for roll_id, shard, reply in sent if reply is not None]


async def test_a_process_killed_mid_storm_and_restarted_leaves_every_roll_pushed_once_or_pushable(
    fake_discord, tmp_path
):
    fake, db = fake_discord, tmp_path / "rollkeeper.sqlite3"
    processes = {shard: await start_shard(fake, tmp_path, shard, f"shard{shard}") for shard in (0, 1)}
    victim_shard = 1 - HOME_SHARD
    assert f"Running shard {HOME_SHARD} of 2: shard {HOME_SHARD} has 1 server" in processes[HOME_SHARD].log()
    assert f"Running shard {victim_shard} of 2: shard {victim_shard} has 0 servers" in processes[victim_shard].log()
    assert "Not syncing the slash commands" in processes[1].log()
    assert "Not syncing" not in processes[0].log() and len(fake.requests_to("PUT", PUT_GLOBAL)) == 1
    rolls = {}
    for number, player in enumerate(PLAYERS[:ROLLERS]):
        roll_id, message = await roll_for(fake, player, number)
        rolls[roll_id] = (player, TABLES.find_channel(int(message["channel_id"])), message)
    sent = await storm_and_kill(fake, processes[victim_shard], rolls)
    assert processes[victim_shard].process.returncode == -signal.SIGKILL
    survivor = [reply for _, shard, reply in sent if shard == HOME_SHARD]
    await asyncio.wait_for(asyncio.gather(*(reply.answered.wait() for reply in survivor)), ANSWER_TIMEOUT)
    answers = [(roll_id, reply) for roll_id, _, reply in sent if reply.callbacks]
    assert all(answered_once(reply) for _, reply in answers)
    rows = check_consistent(db, rolls, answers)
    pending = {roll_id for roll_id, row in rows.items() if row["state"] == "pending"}
    print(f"storm: {len(sent)} delivered, {len(answers)} answered; rolls {len(rows)}, pending {len(pending)}")
    assert pending and len(pending) < len(rows)

    processes[victim_shard] = await start_shard(fake, tmp_path, victim_shard, f"shard{victim_shard}-again")
    after = []
    for number, roll_id in enumerate(sorted(rows)):  # every roll's button, through either shard
        player, _, message = rolls[roll_id]
        reply = await answered(fake, click_payload(fake, message, player), number % 2)
        assert answered_once(reply)
        if roll_id in pending:
            assert is_pushed_roll(reply) and reply.type == 7, reply.describe()
        else:
            assert private_text(reply) == ALREADY_PUSHED, reply.describe()
        after.append((roll_id, reply))
    final = check_consistent(db, rolls, answers + after)
    assert {row["state"] for row in final.values()} == {"pushed"}
    for bot in processes.values():
        assert await bot.stop() == 0
        assert "Traceback" not in bot.log() and " ERROR " not in bot.log(), bot.log()
        assert TOKEN not in bot.log()


async def test_a_process_running_a_slice_of_the_shards_on_sqlite_refuses_to_start(fake_discord, tmp_path):
    environ = process_settings(tmp_path, 1)
    del environ[SHARE_SQLITE]
    log = tmp_path / "refused.log"
    assert await BotProcess.run_to_exit(fake_discord, tmp_path, log, **environ) == 2
    [line] = log.read_text().splitlines()
    assert line.startswith("SHARD_IDS=1 runs only some of the 2 shards") and "Use PostgreSQL" in line
    assert fake_discord.gateway.sessions == [] and not (tmp_path / "rollkeeper.sqlite3").exists()
