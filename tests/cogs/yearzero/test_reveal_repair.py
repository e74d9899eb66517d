"""A private Year Zero roll that expired and was purged keeps its Reveal button when its message is repaired.

The purge cannot edit a private roll's message (it is ephemeral), so the next click on it repairs it: Push and
Keep go, the card stays as it was (the roll is gone) and the content says why. Its log entry outlives the roll
(ROLL_LOG_DAYS), so Reveal stays while that entry is not revealed. End to end through discord.py against the
fake Discord, on a real SQLite file.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cogs.yearzero.endings import Ending
from tests.cogs.log.test_cog import EPHEMERAL, labels, log_rows
from tests.cogs.yearzero.test_cog import GUILD, any_faces, roll

COGS = ("cogs.yearzero.cog", "cogs.willpower.cog", "cogs.log.cog")


@pytest.fixture
def fake_guilds():
    return (GUILD,)


@pytest.fixture
def clock() -> list[datetime]:
    return [datetime(2030, 1, 1, 12, tzinfo=UTC)]


async def purged_private_roll(fake_discord, start_bot, clock):
    """A bot whose rolls live half an hour, and a private roll on it."""
    bot = await start_bot(extensions=COGS, clock=lambda: clock[0], PUSH_LIFETIME_HOURS="0.5")
    private = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, private=True)
    return bot, private


async def expire(bot, clock) -> None:
    clock[0] += timedelta(hours=1)
    assert await bot.purge_expired_rolls() == 1


@pytest.mark.parametrize("clicked", ["Push", "Keep"])
async def test_a_purged_private_roll_keeps_reveal_when_repaired_and_reveals_its_card(
    start_bot, fake_discord, db_path, clock, clicked
):
    bot, private = await purged_private_roll(fake_discord, start_bot, clock)
    card = private.embed
    await expire(bot, clock)
    any_faces(bot)
    repaired = await fake_discord.click(private, label=clicked)
    assert repaired.type == 7 and labels(private.message) == ["Reveal"], repaired.describe()
    assert private.message["content"] == Ending.EXPIRED.value and private.embed == card  # purged: card as it was
    shown = await fake_discord.click(private, label="Reveal")
    assert shown.type == 4 and not shown.flags & EPHEMERAL
    assert shown.embed["title"] == card["title"] and shown.embed["fields"] == card["fields"]
    assert log_rows(db_path)[0]["revealed_at"] is not None


async def test_a_purged_private_roll_revealed_before_is_repaired_without_buttons(start_bot, fake_discord, clock):
    bot, private = await purged_private_roll(fake_discord, start_bot, clock)
    await fake_discord.click(private, label="Reveal")
    await expire(bot, clock)
    any_faces(bot)
    repaired = await fake_discord.click(private, label="Push")
    assert repaired.type == 7 and private.components == [] and private.message["content"] == Ending.EXPIRED.value


async def test_a_purged_private_roll_whose_entry_is_gone_is_repaired_without_buttons(start_bot, fake_discord, clock):
    """Past ROLL_LOG_DAYS the entry is purged too: there is nothing left to reveal."""
    bot, private = await purged_private_roll(fake_discord, start_bot, clock)
    clock[0] += timedelta(days=120)  # past the log's 90 days as well as the roll's half hour
    await bot.purge_expired_rolls()
    any_faces(bot)
    repaired = await fake_discord.click(private, label="Push")
    assert repaired.type == 7 and private.components == [] and private.message["content"] == Ending.EXPIRED.value

