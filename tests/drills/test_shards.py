"""Shards across processes on one store: push storms arriving through both shards, a process killed mid-storm, and
PostgreSQL restarted mid-game.

Two bots run shard 0 and shard 1 of 2 and share one store. A roll's Push button can be clicked through either
shard (a player's client may be served by a process that has just taken the shard over), and /push can race the
clicks through the other one. Whatever the races, each roll is pushed once, and each player's Willpower is the
sum of the gains the bot reported to them. The checks read the store through its interface (`bot.storage`), so the
same checks hold on SQLite (two bots in this process sharing one file) and on PostgreSQL (two bot processes).
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import re
import signal
from collections import Counter, defaultdict

import pytest

from bot.app.opening import open_storage
from bot.shards import ShardPlan
from bot.storage.database import Storage
from bot.storage.roll_records import PushRefusal, RollState
from cogs.yearzero.cog import NO_ROLL_TO_PUSH
from cogs.yearzero.endings import REFUSED
from rules.yearzero.roll import YzRoll
from rules.yearzero.willpower import MAX_WILLPOWER
from tests.bot.payloads import slash_payload
from tests.bot.sharding import interactions_seen, shard_bot
from tests.drills.conftest import PLAYERS, TABLES, click_payload, scaled
from tests.drills.process import BotProcess
from tests.drills.reading import (
    CLICK_ANSWERS,
    answered_once,
    is_pushed_roll,
    private_text,
    push_button_roll,
    willpower_line,
)
from tests.fakediscord import FakeDiscord, FakeUser, Reply

TOKEN = "drill-token.shard-drill.never-log-me"
CLICKS = 50
ROLLS = scaled(6)
ALREADY_PUSHED = REFUSED[PushRefusal.ALREADY_PUSHED]
ANSWER_TIMEOUT = 60.0
PUT_GLOBAL = "/applications/{application_id}/commands"
HOME_SHARD = (TABLES.id >> 22) % 2
"""The shard that owns the game night's server; the other shard is the one a takeover would route through."""
OTHER_SHARD = 1 - HOME_SHARD


@pytest.fixture
async def fake_discord(discord_spec):
    """The game night's server on a fake Discord of two shards."""
    async with FakeDiscord(guilds=[TABLES], validator=discord_spec, timeout=60.0, shard_count=2) as fake:
        yield fake
        await fake.stop()
        fake.assert_clean()


async def answered(fake: FakeDiscord, payload: dict, shard: int) -> Reply:
    reply = await fake.send_interaction(payload, wait=False, shard=shard)
    await asyncio.wait_for(reply.final.wait(), ANSWER_TIMEOUT)
    return reply


async def roll_for(fake: FakeDiscord, player: FakeUser, number: int) -> tuple[int, tuple]:
    """The player rolls /yz with eight dice (pushable but for a chance of 1 in 6561) at a table.

    Returns (roll id, (player, table, the roll's message as posted: players may click a stale copy))."""
    table = TABLES.channels[number % len(TABLES.channels)]
    payload = slash_payload(fake, "yz", {"attribute": 4, "skill": 4}, user=player, channel=table)
    reply = await answered(fake, payload, HOME_SHARD)
    roll_id = push_button_roll(reply.message)
    assert roll_id is not None, reply.describe()
    return roll_id, (player, table, copy.deepcopy(reply.message))


