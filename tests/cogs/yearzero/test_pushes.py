"""/yz with the Pride die and several pushes: the buttons stay until the last push, a roll allowing none stores
nothing, out-of-range counts are refused, and the Nth push happens once. End to end through discord.py against the
fake Discord, on a real SQLite file. Faces are worked out by hand (RULES.md 6)."""

from __future__ import annotations

import asyncio

import pytest

from cogs.yearzero.card import PUSHED_DICE
from cogs.yearzero.cog import NO_ROLL_TO_PUSH
from tests.bot.embeds import below_title, field, odds
from tests.bot.payloads import slash_payload
from tests.cogs.yearzero.test_cog import GUILD, YZ, Constant, private_answer, roll, rows, use_faces, willpower
from tests.cogs.yearzero.test_endings import labels

pytestmark = pytest.mark.usefixtures("fake_discord")


@pytest.fixture
def fake_guilds():
    return (GUILD,)


async def test_pride_and_two_pushes_keep_the_buttons_until_the_last_push(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    # base 1 and 3, Pride 4: nothing scores; a push rerolls the 3 and the Pride die
    reply = await roll(fake_discord, bot, [1, 3, 4], attribute=2, skill=0, pride=True, pushes=2)
    assert reply.embed["title"] == "❌ No success"
    assert below_title(reply.embed)[:2] == [
        "Year Zero · Attribute 2 + Skill 0 + Pride", "Push (only you; 2 pushes left) to reroll 2 dice."
    ]
    assert field(reply.embed, "Dice") == "Base: `1`☠ `3`\nPride: `d12:4`" and labels(reply) == ["Push", "Keep"]
    assert " · with 2 pushes " in odds(reply.embed)
    use_faces(bot, 1, 5)  # the 3 becomes a bane, the Pride die a blank 5
    first_push = await fake_discord.click(reply, label="Push")
    assert first_push.type == 7 and labels(reply) == ["Push", "Keep"]
    assert "Willpower +2 (now 2)" in reply.embed["description"]  # the first roll's 1 and the new one
    assert "Push again (only you; 1 push left) to reroll 1 die." in below_title(reply.embed)
    use_faces(bot, 10)  # the Pride die alone: 3 successes
    second_push = await fake_discord.click(reply, label="Push")
    assert second_push.type == 7 and reply.components == []
    assert field(reply.embed, PUSHED_DICE) == "Base: `1`☠ `1`☠\nPride: ↻ `d12:10`⚔×3"
    assert reply.embed["title"].endswith("Pushed: no success → 3 successes")
    lines = below_title(reply.embed)
    assert "After 2 pushes: Willpower +2 in all" in lines and not any(line.startswith("Push ") for line in lines)
    [stored] = rows(db_path)
    assert (stored["state"], stored["pushes_made"], stored["pushes_allowed"]) == ("pushed", 2, 2)
    assert willpower(db_path) == 2


async def test_a_roll_allowing_no_push_has_no_buttons_and_stores_nothing(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=0)
    assert reply.components == [] and rows(db_path) == []
    assert "may not be pushed" in reply.embed["description"]
    assert odds(reply.embed).endswith(" · no push allowed")
    assert private_answer(await fake_discord.slash("push")) == NO_ROLL_TO_PUSH


async def test_out_of_range_pushes_are_refused_privately(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    for pushes in (-1, 4):  # past Discord's own bounds, as a hostile client could send them
        answer = await fake_discord.send_interaction(
            slash_payload(fake_discord, "yz", {"attribute": 2, "skill": 0, "pushes": 1}, pushes=pushes)
        )
        assert "`pushes` must be" in private_answer(answer)
    assert rows(db_path) == [] and bot.is_ready()


async def test_fifty_clicks_on_the_second_push_push_exactly_once(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=3)
    use_faces(bot, 4, 5)
    assert (await fake_discord.click(reply, label="Push")).type == 7
    bot.get_cog("YearZero").dice = Constant(1)  # every rerolled die becomes a bane: 2 WP for the one winner
    clicks = await asyncio.gather(*(fake_discord.click(reply, label="Push") for _ in range(50)))
    # Each click updates its message (7): those that lost the claim are shown the push that won, as stored.
    assert all(click.type == 7 for click in clicks) and reply.components == []
    assert {click.embed["description"] for click in clicks} == {reply.embed["description"]}
    [stored] = rows(db_path)
    assert (stored["state"], stored["pushes_made"]) == ("pushed", 2)  # nothing left to reroll after push 2
    assert willpower(db_path) == 2
