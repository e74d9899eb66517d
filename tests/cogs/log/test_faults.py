"""The roll log under faults, through the fake Discord. It applies once too: a push or an extended roll that
Discord delivers twice is logged once, so /stats counts its luck event, Willpower and banes once (issue 9's rule
on issue 12's log). A private roll whose push answer was lost is shown as stored with its Reveal button."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.bot.embeds import field, give_faces
from tests.bot.payloads import slash_payload
from tests.bot.test_faults import ANSWER_ROUTES, GUILD, YZ, handling, query, willpower
from tests.fakediscord.faults import shows

COGS = (*YZ, "cogs.log.cog")


pytestmark = pytest.mark.faults


@pytest.fixture
def fake_guilds():
    return (GUILD,)


def logged(db_path) -> list[tuple[str, str, dict]]:
    """Every log entry: its kind, luck events and extras."""
    rows = query(db_path, "SELECT kind, events, extras FROM roll_log ORDER BY id")
    return [(kind, events, json.loads(extras)) for kind, events, extras in rows]


async def twice(fake, bot, command: str, options: dict):
    """Deliver one slash command twice (a duplicate delivery) and wait until both were handled."""
    delivered = asyncio.ensure_future(fake.deliver_twice(slash_payload(fake, command, options), gap=0.05))
    await handling(bot, 2, delivered)
    return delivered.result()


async def test_a_push_delivered_twice_is_logged_once(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "YearZero", 3, 4)
    await fake_discord.slash("yz", {"attribute": 2, "pushes": 2})  # two pushes allowed: a repeat could push again
    give_faces(bot, "YearZero", 1, 3, 2, 2, 2, 2)  # the push (one bane), then what a repeat would roll
    await twice(fake_discord, bot, "push", {})
    assert query(db_path, "SELECT pushes_made FROM yz_rolls") == [(1,)] and willpower(db_path) == 1
    [(kind, events, extras)] = logged(db_path)
    assert kind == "roll" and extras == {"pushes": 1, "willpower": 1, "banes": 1}
    assert len(events.split()) == 2  # the roll's luck event and its push's, once each
    yz = field((await fake_discord.slash("stats")).embed, "Year Zero")
    assert "1 push," in yz and "1 Willpower gained" in yz and "0 of 2 chances succeeded" in yz

    give_faces(bot, "YearZero", 6)  # the second push is still logged, once
    await fake_discord.slash("push")
    assert logged(db_path)[0][2]["pushes"] == 2


async def test_an_extended_roll_delivered_twice_is_logged_once(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "SevenKingdoms", 6, 6, 6, 6, 6, 6)  # the roll, and what a repeat would roll
    options = {"task": "Siege", "needed": 10, "rank": 3, "difficulty": "Routine"}
    await twice(fake_discord, bot, "test extended", options)
    entries = logged(db_path)
    assert [kind for kind, _, _ in entries] == ["extended"] and len(entries[0][1].split()) == 1
    stats = await fake_discord.slash("stats")
    assert field(stats.embed, "In total").startswith("1 roll\n")


async def test_a_private_roll_and_a_year_zero_roll_without_push_delivered_twice_are_logged_once(
    start_bot, fake_discord, db_path
):
    bot = await start_bot(extensions=(*COGS, "cogs.heroic.cog"))
    give_faces(bot, "Heroic", 5, 4, 1, 2)  # the roll, and what a repeat would roll
    await twice(fake_discord, bot, "heroic tn", {"skill": 2, "tn": 8, "private": True})
    give_faces(bot, "YearZero", 3, 4, 2, 2)
    await twice(fake_discord, bot, "yz", {"attribute": 2, "pushes": 0})
    assert [kind for kind, _, _ in logged(db_path)] == ["task", "roll"]
    assert field((await fake_discord.slash("stats")).embed, "In total").startswith("2 rolls")


async def test_a_private_push_whose_answer_is_lost_is_shown_with_reveal_on_the_next_click(start_bot, fake_discord):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "YearZero", 6, 3, 2)
    secret = await fake_discord.slash("yz", {"attribute": 2, "skill": 1, "private": True})
    give_faces(bot, "YearZero", 1, 1)
    for route in ANSWER_ROUTES:  # whichever way the bot answers with the pushed roll, it is lost
        fake_discord.inject(*route, when=shows("pushed"), status=404)
    await fake_discord.click(secret, label="Push", expect_answer=False)
    await fake_discord.click(secret, label="Push", expect_answer=False)  # shown the push as stored
    buttons = [button["label"] for row in secret.message["components"] for button in row["components"]]
    assert "pushed" in secret.embed["title"].lower() and buttons == ["Reveal"]


async def test_a_year_zero_roll_without_push_delivered_twice_keeps_showing_the_first_dice(
    start_bot, fake_discord, db_path
):
    """The repeat must not roll again and edit the answer: the player would see dice the log does not hold."""
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "YearZero", 6, 6, 1, 1)  # the roll (two successes), and what a repeat would roll (two banes)
    reply = await twice(fake_discord, bot, "yz", {"attribute": 2, "pushes": 0})
    shown = json.dumps(reply.message["embeds"][0], ensure_ascii=False)
    assert reply.message["embeds"][0]["title"].startswith("✅") and "`6`" in shown and "`1`" not in shown
    [(kind, events, _)] = logged(db_path)
    assert kind == "roll" and events.split()[0].endswith(":1")


async def test_a_pushable_year_zero_roll_delivered_twice_keeps_showing_the_first_dice(
    start_bot, fake_discord, db_path
):
    """The repeat finds the first delivery's roll stored and answers with it, not with the dice it rolled itself."""
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "YearZero", 6, 3, 2, 2)  # the roll (one success), then the repeat's (none; pushable too)
    reply = await twice(fake_discord, bot, "yz", {"attribute": 2})
    shown = json.dumps(reply.message["embeds"][0], ensure_ascii=False)
    assert reply.message["embeds"][0]["title"] == "✅ 1 success" and "`3`" in shown and "`2`" not in shown
    assert [button["label"] for row in reply.message["components"] for button in row["components"]] == [
        "Push", "Keep"
    ]
    assert query(db_path, "SELECT count(*) FROM yz_rolls") == [(1,)] and len(logged(db_path)) == 1
