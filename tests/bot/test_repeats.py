"""Commands that store nothing but their log entry, delivered twice (a duplicate delivery, a RESUME replay).

The first delivery answers with `interaction.response.send_message`; the repeat finds the interaction answered
(Discord's 40060). It must stay quiet: no second answer, no error message to the player, no warning or traceback
in the log (one INFO line at most), and the roll logged once under its interaction's id. The same holds for a
repeated refusal and a repeated Reveal click. End to end through discord.py against the fake Discord, on a real
SQLite file.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.bot.embeds import give_faces
from tests.bot.payloads import click_payload, slash_payload
from tests.bot.test_faults import handling, query, resume_replaying
from tests.fakediscord import FakeGuild

GUILD = FakeGuild("Repeats")
COGS = ("cogs.hex.cog", "cogs.heroic.cog", "cogs.sevenkingdoms.cog", "cogs.help.cog", "cogs.log.cog")

ROLLS = [  # command, options, the cog whose dice it reads, the first delivery's faces then a repeat's
    ("hex test", {"attribute": 2}, "Hex", (6, 6, 1, 1)),
    ("hex plain", {"dice": 2, "private": True}, "Hex", (6, 6, 1, 1)),
    ("heroic tn", {"skill": 2, "tn": 8}, "Heroic", (6, 5, 1, 1)),
    ("test basic", {"rank": 2, "difficulty": "Routine"}, "SevenKingdoms", (6, 6, 1, 1)),
    ("test basic", {"rank": 2, "difficulty": "Routine", "private": True}, "SevenKingdoms", (6, 6, 1, 1)),
]


pytestmark = pytest.mark.faults


@pytest.fixture
def fake_guilds():
    return (GUILD,)


def logged_for(db_path, interaction_id: int) -> list[tuple[str, str]]:
    return query(db_path, "SELECT system, reading FROM roll_log WHERE interaction_id = ?", interaction_id)


def spoken(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What the bot logged at INFO or above (discord.py's gateway chatter aside)."""
    return [record for record in caplog.records if record.levelno >= logging.INFO and record.name.startswith(
        ("bot", "cogs", "discord.app_commands", "discord.ui", "discord.client")
    )]


def assert_quiet(records: list[logging.LogRecord]) -> None:
    assert [record.levelname for record in records] in ([], ["INFO"]), [
        f"{record.levelname} {record.name}: {record.getMessage()}" for record in records
    ]


@pytest.mark.parametrize(("command", "options", "cog", "faces"), ROLLS)
async def test_a_stateless_roll_delivered_twice_answers_once_quietly_and_logs_once(
    start_bot, fake_discord, db_path, caplog, command, options, cog, faces
):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, cog, *faces)
    payload = slash_payload(fake_discord, command, options)
    delivered = asyncio.ensure_future(fake_discord.deliver_twice(payload, gap=0.05))
    caplog.clear()  # what start-up logged
    with caplog.at_level(logging.INFO):
        await handling(bot, 2, delivered)
    reply = delivered.result()
    assert_quiet(spoken(caplog))
    assert len(reply.callbacks) == 1 and reply.type == 4 and reply.followups == [], reply.describe()
    assert reply.ephemeral is bool(options.get("private")) and "`6`" in str(reply.embed), reply.describe()
    [(system, reading)] = logged_for(db_path, reply.id)
    assert system == cog.lower() and reading.startswith(reply.embed["title"])


async def test_a_roll_and_help_replayed_on_resume_stay_quiet(start_bot, fake_discord, db_path, caplog):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "Hex", 6, 6, 1, 1)
    rolled = await fake_discord.slash("hex test", {"attribute": 2})
    helped = await fake_discord.slash("help")
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await resume_replaying(fake_discord, bot, 2)  # the roll and /help arrive again
    said = spoken(caplog)
    assert [record.levelname for record in said] in ([], ["INFO"], ["INFO", "INFO"]), said  # one line each at most
    assert len(rolled.callbacks) == 1 and rolled.followups == [] and "`6`" in str(rolled.embed)
    assert len(helped.callbacks) == 1 and helped.followups == []
    assert len(logged_for(db_path, rolled.id)) == 1 and query(db_path, "SELECT count(*) FROM roll_log") == [(1,)]
    assert bot.is_ready()


async def test_a_refusal_delivered_twice_is_told_once_quietly(start_bot, fake_discord, db_path, caplog):
    """Bad input answered with a private refusal: the repeat's refusal meets 40060 and is dropped, not warned of."""
    bot = await start_bot(extensions=COGS)
    payload = slash_payload(fake_discord, "hex test", {"attribute": 2, "skill": 1, "specialty": 2})
    delivered = asyncio.ensure_future(fake_discord.deliver_twice(payload, gap=0.05))
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await handling(bot, 2, delivered)
    reply = delivered.result()
    assert_quiet(spoken(caplog))
    assert len(reply.callbacks) == 1 and reply.ephemeral and "Specialty 2" in reply.content, reply.describe()
    assert query(db_path, "SELECT count(*) FROM roll_log") == [(0,)]


async def test_a_reveal_delivered_twice_posts_the_card_once_quietly(start_bot, fake_discord, db_path, caplog):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "Heroic", 6, 5)
    secret = await fake_discord.slash("heroic tn", {"skill": 2, "tn": 8, "private": True})
    [reveal] = [button["custom_id"] for row in secret.components for button in row["components"]]
    delivered = asyncio.ensure_future(fake_discord.deliver_twice(click_payload(fake_discord, secret, reveal), gap=0.05))
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await handling(bot, 2, delivered)
    shown = delivered.result()
    assert_quiet(spoken(caplog))
    assert len(shown.callbacks) == 1 and shown.type == 4 and not shown.ephemeral, shown.describe()
    assert shown.embed["title"] == secret.embed["title"] and shown.followups == []
    assert query(db_path, "SELECT count(*) FROM roll_log WHERE revealed_at IS NOT NULL") == [(1,)]
