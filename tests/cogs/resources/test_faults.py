"""Told = stored for /resource, as for Willpower, on SQLite and on PostgreSQL: an interaction Discord delivers twice
applies once and both deliveries show the first roll; an answer that never reaches the player is withdrawn
(rating, log entry and applied interaction), and the player is shown that nothing changed."""

from __future__ import annotations

import asyncio

import pytest

from bot.interactions.answers import ANSWER_ATTEMPTS, NOT_SHOWN
from bot.storage.resources import RatingChange
from tests.bot.embeds import give_faces
from tests.bot.interactions.test_one_request import held_up
from tests.bot.payloads import slash_payload
from tests.bot.test_faults import ANSWER_ROUTES, handling
from tests.fakediscord import ALICE, FakeDiscord, FakeGuild
from tests.fakediscord.faults import says, shows
from tests.storage.reading import outcome

COGS = ("cogs.resources.cog",)
KEEP = FakeGuild("The Keep")
LOST = {"reset": True, "times": ANSWER_ATTEMPTS}
"""Every try at an answer meets a reset connection: Discord never took it."""

pytestmark = pytest.mark.faults


@pytest.fixture
def fake_guilds():
    return (KEEP,)


@pytest.fixture(params=["sqlite", "postgres"], autouse=True)
def database(request) -> dict[str, str]:
    """Each database's settings, made first: PostgreSQL's is dropped after the bot stops."""
    return {} if request.param == "sqlite" else {"DATABASE_URL": request.getfixturevalue("postgres_url")}


@pytest.fixture
async def bot(database, start_bot):
    bot = await start_bot(extensions=COGS, **database)
    await bot.db.resources.change((KEEP.id, ALICE.id, "food"), RatingChange(0, 8), bot.now(), interaction_id=1)
    return bot


async def food(bot) -> int:
    return (await bot.db.resources.ratings(KEEP.id, ALICE.id))["food"]


async def logged(bot) -> list:
    return await bot.db.log.page(KEEP.id, KEEP.channels[0].id, ALICE.id)


def lose(fake: FakeDiscord, when) -> None:
    for route in ANSWER_ROUTES:
        fake.inject(*route, when=when, **LOST)


async def twice(fake: FakeDiscord, bot, *faces: int):
    """A roll Discord delivers twice, the dice giving these faces to whichever delivery rolls: the first, and the
    repeat when it finds the resource still rated."""
    dice = give_faces(bot, "ResourceCommands", *faces)
    payload = slash_payload(fake, "resource roll", {"resource": "food"})
    delivered = asyncio.ensure_future(fake.deliver_twice(payload, gap=0.05))
    await handling(bot, 2, delivered)
    return delivered.result(), dice


async def test_a_roll_delivered_twice_is_rolled_once_and_shows_the_first_roll(fake_discord, bot):
    reply, dice = await twice(fake_discord, bot, 5, 1)  # each delivery rolls, one a 5 and one a 1: one stands
    dice.finish()
    stored = await outcome(bot.db, reply.id)
    title = {5: "✅ Food holds · D8", 1: "❌ Food steps down · D6"}[stored["face"]]
    assert reply.embed["title"] == title and await food(bot) == stored["after"]  # as shown, so stored
    [entry] = await logged(bot)
    assert stored["entry_id"] == entry.id and entry.events == (("3/4:1",) if stored["face"] == 5 else ("3/4:0",))


async def test_the_repeat_of_a_roll_that_used_the_resource_up_leaves_its_card_standing(fake_discord, bot):
    await bot.db.resources.change((KEEP.id, ALICE.id, "food"), RatingChange(8, 6), bot.now(), interaction_id=2)
    reply, _ = await twice(fake_discord, bot, 2, 2)  # the repeat finds none left (refused), or rolls before the
    # first stored its roll and gets that roll back from the store: either way the first's card stands
    assert reply.embed["title"] == "💀 Food ran out" and not reply.ephemeral and not reply.followups, reply.describe()
    assert await food(bot) == 0 and len(await logged(bot)) == 1


async def test_a_roll_whose_answer_never_arrives_is_withdrawn(fake_discord, bot):
    lose(fake_discord, shows("Food steps down"))
    give_faces(bot, "ResourceCommands", 1)
    lost = await fake_discord.slash("resource roll", {"resource": "food"}, expect_answer=False)
    assert lost.content == NOT_SHOWN and not lost.embeds, lost.describe()
    assert await food(bot) == 8 and await logged(bot) == [] and await outcome(bot.db, lost.id) is None
    give_faces(bot, "ResourceCommands", 4)
    again = await fake_discord.slash("resource roll", {"resource": "food"})  # the player rolls again
    assert again.embed["title"] == "✅ Food holds · D8" and len(await logged(bot)) == 1


async def test_a_set_whose_answer_never_arrives_is_withdrawn(fake_discord, bot):
    lose(fake_discord, says("is now **D10**"))
    options = {"resource": "food", "rating": "d10"}
    lost = await fake_discord.slash("resource set", options, expect_answer=False)
    assert lost.content == NOT_SHOWN and await food(bot) == 8, lost.describe()
    assert await outcome(bot.db, lost.id) is None


@pytest.mark.parametrize("command", ["resource roll", "resource set"])
async def test_a_slow_rating_read_counts_in_the_budget_and_is_acknowledged_meanwhile(
    fake_discord: FakeDiscord, bot, database, command
):
    """The read of the rating waits behind a long write of the same bot past the budget (SQLite: the connection's
    turn): "thinking..." is shown meanwhile and the answer filled in, instead of a first callback sent too late."""
    if database:
        pytest.skip("PostgreSQL reads from another connection of the pool: a write does not hold them up")
    give_faces(bot, "ResourceCommands", 5)
    await bot.db.languages.get(KEEP.id)  # the server's language, remembered for a minute: only the rating is read
    options = {"resource": "food"} | ({"rating": "d10"} if command == "resource set" else {})
    reply = await held_up(bot, fake_discord.slash(command, options))
    assert reply.type == 5 and not reply.loading and reply.errors == [], reply.describe()
    assert await food(bot) == (8 if command == "resource roll" else 10)
