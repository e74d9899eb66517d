"""Told = stored under faults: the fake Discord's fault knobs, each shown working, and what the bot does.

Each test ends on the same check: what the player was told (the message as Discord keeps it) equals what the
store holds, nothing is applied twice, the bot still serves. The knobs: tests/fakediscord/faults.py.
"""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing

import pytest

from bot.interactions.answers import ANSWER_ATTEMPTS
from rules.dice import FixedDice
from tests.bot.embeds import give_faces
from tests.bot.payloads import slash_payload
from tests.fakediscord import ALICE, GM, FakeDiscord, FakeGuild, Reply, message_text
from tests.fakediscord.faults import CALLBACK, EDIT_ORIGINAL, says, shows

ANSWER_ROUTES = (("POST", CALLBACK), ("PATCH", EDIT_ORIGINAL))
"""The routes an answer can take: the interaction's first callback, or the edit of its original after a deferral
(a slow store) or once a callback was taken."""
YZ = ("cogs.yearzero.cog", "cogs.willpower.cog", "cogs.sevenkingdoms.cog")
GUILD = FakeGuild("Faults")


pytestmark = pytest.mark.faults


@pytest.fixture
def fake_guilds():
    return (GUILD,)


def query(db_path, sql: str, *params) -> list[tuple]:
    with closing(sqlite3.connect(db_path)) as connection:
        return connection.execute(sql, params).fetchall()


def willpower(db_path) -> int:
    found = query(db_path, "SELECT points FROM willpower WHERE user_id = ?", ALICE.id)
    return found[0][0] if found else 0


async def idle(bot) -> None:
    """Wait until the bot handles no interaction (a duplicate's second handling ends after the first)."""
    for _ in range(600):
        if bot.interactions_in_hand == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the bot kept interactions in hand")


async def handling(bot, interactions: int, action) -> None:
    """Run action (a coroutine), then wait until the bot has seen `interactions` interactions and handled them."""
    seen: list[int] = []

    async def note(interaction) -> None:
        seen.append(interaction.id)

    bot.add_listener(note, "on_interaction")
    try:
        await action
        for _ in range(600):
            if len(seen) >= interactions:
                break
            await asyncio.sleep(0.05)
        assert len(seen) == interactions, f"the bot saw {len(seen)} of {interactions} interactions"
        await asyncio.sleep(0.05)  # its handlers now hold their interactions
        await idle(bot)
    finally:
        bot.remove_listener(note, "on_interaction")


async def resume_replaying(fake: FakeDiscord, bot, events: int) -> None:
    """Drop the gateway; the RESUME replays the last `events` interactions; return once the bot handled them."""
    await handling(bot, events, fake.reconnect(replay=events))


async def roll(fake: FakeDiscord, bot, faces, **options) -> Reply:
    dice: FixedDice = give_faces(bot, "YearZero", *faces)
    reply = await fake.slash("yz", {"attribute": 2, "skill": 1} | options)
    dice.finish()
    return reply


def push_faces(bot, *faces: int) -> None:
    give_faces(bot, "YearZero", *faces)


# -- the knobs ---------------------------------------------------------------------------------------


