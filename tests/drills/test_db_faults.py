"""Database faults: locked by another process for longer than busy_timeout, and unusable at start-up.

At start-up (`python -m bot`, exit code 2, one paragraph naming the path, no traceback, no token):
tests/bot/app/test_main.py covers a missing and an unwritable directory; here, the other ways a path can be
unusable, and a database locked past busy_timeout when the bot starts.

While another process holds ``BEGIN EXCLUSIVE`` on the bot's database, players roll /yz, click Push and spend
Willpower, all at once. Each gets the clear private "try again" message - in time: with the default busy_timeout
(2 s), within Discord's 3-second window; with a shorter one, within it plus the same 1 s - and nothing is
written at all (the database dumps equal). "Half-written" would be a pushed roll without its Willpower, Willpower
without its push, or a roll stored without the answer that shows it: none can exist if nothing was written, and
after the lock is released the same clicks push and the database holds exactly what the players were shown.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from bot.app.opening import DEFAULT_BUSY_TIMEOUT_MS, open_sqlite
from bot.storage.errors import NotEnoughWillpower, StorageBusy
from bot.storage.roll_messages import MESSAGE_FLUSH_DELAY
from rules.yearzero.roll import YzRoll
from rules.yearzero.willpower import MAX_WILLPOWER
from tests.bot.app.test_main import SECRET, assert_clean_refusal, run_bot
from tests.drills.conftest import PLAYERS, dump_database, query, table_of
from tests.drills.process import ROOT, BotProcess
from tests.drills.reading import answered_once, is_pushed_roll, private_text, push_button_roll, willpower_line
from tests.fakediscord import FakeDiscord

YZ = ("cogs.yearzero.cog", "cogs.willpower.cog")
BUSY_MS = 400
"""A short busy_timeout, for the drills that need not wait out the default (2000 ms)."""
MARGIN = 3.0 - DEFAULT_BUSY_TIMEOUT_MS / 1000
"""Discord's window for the first answer (3 s) less the default busy_timeout: the time left for the rest."""
TRY_AGAIN = StorageBusy().message
NO_POINTS = NotEnoughWillpower(0, 1).message
ROLLERS, CLICKERS, SPENDERS = PLAYERS[:8], PLAYERS[8:16], PLAYERS[16:20]


class Locker:
    """`python -m tests.drills.locker`: another process holding BEGIN EXCLUSIVE on the database."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def lock(cls, path) -> Locker:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.drills.locker", str(path), cwd=ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )
        assert await asyncio.wait_for(process.stdout.readline(), 30) == b"locked\n"
        return cls(process)

    async def release(self) -> None:
        self.process.stdin.write(b"release\n")
        await self.process.stdin.drain()
        assert await asyncio.wait_for(self.process.stdout.readline(), 30) == b"released\n"
        assert await self.process.wait() == 0


async def timed(coroutine):
    started = time.perf_counter()
    reply = await coroutine
    return reply, time.perf_counter() - started


async def first_rolls(fake: FakeDiscord) -> dict:
    """Each clicker rolls at their table (8 dice: pushable); returns player -> the roll's message."""
    messages = {}
    for number, player in enumerate(CLICKERS, start=8):
        reply = await fake.slash("yz", {"attribute": 4, "skill": 4}, user=player, channel=table_of(number))
        assert push_button_roll(reply.message) is not None
        messages[player] = reply.message
    return messages


def everyone_at_once(fake: FakeDiscord, messages: dict) -> list:
    rolls = [
        fake.slash("yz", {"attribute": 3, "skill": 3}, user=player, channel=table_of(number))
        for number, player in enumerate(ROLLERS)
    ]
    clicks = [fake.click(messages[player], label="Push", user=player) for player in CLICKERS]
    spends = [
        fake.slash("willpower spend", user=player, channel=table_of(number))
        for number, player in enumerate(SPENDERS, start=16)
    ]
    return [timed(action) for action in (*rolls, *clicks, *spends)]


def check_whole(db_path) -> None:
    """Every pushed roll has its pushed dice, and Willpower is exactly the (clamped) sum of the pushes' gains."""
    gains: dict[int, int] = defaultdict(int)
    for row in query(db_path, "SELECT * FROM yz_roll_states"):
        assert (row["state"] == "pushed") == (row["pushed_payload"] is not None)
        if row["state"] == "pushed":
            gains[row["user_id"]] += YzRoll.from_dict(json.loads(row["pushed_payload"])).willpower_gained
    stored = {row["user_id"]: row["points"] for row in query(db_path, "SELECT * FROM willpower WHERE points")}
    assert stored == {user: min(MAX_WILLPOWER, gain) for user, gain in gains.items() if gain}