async def check_store(store: Storage, rolls: dict[int, tuple], answers: list[tuple[int, Reply]]) -> dict[int, str]:
    """The store against what players saw: every roll pending or pushed once; each push shown is stored with the
    gain it showed; each player's Willpower is the (clamped) sum of the gains of their stored pushes. Returns each
    roll's state."""
    stored = {roll_id: await store.rolls.get(roll_id) for roll_id in rolls}
    gains: dict[int, int] = defaultdict(int)
    for roll in stored.values():
        assert roll is not None and roll.state in (RollState.PENDING, RollState.PUSHED), roll
        assert (roll.state is RollState.PUSHED) == (roll.pushed_payload is not None) == (roll.pushed_at is not None)
        if roll.pushed_payload is not None:
            gains[roll.user_id] += YzRoll.from_dict(json.loads(roll.pushed_payload)).willpower_gained
    shown: dict[int, set[str]] = defaultdict(set)  # a click that lost the race is shown the push that won
    for roll_id, reply in answers:
        if is_pushed_roll(reply):
            shown[roll_id].add(reply.embed["title"] + reply.embed["description"])
    assert all(len(cards) == 1 for cards in shown.values()), "a roll was shown pushed two ways"
    for roll_id, reply in answers:
        if is_pushed_roll(reply):
            pushed = stored[roll_id]
            assert pushed is not None and pushed.pushed_payload is not None, "a push was shown but not kept"
            assert willpower_line(reply)[0] == YzRoll.from_dict(json.loads(pushed.pushed_payload)).willpower_gained
    for player, *_ in rolls.values():
        assert await store.willpower.get(TABLES.id, player.id) == min(MAX_WILLPOWER, gains[player.id])
    return {roll_id: str(roll.state) for roll_id, roll in stored.items() if roll is not None}


# -- two bots in this process, one store ------------------------------------------------------------------------