async def test_a_status_fault_strikes_its_route_the_given_number_of_times(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    fault = fake_discord.inject("POST", CALLBACK, status=503, times=2)
    reply = await roll(fake_discord, bot, [6, 3, 2])  # discord.py retries a 5xx: the third try passes
    assert fault.hits == 2 and reply.type == 4 and "Year Zero" in reply.embed["description"]
    statuses = [request.status for request in reply.requests if request.template == CALLBACK]
    assert statuses == [503, 503, 200]


async def test_a_429_makes_discord_py_wait_retry_after(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    fake_discord.inject("POST", CALLBACK, status=429, retry_after=0.5)
    loop = asyncio.get_running_loop()
    started = loop.time()
    reply = await roll(fake_discord, bot, [6, 3, 2])
    assert loop.time() - started >= 0.5 and not reply.loading and reply.embeds
    assert [r.status for r in reply.requests if r.template == CALLBACK] == [429, 200]


async def test_a_reset_drops_the_connection_and_taken_applies_it_first(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    lost = fake_discord.inject("POST", CALLBACK, reset=True, taken=True)
    reply = await roll(fake_discord, bot, [6, 3, 2])
    # Discord took the answer, its reply was lost: the bot finds it shown (the original response) and keeps the roll.
    assert lost.hits == 1 and reply.type == 4 and reply.embeds and not reply.loading
    assert len(query(db_path, "SELECT id FROM yz_rolls")) == 1
    assert [r.template for r in reply.requests] == [CALLBACK, EDIT_ORIGINAL]  # the callback, then the look


async def test_a_hung_callback_answers_unknown_interaction_late(start_bot, fake_discord, db_path):
    await start_bot(extensions=YZ)
    fake_discord.inject("POST", CALLBACK, hang=0.3)
    reply = await fake_discord.slash("willpower spend", expect_answer=False)
    assert reply.callbacks == [] and [r.status for r in reply.requests] == [404]


# -- told = stored ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fault",
    [
        {"status": 404},  # the token is gone (a hung process, past 15 minutes): not retried
        {"reset": True, "times": ANSWER_ATTEMPTS},  # as many resets as the bot tries
    ],
    ids=["404", "resets"],
)
async def test_a_push_whose_answer_is_lost_is_shown_on_the_next_click(start_bot, fake_discord, db_path, fault):
    """Finding 1: the push is stored, its answer lost. The roller's next click shows the push as stored."""
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [6, 3, 2])
    push_faces(bot, 1, 1)
    for route in ANSWER_ROUTES:  # whichever way the bot answers with the pushed roll, it is lost
        fake_discord.inject(*route, when=shows("pushed"), **fault)
    await fake_discord.click(reply, label="Push", expect_answer=False)
    assert "pushed" not in reply.embed["title"].lower()  # the player still sees the first roll
    stored = query(db_path, "SELECT state FROM yz_rolls"), willpower(db_path)
    again = await fake_discord.click(reply, label="Push", expect_answer=False)
    assert "pushed" in reply.embed["title"].lower() and reply.message["components"] == [], again.describe()
    assert stored == ([("pushed",)], 2) and "Willpower +2 (now 2)" in reply.embed["description"]


async def test_a_roll_whose_answer_is_lost_does_not_supersede_the_shown_one(start_bot, fake_discord, db_path):
    """Finding 3: a /yz whose answer never arrives must not make the roll the player sees unpushable."""
    bot = await start_bot(extensions=YZ)
    shown = await roll(fake_discord, bot, [6, 3, 2])
    for route in ANSWER_ROUTES:
        fake_discord.inject(*route, reset=True, times=ANSWER_ATTEMPTS, when=shows("`5` `4` `3`"))  # this roll
    give_faces(bot, "YearZero", 5, 4, 3)
    lost = await fake_discord.slash("yz", {"attribute": 2, "skill": 1}, expect_answer=False)
    assert lost.embeds == []  # the player never saw this roll
    push_faces(bot, 6, 6)
    pushed = await fake_discord.click(shown, label="Push")
    assert "pushed" in shown.embed["title"].lower() and shown.message["components"] == [], pushed.describe()
    assert query(db_path, "SELECT state FROM yz_roll_states") == [("pushed",)]


async def test_a_spend_whose_acknowledgement_fails_spends_nothing(start_bot, fake_discord, db_path):
    """Finding 4, first half: the player is told the interaction failed, and nothing is spent."""
    await start_bot(extensions=YZ)
    await fake_discord.slash("willpower-set", {"player": ALICE, "points": 5}, user=GM)
    fake_discord.inject("POST", CALLBACK, status=503, times=6)
    failed = await fake_discord.slash("willpower spend", {"points": 2}, expect_answer=False)
    assert failed.callbacks == [] and willpower(db_path) == 5


async def test_a_spend_whose_answer_is_reset_is_shown_as_spent(start_bot, fake_discord, db_path):
    """Finding 4: the answer that says "spends" meets a reset. The player is shown the spend that was stored -
    never "try again" about a spend that happened (a retry would spend twice)."""
    bot = await start_bot(extensions=YZ)
    await fake_discord.slash("willpower-set", {"player": ALICE, "points": 5}, user=GM)
    for route in ANSWER_ROUTES:
        fake_discord.inject(*route, reset=True, when=says("spends"))
    spent = await fake_discord.slash("willpower spend", {"points": 2}, expect_answer=False)
    assert spent.content.endswith("5 → **3**.") and not spent.followups, spent.describe()
    assert willpower(db_path) == 3 and bot.is_ready()


# -- applied once -----------------------------------------------------------------------------------


async def test_a_spend_delivered_twice_is_spent_once(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    await fake_discord.slash("willpower-set", {"player": ALICE, "points": 5}, user=GM)
    payload = slash_payload(fake_discord, "willpower spend", {"points": 2})
    delivered = asyncio.ensure_future(fake_discord.deliver_twice(payload, gap=0.05))
    await handling(bot, 2, delivered)
    reply = delivered.result()
    assert willpower(db_path) == 3 and reply.content.endswith("5 → **3**.")
    assert len(query(db_path, "SELECT * FROM applied_interactions WHERE interaction_id = ?", reply.id)) == 1


async def test_a_resume_that_replays_a_roll_and_a_push_applies_each_once(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [6, 3, 2])
    # The push's two dice, then what a replay would roll if it were applied again: a pushable /yz (3 3 3), a push.
    push_faces(bot, 1, 1, 3, 3, 3, 4, 4)
    await fake_discord.click(reply, label="Push")
    await resume_replaying(fake_discord, bot, 2)  # the /yz and the click arrive again
    assert query(db_path, "SELECT count(*), min(state) FROM yz_rolls") == [(1, "pushed")]
    assert willpower(db_path) == 2 and "Willpower +2 (now 2)" in reply.embed["description"]
    assert reply.message["components"] == []
    assert bot.is_ready() and (await fake_discord.slash("willpower show")).content.startswith("You have **2**")


async def test_an_extended_roll_replayed_on_resume_counts_once(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "SevenKingdoms", 6, 6, 6, 6, 6, 6)  # the roll, and what its replay would roll
    options = {"task": "Siege", "needed": 10, "rank": 3, "difficulty": "Routine"}
    first = await fake_discord.slash("test extended", options)
    progress = query(db_path, "SELECT progress FROM extended_tests")
    await resume_replaying(fake_discord, bot, 1)
    assert query(db_path, "SELECT progress FROM extended_tests") == progress and progress[0][0] > 0
    assert f"+{progress[0][0]} degree" in message_text(first.message)


# -- drain --------------------------------------------------------------------------------------------


async def test_closing_refuses_new_interactions_and_finishes_those_in_hand(start_bot, fake_discord, db_path):
    """SIGTERM (bot.close) during pushes whose answers are slow: they are all shown as stored; a click that
    arrives while draining is told the bot restarts, and nothing is stored for it."""
    from bot.app.client import RESTARTING

    bot = await start_bot(extensions=YZ)
    first = await roll(fake_discord, bot, [6, 3, 2])
    push_faces(bot, 1, 1)
    fake_discord.inject("POST", CALLBACK, delay=1.0, when=shows("pushed"))  # the push's answer is slow
    in_hand = asyncio.create_task(fake_discord.click(first, label="Push"))
    await asyncio.sleep(0.3)
    closing_bot = asyncio.create_task(bot.close())
    await asyncio.sleep(0.1)
    refused = await fake_discord.slash("willpower spend", expect_answer=True)
    assert refused.content == RESTARTING and refused.ephemeral
    await in_hand
    await closing_bot
    assert "pushed" in first.embed["title"].lower() and first.message["components"] == []
    assert willpower(db_path) == 2  # the push in hand, as shown; the spend refused while draining spent nothing