@pytest.mark.parametrize("busy_ms", [BUSY_MS, DEFAULT_BUSY_TIMEOUT_MS])
async def test_a_lock_held_past_busy_timeout_gets_try_again_in_time_and_writes_nothing(
    start_bot, fake_discord, db_path, log_watch, busy_ms
):
    bot = await start_bot(extensions=YZ, busy_timeout_ms=busy_ms)
    messages = await first_rolls(fake_discord)
    await bot.db.rolls.messages.flush()  # message ids are written a moment later: settle them before comparing
    before = dump_database(db_path)
    locker = await Locker.lock(db_path)
    try:
        answers = await asyncio.gather(*everyone_at_once(fake_discord, messages))
    finally:
        await locker.release()
    slowest = max(seconds for _, seconds in answers)
    print(f"locked: {len(answers)} interactions, answers in {min(s for _, s in answers):.2f}-{slowest:.2f} s")
    for reply, seconds in answers:
        # A spend is checked against the points read first (reads pass the lock): these players have none.
        told = (TRY_AGAIN, NO_POINTS) if reply.interaction["data"].get("name") == "willpower" else (TRY_AGAIN,)
        assert answered_once(reply) and private_text(reply) in told, reply.describe()
        assert seconds <= busy_ms / 1000 + MARGIN, f"answered after {seconds:.2f} s: too late for Discord's window"
    assert dump_database(db_path) == before

    clicks = (fake_discord.click(messages[player], label="Push", user=player) for player in CLICKERS)
    after = await asyncio.gather(*clicks)
    for reply in after:
        assert answered_once(reply) and is_pushed_roll(reply) and reply.type == 7, reply.describe()
        gain, now = willpower_line(reply)
        assert now == (min(MAX_WILLPOWER, gain) if gain else None)
    rolled = await fake_discord.slash("yz", {"attribute": 3, "skill": 3}, user=ROLLERS[0], channel=table_of(0))
    assert rolled.type == 4 and rolled.embeds and not rolled.ephemeral
    check_whole(db_path)
    assert log_watch.lines() == []


async def test_a_lock_taken_just_after_a_roll_was_shown(start_bot, fake_discord, db_path, log_watch):
    """The roll is stored and shown; only remembering its message id (written a moment later) meets the lock.
    The player saw the roll (pushable): telling them to try again would make them roll again, and lose this roll
    to the new one. So nothing is said to them, a warning is logged, and the roll's button still works."""
    await start_bot(extensions=YZ, busy_timeout_ms=BUSY_MS)
    backend, answer_roll = fake_discord.backend, fake_discord.backend.callback
    locker = sqlite3.connect(db_path, isolation_level=None)

    def lock_after_answering(*args, **kwargs):
        answer = answer_roll(*args, **kwargs)  # the roll, stored, is shown in the interaction's first callback
        locker.execute("BEGIN EXCLUSIVE")  # the bot is waiting for this answer: it holds no lock now
        return answer

    backend.callback = lock_after_answering
    try:
        reply = await fake_discord.slash("yz", {"attribute": 4, "skill": 4}, user=ROLLERS[0], channel=table_of(0))
        await asyncio.sleep(MESSAGE_FLUSH_DELAY + 2 * BUSY_MS / 1000)  # the noted message id meets the lock
    finally:
        del backend.callback
        locker.execute("ROLLBACK")
        locker.close()
    assert answered_once(reply) and reply.embeds and not reply.ephemeral, reply.describe()
    assert reply.followups == [], reply.describe()
    [row] = query(db_path, "SELECT * FROM yz_roll_states")
    assert row["state"] == "pending" and push_button_roll(reply.message) == row["id"]
    assert row["message_id"] is None  # lost with the lock: only /push's clean-up of the old button needs it
    pushed = await fake_discord.click(reply, label="Push", user=ROLLERS[0])
    assert is_pushed_roll(pushed) and pushed.type == 7
    # The roll log's entry was stored with the roll, before the lock: it is there, and no warning is about it.
    assert [entry["id"] for entry in query(db_path, "SELECT id FROM roll_log")] == [row["id"]]
    [warning] = log_watch.lines()
    assert warning.startswith("WARNING bot.storage.roll_messages: Could not note the messages of 1 Year Zero rolls")


# -- at start-up -------------------------------------------------------------------------------------------


def a_directory(tmp_path: Path) -> tuple[Path, str]:
    (tmp_path / "dice.sqlite3").mkdir()
    return tmp_path / "dice.sqlite3", "exists but is not a file"


def under_a_file(tmp_path: Path) -> tuple[Path, str]:
    (tmp_path / "saves").write_text("not a directory")
    return tmp_path / "saves" / "dice.sqlite3", "is not a directory"


def not_a_database(tmp_path: Path) -> tuple[Path, str]:
    (tmp_path / "dice.sqlite3").write_bytes(b"a spreadsheet, maybe " * 100)
    return tmp_path / "dice.sqlite3", "file is not a database"


@pytest.mark.parametrize("unusable", [a_directory, under_a_file, not_a_database])
def test_an_unusable_database_path_is_named_at_start_up(tmp_path, unusable):
    path, reason = unusable(tmp_path)
    before = path.read_bytes() if path.is_file() else None
    stderr = assert_clean_refusal(run_bot(tmp_path, DISCORD_TOKEN=SECRET, DATABASE_PATH=str(path)))
    assert str(path) in stderr and reason in stderr
    assert (path.read_bytes() if path.is_file() else None) == before  # left as it was


async def test_a_database_locked_past_busy_timeout_at_start_up_is_named(fake_discord, tmp_path):
    """The lock does not stop the start-up checks (a lock is not a fault); it stops the first write, after the
    login, with the default busy_timeout: exit 2 and a message for whoever runs the bot, naming the file."""
    path = tmp_path / "dice.sqlite3"
    async with await open_sqlite(path):  # an existing, migrated database
        pass
    locker = await Locker.lock(path)
    try:
        log = tmp_path / "bot.log"
        code = await BotProcess.run_to_exit(fake_discord, tmp_path, log, DISCORD_TOKEN=SECRET, DATABASE_PATH=str(path))
    finally:
        await locker.release()
    output = log.read_text()
    assert code == 2, output
    assert f"Cannot use the database at {path}: another program kept it locked past the busy timeout" in output
    assert "Traceback" not in output and SECRET not in output and TRY_AGAIN not in output
