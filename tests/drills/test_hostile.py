"""Hostile input: raw INTERACTION_CREATE payloads Discord's client would never send, generated with hypothesis.

One bot serves a whole hypothesis run (pytest-asyncio runs every example of a test in the test's own event
loop, with its fixtures made once). Its database holds a player's rolls (one pending, one pushed), Willpower and
an extended task; a second player sends the payloads. For each one:
- the bot answers once, privately (an ephemeral plain message), or - for what Discord itself would never
  deliver, like a click without its message - at least stays up and logs nothing;
- discord.py could parse it and the bot is still running;
- nothing was logged at WARNING or above, and discord.py logged no error;
- every table of the database is exactly as before.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage.roll_records import PushRefusal
from cogs.yearzero.endings import REFUSED
from tests.drills.conftest import PLAYERS, SCALE, LogWatch, click_payload, dump_database, scaled, table_of
from tests.drills.crafted import crafted_click, crafted_command, unknown_command
from tests.drills.reading import PUSH_PREFIX, answered_once, is_pushed_roll, private_text, push_button_roll
from tests.fakediscord import FakeDiscord, Reply

EXAMPLES = scaled(50)
"""Examples per hypothesis test; at the default scale (CI) the same ones every run, random ones at larger scales."""
OWNER, HOSTILE = PLAYERS[0], PLAYERS[1]
TABLE = table_of(0)
HYPOTHESIS = settings(
    max_examples=EXAMPLES, deadline=None, database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], derandomize=SCALE == 1,
)


@dataclass
class Arena:
    """The running bot, its database with the owner's things in it, and the checks made after each payload."""

    fake: FakeDiscord
    db_path: object
    log_watch: LogWatch
    pending_roll: dict
    """The owner's pending roll's message."""
    pushed_roll: dict
    """The owner's pushed roll's first message, as posted (with its button)."""

    async def send(self, payload: dict, *, answered: bool = True) -> Reply:
        """Send payload and check it all; `answered`: it must be answered privately (else: if at all)."""
        before = dump_database(self.db_path)
        reply = await self.fake.send_interaction(payload, expect_answer=False)
        story = f"{reply.describe()}\n  data: {str(payload.get('data'))[:600]}"
        assert reply.parse_error is None and not self.fake._bot_task.done(), story
        problems = [*self.log_watch.lines(), *(record.getMessage() for record in self.fake.take_bot_errors())]
        self.log_watch.records.clear()
        assert problems == [], story
        assert dump_database(self.db_path) == before, story
        if answered or reply.callbacks:
            assert answered_once(reply) and private_text(reply), story
        return reply


@pytest.fixture
async def arena(start_bot, fake_discord, db_path, log_watch) -> Arena:
    bot = await start_bot()
    fake = fake_discord
    pushed = await fake.slash("yz", {"attribute": 4, "skill": 4}, user=OWNER, channel=table_of(1))
    first = copy.deepcopy(pushed.message)
    assert is_pushed_roll(await fake.click(pushed, label="Push", user=OWNER))
    pending = await fake.slash("yz", {"attribute": 4, "skill": 4}, user=OWNER, channel=TABLE)
    assert push_button_roll(pending.message) is not None
    await fake.slash("test extended", {"task": "the wall", "needed": 50, "rank": 3, "difficulty": "3"}, user=OWNER)
    await bot.db.rolls.messages.flush()  # message ids are written a moment later: settle them before comparing
    return Arena(fake, db_path, log_watch, copy.deepcopy(pending.message), first)


# -- the drills -------------------------------------------------------------------------------------------


@HYPOTHESIS
@given(data=st.data())
async def test_crafted_options_are_refused_privately_and_change_nothing(arena, data):
    await arena.send(data.draw(crafted_command(arena.fake, HOSTILE, TABLE), label="payload"))


@HYPOTHESIS
@given(data=st.data())
async def test_unknown_commands_and_subcommands_are_answered_privately(arena, data):
    await arena.send(data.draw(unknown_command(arena.fake, HOSTILE, TABLE), label="payload"))


@HYPOTHESIS
@given(data=st.data())
async def test_crafted_clicks_are_refused_privately_and_change_nothing(arena, data):
    owners = [arena.pending_roll, arena.pushed_roll]
    payload, deliverable = data.draw(crafted_click(arena.fake, owners, HOSTILE), label="click")
    reply = await arena.send(payload, answered=deliverable)
    if deliverable and payload["data"]["custom_id"] in {f"{PUSH_PREFIX}{push_button_roll(m)}" for m in owners}:
        assert private_text(reply) == REFUSED[PushRefusal.NOT_YOURS]


async def test_a_click_on_ones_own_roll_without_its_message_pushes_nothing(arena):
    """Discord always sends the clicked message. Without it the push could not be shown: it must not happen."""
    payload = click_payload(arena.fake, arena.pending_roll, OWNER)
    del payload["message"]
    await arena.send(payload, answered=False)
    pushed = await arena.fake.click(arena.pending_roll, label="Push", user=OWNER)
    assert is_pushed_roll(pushed) and pushed.type == 7  # the roll was still pending and pushable

