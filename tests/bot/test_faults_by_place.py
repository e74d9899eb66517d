"""Told = stored, once-only, in each place the app is played (issue 22): a server that added it, a server that did
not (the app came with the player's account) and a group DM.

The drills of test_faults.py, run in each: an answer lost, a duplicate delivery, a RESUME replay. Where the bot is
absent, its own token reaches no channel: the fake Discord answers such a request 403 and lists it as a violation,
and so it does a follow-up past the five Discord allows a user-installed app (the fixture fails the test on any).
"""

from __future__ import annotations

import asyncio

import pytest

from bot.interactions.answers import ANSWER_ATTEMPTS
from bot.playground.installs import MAX_FOLLOWUPS
from rules.dice import FixedDice
from tests.bot.embeds import give_faces
from tests.bot.test_faults import ANSWER_ROUTES, handling, query, resume_replaying, willpower
from tests.fakediscord import ALICE, BOB, GM, FakeDiscord, FakeGroupDM, FakeGuild, Reply
from tests.fakediscord.faults import says, shows

YZ = ("cogs.yearzero.cog", "cogs.willpower.cog")
HOME = FakeGuild("Faults at home")
NO_BOTS = FakeGuild("Faults without the bot", has_app=False)
PARTY = FakeGroupDM("faulty party", members=(ALICE, BOB, GM))
PLACES = {
    "server install": {"guild": HOME},
    "user install in a server without the bot": {"guild": NO_BOTS},
    "group DM": {"group": PARTY},
}

pytestmark = [pytest.mark.faults, pytest.mark.parametrize("where", list(PLACES))]


@pytest.fixture
def fake_guilds():
    return (HOME, NO_BOTS)


@pytest.fixture(autouse=True)
def never_overreaching(fake_discord):
    """A fault drill expects refusals (a repeat's 40060, a retried edit), so the fixture forgives violations; these
    it must not: the bot's own token in a channel it is not in, a follow-up past Discord's limit."""
    yield
    overreach = [str(violation) for violation in fake_discord.violations
                 if "own token" in violation.problem or "follow up" in violation.problem]
    assert overreach == [], overreach


async def roll(fake: FakeDiscord, bot, faces, place: dict) -> Reply:
    dice: FixedDice = give_faces(bot, "YearZero", *faces)
    reply = await fake.slash("yz", {"attribute": 2, "skill": 1}, **place)
    dice.finish()
    return reply


async def give_willpower(fake: FakeDiscord, place: dict, points: int) -> None:
    """A game master sets it where the server added the app; elsewhere the player sets their own."""
    if place.get("guild") is HOME:
        await fake.slash("willpower-set", {"player": ALICE, "points": points}, user=GM, guild=HOME)
    else:
        await fake.slash("willpower set", {"points": points}, **place)


def few_followups(fake: FakeDiscord) -> None:
    for reply in fake.backend.replies.values():
        assert len(reply.followup_ids) <= MAX_FOLLOWUPS, reply.describe()


async def test_a_push_whose_answer_is_lost_is_shown_on_the_next_click(start_bot, fake_discord, db_path, where):
    bot = await start_bot(extensions=YZ)
    place = PLACES[where]
    reply = await roll(fake_discord, bot, [6, 3, 2], place)
    give_faces(bot, "YearZero", 1, 1)
    for route in ANSWER_ROUTES:
        fake_discord.inject(*route, when=shows("pushed"), status=404)
    await fake_discord.click(reply, label="Push", expect_answer=False)
    assert "pushed" not in reply.embed["title"].lower()
    stored = query(db_path, "SELECT state FROM yz_rolls"), willpower(db_path)
    again = await fake_discord.click(reply, label="Push", expect_answer=False)
    assert "pushed" in reply.embed["title"].lower() and reply.message["components"] == [], again.describe()
    assert stored == ([("pushed",)], 2) and "Willpower +2 (now 2)" in reply.embed["description"]
    few_followups(fake_discord)


async def test_a_roll_whose_answer_is_lost_does_not_supersede_the_shown_one(start_bot, fake_discord, db_path, where):
    bot = await start_bot(extensions=YZ)
    place = PLACES[where]
    shown = await roll(fake_discord, bot, [6, 3, 2], place)
    for route in ANSWER_ROUTES:
        fake_discord.inject(*route, reset=True, times=ANSWER_ATTEMPTS, when=shows("`5` `4` `3`"))
    give_faces(bot, "YearZero", 5, 4, 3)
    lost = await fake_discord.slash("yz", {"attribute": 2, "skill": 1}, expect_answer=False, **place)
    assert lost.embeds == []
    give_faces(bot, "YearZero", 6, 6)
    pushed = await fake_discord.click(shown, label="Push")
    assert "pushed" in shown.embed["title"].lower() and shown.message["components"] == [], pushed.describe()
    assert query(db_path, "SELECT state FROM yz_roll_states") == [("pushed",)]


async def test_a_spend_whose_answer_is_reset_is_shown_as_spent(start_bot, fake_discord, db_path, where):
    bot = await start_bot(extensions=YZ)
    place = PLACES[where]
    await give_willpower(fake_discord, place, 5)
    for route in ANSWER_ROUTES:
        fake_discord.inject(*route, reset=True, when=says("spends"))
    spent = await fake_discord.slash("willpower spend", {"points": 2}, expect_answer=False, **place)
    assert spent.content.endswith("5 → **3**.") and not spent.followups, spent.describe()
    assert willpower(db_path) == 3 and bot.is_ready()


async def test_a_spend_delivered_twice_is_spent_once(start_bot, fake_discord, db_path, where):
    bot = await start_bot(extensions=YZ)
    place = PLACES[where]
    await give_willpower(fake_discord, place, 5)
    payload = fake_discord.command_payload("willpower spend", {"points": 2}, **place)
    delivered = asyncio.ensure_future(fake_discord.deliver_twice(payload, gap=0.05))
    await handling(bot, 2, delivered)
    reply = delivered.result()
    assert willpower(db_path) == 3 and reply.content.endswith("5 → **3**.")
    assert len(query(db_path, "SELECT * FROM applied_interactions WHERE interaction_id = ?", reply.id)) == 1


async def test_a_resume_that_replays_a_roll_and_a_push_applies_each_once(start_bot, fake_discord, db_path, where):
    bot = await start_bot(extensions=YZ)
    place = PLACES[where]
    reply = await roll(fake_discord, bot, [6, 3, 2], place)
    give_faces(bot, "YearZero", 1, 1, 3, 3, 3, 4, 4)
    await fake_discord.click(reply, label="Push")
    await resume_replaying(fake_discord, bot, 2)
    assert query(db_path, "SELECT count(*), min(state) FROM yz_rolls") == [(1, "pushed")]
    assert willpower(db_path) == 2 and "Willpower +2 (now 2)" in reply.embed["description"]
    assert reply.message["components"] == []
    shown = await fake_discord.slash("willpower show", **place)
    assert bot.is_ready() and shown.content.startswith("You have **2**")
    few_followups(fake_discord)
