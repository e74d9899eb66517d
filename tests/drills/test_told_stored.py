"""Told = stored, with the real `python -m bot` in its own process (issue 9, findings 2 and 5).

- Two processes started with one token on one database: the second is refused with one line and exit code 2
  (it would answer every interaction a second time); the first keeps serving, and after it stops a new start
  takes over its lease.
- SIGTERM during a push storm whose answers are slow (every acknowledgement and every answer delayed): the bot
  drains. Every push stored was shown to its player with the Willpower stored; every click told nothing, or told
  that the bot restarts, left its roll pending; the process exits 0.
The in-process tests of the other findings (a lost answer, a duplicate delivery, a RESUME replay): tests/bot/
test_faults.py.
"""

from __future__ import annotations

import asyncio
import json
import re

from bot.app.client import RESTARTING
from rules.yearzero.roll import YzRoll
from tests.bot.payloads import slash_payload
from tests.drills.conftest import PLAYERS, click_payload, query, table_of
from tests.drills.process import BotProcess, answer_of
from tests.drills.reading import is_pushed_roll, private_text, push_button_roll, willpower_line
from tests.fakediscord import FakeDiscord, Reply
from tests.fakediscord.faults import CALLBACK, EDIT_ORIGINAL

LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ ")
TOKEN = "drill-token.told-stored.never-log-me"
ROLLERS = PLAYERS[:24]
LATE = 6
"""Rollers whose clicks arrive after the SIGTERM."""


def settings(tmp_path) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "rollkeeper.sqlite3"), "LOG_LEVEL": "INFO"}


async def test_a_second_process_on_the_same_database_is_refused(fake_discord, tmp_path):
    env = settings(tmp_path)
    first = await BotProcess.start(fake_discord, tmp_path, tmp_path / "first.log", **env)
    try:
        await first_refuses_a_second(fake_discord, tmp_path, env, first)
    finally:
        await first.kill()  # a no-op once it stopped; else no bot outlives a failed drill


async def first_refuses_a_second(fake_discord, tmp_path, env: dict[str, str], first: BotProcess) -> None:
    await first.until_ready()
    code = await BotProcess.run_to_exit(fake_discord, tmp_path, tmp_path / "second.log", **env)
    output = (tmp_path / "second.log").read_text().strip().splitlines()
    refusal = [line for line in output if not LOG_LINE.match(line)]  # what is printed beside the log
    assert code == 2 and len(refusal) == 1 and "Another rollkeeper" in refusal[0], refusal
    assert "already serving shard 0" in refusal[0] and TOKEN not in refusal[0]
    shown = await answer_of(fake_discord, slash_payload(fake_discord, "willpower show", {}, user=PLAYERS[0]))
    assert "**0** Willpower" in private_text(shown)  # the first still serves
    assert await first.stop() == 0
    third = await BotProcess.start(fake_discord, tmp_path, tmp_path / "third.log", **env)
    try:
        await third.until_ready()
        assert await third.stop() == 0
    finally:
        await third.kill()


async def roll_all(fake: FakeDiscord) -> dict:
    """Each roller rolls 8 dice (pushable) at their table; returns player -> (roll id, message)."""
    replies = await asyncio.gather(*(
        answer_of(fake, slash_payload(fake, "yz", {"attribute": 4, "skill": 4}, user=player, channel=table_of(n)))
        for n, player in enumerate(ROLLERS)
    ))
    pairs = zip(ROLLERS, replies, strict=True)
    return {player: (push_button_roll(reply.message), reply.message) for player, reply in pairs}


def check_told_equals_stored(db, clicks: list[tuple[int, Reply]]) -> None:
    """Every push stored was shown with its stored gain; every click not shown pushed left its roll pending."""
    rows = {row["id"]: row for row in query(db, "SELECT * FROM yz_roll_states")}
    shown = set()
    for roll_id, reply in clicks:
        row = rows[roll_id]
        if is_pushed_roll(reply):
            shown.add(roll_id)
            stored = YzRoll.from_dict(json.loads(row["pushed_payload"]))
            assert row["state"] == "pushed" and willpower_line(reply)[0] == stored.willpower_gained
        else:
            assert row["state"] == "pending", f"told {private_text(reply)!r} but stored {row['state']}"
    assert {roll_id for roll_id, row in rows.items() if row["state"] == "pushed"} == shown


async def test_sigterm_during_a_slow_push_storm_drains(fake_discord, tmp_path):
    fake, env = fake_discord, settings(tmp_path)
    bot = await BotProcess.start(fake, tmp_path, tmp_path / "bot.log", **env)
    try:
        await storm_and_drain(fake, bot, tmp_path / "rollkeeper.sqlite3")
    finally:
        await bot.kill()  # a no-op once it stopped


async def storm_and_drain(fake: FakeDiscord, bot: BotProcess, db) -> None:
    await bot.until_ready()
    rolls = await roll_all(fake)
    fake.inject("POST", CALLBACK, delay=1.5, times=10_000)  # slow: together more than 3 s for a push
    fake.inject("PATCH", EDIT_ORIGINAL, delay=1.5, times=10_000)
    early, late = ROLLERS[:-LATE], ROLLERS[-LATE:]
    clicks = [
        (rolls[p][0], await fake.send_interaction(click_payload(fake, rolls[p][1], p), wait=False)) for p in early
    ]
    await asyncio.sleep(0.5)  # the clicks are in hand, their acknowledgements on the wire
    bot.process.send_signal(15)
    await asyncio.sleep(0.3)
    for player in late:  # after SIGTERM: refused (the bot restarts) or never taken; never half done
        if bot.process.returncode is None and fake.gateway.session is not None and not fake.gateway.session.closed:
            sent = await fake.send_interaction(click_payload(fake, rolls[player][1], player), wait=False)
            clicks.append((rolls[player][0], sent))
    assert await asyncio.wait_for(bot.process.wait(), 60) == 0, bot.log()
    await asyncio.sleep(0.5)
    pushed = sum(is_pushed_roll(reply) for _, reply in clicks)
    restarting = sum(private_text(reply) == RESTARTING for _, reply in clicks)
    print(f"drain: {len(clicks)} clicks, {pushed} pushed and shown, {restarting} told the bot restarts")
    assert pushed >= len(early) // 2, "the clicks in hand were finished"
    check_told_equals_stored(db, clicks)
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log