def storm(fake: FakeDiscord, player: FakeUser, table, message: dict) -> list[tuple[dict, int]]:
    """CLICKS clicks on the roll's Push button, alternately through each shard, and /push through the middle."""
    payloads = [(click_payload(fake, message, player), number % 2) for number in range(CLICKS)]
    payloads.insert(CLICKS // 2, (slash_payload(fake, "push", {}, user=player, channel=table), OTHER_SHARD))
    return payloads


def one_push_each(answers: list[Reply]) -> None:
    """Every answer shows the one push (the losers of the race are shown the push that won) or is a private
    "already pushed" (or "no roll to push")."""
    assert all(answered_once(reply) for reply in answers)
    cards = {reply.embed["title"] + reply.embed["description"] for reply in answers if is_pushed_roll(reply)}
    assert len(cards) == 1, cards
    losers = Counter(private_text(reply) for reply in answers if not is_pushed_roll(reply))
    assert set(losers) <= {ALREADY_PUSHED, NO_ROLL_TO_PUSH}, losers


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
async def test_push_storms_through_two_shards_push_each_roll_once(fake_discord, make_settings, store, request):
    """Two bots (as two processes would) on one store: 50 clicks and a /push on each roll, through both shards."""
    fake = fake_discord
    environ = {"DATABASE_URL": request.getfixturevalue("postgres_url")} if store == "postgres" else {}
    bots = [await fake.run(shard_bot(make_settings, ShardPlan(count=2, ids=(shard,)), **environ)) for shard in (0, 1)]
    seen = [interactions_seen(bot) for bot in bots]
    rolls, answers = {}, []
    for number, player in enumerate(PLAYERS[:ROLLS]):
        roll_id, rolled = await roll_for(fake, player, number)
        rolls[roll_id] = rolled
        stormed = await asyncio.gather(*(answered(fake, payload, shard) for payload, shard in storm(fake, *rolled)))
        one_push_each(list(stormed))
        answers += [(roll_id, reply) for reply in stormed]
    # each shard carried half the clicks, plus the /yz (home shard) or the /push (the other) of every roll
    assert [len(through) for through in seen] == [ROLLS * (CLICKS // 2 + 1)] * 2
    states = await check_store(bots[1].db, rolls, answers)
    assert list(states.values()) == ["pushed"] * ROLLS
    await fake.stop()  # before the test's PostgreSQL database is dropped (a fixture asked for inside the test)


# -- two bot processes on PostgreSQL ----------------------------------------------------------------------------


def process_settings(database_url: str, shard: int) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": database_url, "LOG_LEVEL": "INFO",
            "SHARD_COUNT": "2", "SHARD_IDS": str(shard)}


@pytest.fixture
async def started():
    """Every bot process a drill starts; any still running at the end (a drill that failed) is killed."""
    processes: list[BotProcess] = []
    yield processes
    for bot in processes:
        await bot.kill()


async def start_shard(fake: FakeDiscord, tmp_path, started, database_url: str, shard: int, name: str) -> BotProcess:
    environ = process_settings(database_url, shard)
    bot = await BotProcess.start(fake, tmp_path, tmp_path / f"{name}.log", **environ)
    started.append(bot)
    await bot.until_ready()
    return bot


async def start_both(fake: FakeDiscord, tmp_path, started, database_url: str) -> dict[int, BotProcess]:
    """Shard 0's process first (it syncs the commands), then shard 1's; each logs its shard and servers."""
    processes = {
        shard: await start_shard(fake, tmp_path, started, database_url, shard, f"shard{shard}") for shard in (0, 1)
    }
    home, other = processes[HOME_SHARD].log(), processes[OTHER_SHARD].log()
    assert f"Running shard {HOME_SHARD} of 2: shard {HOME_SHARD} has 1 server" in home
    assert f"Running shard {OTHER_SHARD} of 2: shard {OTHER_SHARD} has 0 servers" in other
    assert "Not syncing the slash commands" in processes[1].log() and "Not syncing" not in processes[0].log()
    assert len(fake.requests_to("PUT", PUT_GLOBAL)) == 1
    return processes


async def roll_everyone(fake: FakeDiscord, players: tuple[FakeUser, ...]) -> dict[int, tuple]:
    return dict([await roll_for(fake, player, number) for number, player in enumerate(players)])


LOG_RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:", re.MULTILINE)
POOL_FLOOR = "WARNING  asyncpg.pool: Failed to restore the pool connection floor"
"""asyncpg's pool logs this, with the connection error's traceback, while the server is away (then retries)."""


async def stop_cleanly(processes: dict[int, BotProcess], *, server_away: bool = False) -> None:
    """SIGTERM each process: exit 0, no error or traceback logged (but asyncpg's own while the server was away),
    and no token."""
    for bot in processes.values():
        assert await bot.stop() == 0
        log = bot.log()
        assert TOKEN not in log and "Shutting down" in log
        records = [record for record in LOG_RECORD.split(log) if not (server_away and POOL_FLOOR in record)]
        assert not [record for record in records if "Traceback" in record or " ERROR " in record], log


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


async def storm_and_kill(fake: FakeDiscord, victim: BotProcess, rolls: dict, stormed: float) -> list[tuple]:
    """Two clicks through each shard and a /push through the other shard for the first `stormed` share of the
    rolls, back to back; the victim dies a tenth of the way in. Returns (roll id, shard, reply) as delivered."""
    payloads = []
    for roll_id, (player, table, message) in list(rolls.items())[: round(len(rolls) * stormed)]:
        payloads += [(roll_id, click_payload(fake, message, player), shard) for shard in (0, 1, 0, 1)]
        payloads.append((roll_id, slash_payload(fake, "push", {}, user=player, channel=table), OTHER_SHARD))
    kill_when_answered(fake, victim, len(payloads) // 10)
    sent = [(roll_id, shard, await deliver(fake, payload, shard)) for roll_id, payload, shard in payloads]
    await asyncio.wait_for(victim.process.wait(), ANSWER_TIMEOUT)
    del fake.backend.callback
    return [(roll_id, shard, reply) for roll_id, shard, reply in sent if reply is not None]


async def test_a_process_killed_mid_storm_and_restarted_leaves_every_roll_pushed_once_or_pushable(
    fake_discord, tmp_path, make_settings, postgres_url, started
):
    fake = fake_discord
    processes = await start_both(fake, tmp_path, started, postgres_url)
    rolls = await roll_everyone(fake, PLAYERS[: scaled(24)])
    sent = await storm_and_kill(fake, processes[OTHER_SHARD], rolls, stormed=0.6)
    assert processes[OTHER_SHARD].process.returncode == -signal.SIGKILL
    survivor = [reply for _, shard, reply in sent if shard == HOME_SHARD]
    await asyncio.wait_for(asyncio.gather(*(reply.final.wait() for reply in survivor)), ANSWER_TIMEOUT)
    answers = [(roll_id, reply) for roll_id, _, reply in sent if reply.callbacks]
    assert all(answered_once(reply) for _, reply in answers)
    store = await open_storage(make_settings(DATABASE_URL=postgres_url))
    try:
        states = await check_store(store, rolls, answers)
        pending = {roll_id for roll_id, state in states.items() if state == "pending"}
        print(f"storm: {len(sent)} delivered, {len(answers)} answered; rolls {len(rolls)}, pending {len(pending)}")
        assert pending and len(pending) < len(rolls)

        processes[OTHER_SHARD] = await start_shard(fake, tmp_path, started, postgres_url, OTHER_SHARD, "again")
        after = []
        for number, roll_id in enumerate(sorted(rolls)):  # every roll's button, through either shard
            player, _, message = rolls[roll_id]
            reply = await answered(fake, click_payload(fake, message, player), number % 2)
            assert answered_once(reply)
            if roll_id in pending:
                assert is_pushed_roll(reply) and reply.type in CLICK_ANSWERS, reply.describe()
            else:  # the roller is shown the push the store holds (or told it was pushed)
                assert is_pushed_roll(reply) or private_text(reply) == ALREADY_PUSHED, reply.describe()
            after.append((roll_id, reply))
        assert set((await check_store(store, rolls, answers + after)).values()) == {"pushed"}
    finally:
        await store.close()
    await stop_cleanly(processes)


@pytest.fixture(scope="module")
def own_server():
    """A PostgreSQL server of this module's own, which the drill below stops and starts again."""
    from tests.postgres import PostgresServer

    server = PostgresServer.start()
    yield server
    server.close()


async def test_postgresql_restarted_mid_game_and_both_processes_carry_on(
    fake_discord, tmp_path, make_settings, own_server, started
):
    fake, url = fake_discord, own_server.fresh_url("restart")
    processes = await start_both(fake, tmp_path, started, url)
    rolls = await roll_everyone(fake, PLAYERS[:8])
    await asyncio.sleep(0.5)  # the message ids noted after each roll are written
    await asyncio.to_thread(own_server.stop)
    refused = []
    for number, (roll_id, (player, _, message)) in enumerate(rolls.items()):  # while the server is away
        reply = await answered(fake, click_payload(fake, message, player), number % 2)
        assert answered_once(reply) and "try again" in (private_text(reply) or ""), reply.describe()
        refused.append((roll_id, reply))
    await asyncio.to_thread(own_server.resume)
    after = []
    for number, (roll_id, (player, _, message)) in enumerate(rolls.items()):  # the same buttons, once it is back
        reply = await pushed_when_back(fake, click_payload, message, player, number % 2)
        after.append((roll_id, reply))
    store = await open_storage(make_settings(DATABASE_URL=url))
    try:
        assert set((await check_store(store, rolls, refused + after)).values()) == {"pushed"}
    finally:
        await store.close()
    await stop_cleanly(processes, server_away=True)


async def pushed_when_back(fake: FakeDiscord, make_click, message: dict, player: FakeUser, shard: int) -> Reply:
    """Click until the push goes through: each process's pool reconnects at its own pace once the server is back;
    until then the player is told to try again, and nothing is written."""
    for _ in range(100):
        reply = await answered(fake, make_click(fake, message, player), shard)
        assert answered_once(reply)
        if is_pushed_roll(reply):
            return reply
        assert "try again" in (private_text(reply) or ""), reply.describe()
        await asyncio.sleep(0.2)
    raise AssertionError("the bot did not push again after PostgreSQL came back")


async def test_a_process_running_a_slice_of_the_shards_on_sqlite_refuses_to_start(fake_discord, tmp_path):
    environ = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "rollkeeper.sqlite3"),
               "SHARD_COUNT": "2", "SHARD_IDS": "1"}
    log = tmp_path / "refused.log"
    assert await BotProcess.run_to_exit(fake_discord, tmp_path, log, **environ) == 2
    [line] = log.read_text().splitlines()
    assert line.startswith("SHARD_IDS=1 runs only some of the 2 shards") and "Use PostgreSQL" in line
    assert fake_discord.gateway.sessions == [] and not (tmp_path / "rollkeeper.sqlite3").exists()


async def test_a_second_process_claiming_a_running_shard_refuses_to_start_naming_it(
    fake_discord, tmp_path, postgres_url, started
):
    """The shard lease holds the real shard ids: a process for shard 1 while shard 1 runs exits 2 naming shard 1;
    the process for shard 0 starts beside it."""
    first = await start_shard(fake_discord, tmp_path, started, postgres_url, 1, "shard1")
    log = tmp_path / "again.log"
    assert await BotProcess.run_to_exit(fake_discord, tmp_path, log, **process_settings(postgres_url, 1)) == 2
    [line] = [line for line in log.read_text().splitlines() if "already serving" in line]
    assert "is already serving shard 1 of this bot" in line
    other = await start_shard(fake_discord, tmp_path, started, postgres_url, 0, "shard0")
    await stop_cleanly({1: first, 0: other})


def every_shard_settings(database_url: str) -> dict[str, str]:
    """A process with SHARD_COUNT unset: it runs every shard of Discord's recommended count (2 here)."""
    return {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": database_url, "LOG_LEVEL": "INFO"}


async def test_a_process_running_discords_count_leases_every_shard_before_identifying(
    fake_discord, tmp_path, postgres_url, started
):
    """Shard 0's lease stands for every shard only until Discord's count is known: a process for shard 1 started
    beside one running them all is refused, naming shard 1."""
    environ = every_shard_settings(postgres_url)
    everything = await BotProcess.start(fake_discord, tmp_path, tmp_path / "all.log", **environ)
    started.append(everything)
    await everything.until_ready()
    log = tmp_path / "shard1.log"
    assert await BotProcess.run_to_exit(fake_discord, tmp_path, log, **process_settings(postgres_url, 1)) == 2
    assert "is already serving shard 1 of this bot" in log.read_text()
    await stop_cleanly({0: everything})


async def test_a_process_running_discords_count_stops_beside_one_serving_a_shard_of_it(
    fake_discord, tmp_path, postgres_url, started
):
    """The other way round: a process for shard 1 runs; one started with SHARD_COUNT unset learns Discord's count
    (2) as it connects, finds shard 1 served, and exits 2 naming it, while the first keeps serving."""
    first = await start_shard(fake_discord, tmp_path, started, postgres_url, 1, "shard1")
    log = tmp_path / "all.log"
    assert await BotProcess.run_to_exit(fake_discord, tmp_path, log, **every_shard_settings(postgres_url)) == 2
    printed = [line for line in log.read_text().splitlines() if not LOG_RECORD.match(line)]
    assert len(printed) == 1 and "is already serving shard 1 of this bot" in printed[0], printed
    identified = [session.identify["shard"] for session in fake_discord.gateway.sessions if session.identify]
    assert identified == [[1, 2]] and "Traceback" not in log.read_text(), identified  # the newcomer identified none
    await stop_cleanly({1: first})


async def test_sigterm_while_the_shards_still_connect_stops_the_process(fake_discord, tmp_path, postgres_url, started):
    """Shards connect 5 s apart (Discord's rate limit). A SIGTERM after the first connected and before the second
    did: the process stops and exits 0, the second shard never identifying (discord.py would retry connecting it
    for ever once the client is closed)."""
    bot = await BotProcess.spawn(fake_discord, tmp_path, tmp_path / "bot.log", **every_shard_settings(postgres_url))
    started.append(bot)
    for _ in range(600):
        if "Shard ID 0 has connected" in bot.log():
            break
        await asyncio.sleep(0.05)
    assert await bot.stop() == 0, bot.log()
    identified = [session.identify["shard"] for session in fake_discord.gateway.sessions if session.identify]
    assert identified == [[0, 2]] and "Shutting down" in bot.log()
