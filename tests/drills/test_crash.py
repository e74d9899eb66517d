"""Restart and crash: SIGKILL the bot process in the middle of a push storm, start a new one on the same database.

The bot runs the real `python -m bot` path in its own process (tests.drills.launcher); the fake Discord stays in
the test's process. Each roller has a pending roll at two tables; the storm clicks every Push button twice and
sends /push at both tables - the bursts of 60% of the rolls sent at once, the other players have not clicked yet -
and the fake SIGKILLs the first bot the moment it receives the answer to one in twenty of them, while the bot
still has interactions in hand and pushes committed but not yet answered. Then, reading the database and the answers:
- every roll is pushed once (state pushed, its pushed dice stored) or still pending - and then pushable;
- every push a player saw is in the database with the Willpower it showed (no answer without its commit);
- Willpower in the database is the (clamped) sum of the gains of the pushes the database records;
- the buttons posted before the crash work on the new process: a pending roll's button pushes it, a pushed
  roll's button shows the push as stored (whose answer the kill may have cut off); and the new bot stops
  cleanly on SIGTERM with exit code 0.
A player was told something once their interaction has a final answer (a deferral alone shows "thinking..." or
nothing, and Discord later says the interaction failed); those are the answers checked against the database.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import signal
from collections import defaultdict

from bot.storage.roll_records import PushRefusal
from cogs.yearzero.cog import NO_ROLL_TO_PUSH
from cogs.yearzero.endings import REFUSED
from rules.yearzero.roll import YzRoll
from rules.yearzero.willpower import MAX_WILLPOWER
from tests.bot.payloads import slash_payload
from tests.drills.conftest import PLAYERS, TABLES, click_payload, query, scaled
from tests.drills.process import BotProcess, answer_of
from tests.drills.reading import (
    CLICK_ANSWERS,
    answered_once,
    is_pushed_roll,
    private_text,
    push_button_roll,
    willpower_line,
)
from tests.fakediscord import FakeDiscord, Reply

TOKEN = "drill-token.crash-drill.never-log-me"
ROLLERS = scaled(40)
STORMED = 0.6
"""The share of the rolls whose bursts are sent before the kill."""
KILL_AT = 0.05
"""The share of the sent interactions answered when the first bot is killed: early, while most are in hand."""
ALREADY_PUSHED = REFUSED[PushRefusal.ALREADY_PUSHED]


def settings(tmp_path) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "rollkeeper.sqlite3"), "LOG_LEVEL": "INFO"}


async def roll_everyone(fake: FakeDiscord) -> dict[int, tuple]:
    """Each roller rolls /yz (8 dice: pushable but for a chance of 1 in 6561) at their table and the next one.

    Returns roll id -> (player, table, the first roll's message as posted: players may click a stale copy).
    """
    rollers = enumerate(PLAYERS[:ROLLERS])
    seats = [(player, TABLES.channels[(n + shift) % 20]) for n, player in rollers for shift in (0, 1)]
    options = {"attribute": 4, "skill": 4}
    replies = await asyncio.gather(
        *(answer_of(fake, slash_payload(fake, "yz", options, user=player, channel=table)) for player, table in seats)
    )
    rolls = {}
    for (player, table), reply in zip(seats, replies, strict=True):
        roll_id = push_button_roll(reply.message)
        if roll_id is not None:
            rolls[roll_id] = (player, table, copy.deepcopy(reply.message))
    assert len(rolls) >= len(seats) - 2, "nearly every 8-dice roll can be pushed"
    return rolls


def storm_bursts(fake: FakeDiscord, rolls: dict[int, tuple]) -> list[tuple[int, list[dict]]]:
    """For every roll, in a shuffled order, a burst of two clicks on its Push button and a /push at its table."""
    bursts = []
    for roll_id, (player, table, message) in rolls.items():
        clicks = [click_payload(fake, message, player) for _ in range(2)]
        bursts.append((roll_id, [*clicks, slash_payload(fake, "push", {}, user=player, channel=table)]))
    random.Random(4).shuffle(bursts)
    return bursts


def kill_at_answer(fake: FakeDiscord, bot: BotProcess, count: int) -> None:
    """SIGKILL the bot the moment the fake receives its count-th answer (from then on): a first callback with the
    answer (a message, an update), an edit or a followup on an interaction's token, each of which comes after the
    change was stored (an acknowledgement, a deferral under load, comes before it).

    Killing from the fake's request handler, not from a polling loop, lands the kill while the bot still has
    work in hand: interactions received but not handled, pushes claimed but not yet answered.
    """
    seen: list[None] = []

    def then_kill(answer, answers=lambda *args: True):
        def answered(*args, **kwargs):
            if answers(*args):
                seen.append(None)
            if len(seen) >= count and bot.process.returncode is None:
                os.kill(bot.process.pid, signal.SIGKILL)
            return answer(*args, **kwargs)

        return answered

    def not_a_deferral(interaction_id, token, body, files) -> bool:
        return body.get("type") not in (5, 6)

    fake.backend.callback = then_kill(fake.backend.callback, not_a_deferral)
    fake.backend.edit_webhook_message = then_kill(fake.backend.edit_webhook_message)
    fake.backend.followup = then_kill(fake.backend.followup)


async def storm_then_kill(fake: FakeDiscord, bot: BotProcess, bursts) -> list[tuple[int, Reply]]:
    """Send the bursts of the first STORMED rolls back to back; the bot dies at KILL_AT of them answered.

    The other rolls' bursts are never sent: their players had not clicked yet.
    """
    stormed = bursts[: round(len(bursts) * STORMED)]
    payloads = [(roll_id, payload) for roll_id, burst in stormed for payload in burst]
    kill_at_answer(fake, bot, round(len(payloads) * KILL_AT))
    sent = [(roll_id, await fake.send_interaction(payload, wait=False)) for roll_id, payload in payloads]
    await asyncio.wait_for(bot.process.wait(), 30)
    await asyncio.sleep(0.2)  # what was already on the wire has landed
    del fake.backend.callback, fake.backend.edit_webhook_message, fake.backend.followup
    return sent


def stored_rolls(db) -> dict[int, dict]:
    return {row["id"]: dict(row) for row in query(db, "SELECT * FROM yz_roll_states")}


def willpower_by_player(db) -> dict[int, int]:
    """Each player's Willpower in the database, players at 0 left out (as if they had no row)."""
    return {row["user_id"]: row["points"] for row in query(db, "SELECT user_id, points FROM willpower WHERE points")}


def expected_willpower(rows: dict[int, dict]) -> dict[int, int]:
    """min(10, sum of the gains): only gains here, so the order of the pushes does not matter."""
    gains: dict[int, int] = defaultdict(int)
    for row in rows.values():
        if row["state"] == "pushed":
            gains[row["user_id"]] += YzRoll.from_dict(json.loads(row["pushed_payload"])).willpower_gained
    return {user: min(MAX_WILLPOWER, total) for user, total in gains.items() if total}


def check_consistent(db, rolls: dict[int, tuple], answers: list[tuple[int, Reply]]) -> dict[int, dict]:
    """The database after the crash against what players saw; returns its rolls."""
    rows = stored_rolls(db)
    assert set(rows) == set(rolls)
    for row in rows.values():
        assert row["state"] in ("pending", "pushed"), row
        assert (row["state"] == "pushed") == (row["pushed_payload"] is not None) == (row["pushed_at"] is not None)
    for roll_id, reply in answers:  # a roll may be shown pushed more than once: each time, the push as stored
        if is_pushed_roll(reply):
            row = rows[roll_id]
            assert row["state"] == "pushed", "a push was shown but not kept"
            pushed = YzRoll.from_dict(json.loads(row["pushed_payload"]))
            assert willpower_line(reply)[0] == pushed.willpower_gained
    assert willpower_by_player(db) == expected_willpower(rows)
    return rows


async def test_sigkill_in_a_push_storm_then_restart_on_the_same_database(fake_discord, tmp_path):
    fake, env, db = fake_discord, settings(tmp_path), tmp_path / "rollkeeper.sqlite3"
    first = await BotProcess.start(fake, tmp_path, tmp_path / "first.log", **env)
    rolls = await roll_everyone(fake)
    answers = await storm_then_kill(fake, first, storm_bursts(fake, rolls))
    assert first.process.returncode == -9
    answered = [(roll_id, reply) for roll_id, reply in answers if reply.final.is_set()]
    print(f"storm: {len(answers)} sent, {len(answered)} answered before the kill")
    assert all(answered_once(reply) for _, reply in answered)
    for _, reply in answered:  # the losers of each race were told so, privately
        assert is_pushed_roll(reply) or private_text(reply) in (ALREADY_PUSHED, NO_ROLL_TO_PUSH), reply.describe()
    rows = check_consistent(db, rolls, answered)
    pending = [roll_id for roll_id, row in rows.items() if row["state"] == "pending"]
    shown = {roll_id for roll_id, reply in answered if is_pushed_roll(reply)}
    print(f"rolls {len(rows)}: pushed {len(rows) - len(pending)} (shown {len(shown)}), pending {len(pending)}")
    assert pending and len(pending) < len(rows), "some pushes landed before the kill, some did not"

    second = await BotProcess.start(fake, tmp_path, tmp_path / "second.log", **env)
    after = []
    for roll_id in sorted(rows):  # the buttons of the messages posted by the first bot
        player, _, message = rolls[roll_id]
        reply = await answer_of(fake, click_payload(fake, message, player))
        assert answered_once(reply)
        assert is_pushed_roll(reply) and reply.type in CLICK_ANSWERS, reply.describe()  # pushed now, or as stored
        assert reply.message["components"] == [], reply.describe()
        after.append((roll_id, reply))
    final = check_consistent(db, rolls, answered + after)
    assert {row["state"] for row in final.values()} == {"pushed"}
    await second.until_ready()
    assert await second.stop() == 0
    for log in (first.log(), second.log()):
        assert "Traceback" not in log and " ERROR " not in log, log
        assert TOKEN not in log and "[token hidden]" not in log
    assert "Shutting down" in second.log()
