"""The card of a Year Zero roll that stops being pushable converges to the roll's state: each way it ends (pushed
with /push, superseded, expired, kept) redraws the card from the stored roll with the ending in it, no Push line, no
push cost, no buttons, and after /push a link to the pushed result. A pushed card with pushes left shows what its
next push costs. End to end through discord.py against the fake Discord, on a real SQLite file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.storage.roll_records import RollState, YearZeroRoll
from cogs.yearzero.card import NO_COST, PUSHED_DICE
from cogs.yearzero.endings import Ending, ended_card
from rules import odds_text
from rules.dice import FixedDice
from rules.language import speak
from rules.yearzero.odds import odds_after_first
from rules.yearzero.roll import push, roll_yz
from tests.bot.embeds import below_title, field, odds
from tests.cogs.yearzero.test_cog import GUILD, YZ, any_faces, buttons, roll, use_faces
from tests.cogs.yearzero.test_endings import refuse_channel_edits

pytestmark = pytest.mark.usefixtures("fake_discord")


@pytest.fixture
def fake_guilds():
    return (GUILD,)


def assert_ended(reply, ending_line: str, footer: str, *, left: tuple[str, ...] = ()) -> list[str]:
    """The card says why it ended, once (no content line repeats it), offers no push nor its cost, keeps the pool's
    odds and has no buttons but `left` (a private roll's Reveal); returns the card's lines below the title for the
    test's own checks."""
    assert not reply.message["content"], reply.message["content"]
    lines = below_title(reply.embed)
    assert ending_line in lines
    assert not any(line.startswith(("Push ", "Push again", "Pushing:")) for line in lines), lines
    kept = tuple(button["label"] for row in reply.components for button in row["components"])
    assert odds(reply.embed) == footer and kept == left, reply.components
    return lines


def next_push_cost(first_faces, *pushes_faces, attribute=2, pushes=2) -> str:
    """The cost line the rules give for the next push of this roll (worked out apart from the bot)."""
    lying = roll_yz(attribute, 0, 0, (), FixedDice(first_faces), pushes=pushes)
    for faces in pushes_faces:
        lying = push(lying, FixedDice(faces))
    return odds_text.yz_push_cost(odds_after_first(lying), speak("en"))


def jump_url(message: dict) -> str:
    return f"https://discord.com/channels/{GUILD.id}/{message['channel_id']}/{message['id']}"


async def test_a_superseded_card_says_so_and_offers_no_push(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    older = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, note="Climb the wall")
    footer = odds(older.embed)
    assert any(line.startswith("Pushing:") for line in below_title(older.embed))
    await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    assert older.embed["title"] == "❌ No success"
    lines = assert_ended(older, Ending.SUPERSEDED.value, footer)
    assert lines[:2] == ["Year Zero · Attribute 2 + Skill 0", "> Climb the wall"]
    assert [f["name"] for f in older.embed["fields"]] == ["Dice"] and field(older.embed, "Dice") == "Base: `2` `3`"


async def test_a_kept_card_says_so_and_offers_no_push(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [6, 3], attribute=2, skill=0)
    footer = odds(reply.embed)
    assert (await fake_discord.click(reply, label="Keep")).type == 7
    assert reply.embed["title"] == "✅ 1 success" and field(reply.embed, "Dice") == "Base: `6`⚔ `3`"
    assert_ended(reply, Ending.KEPT.value, footer)


async def test_a_pushed_card_with_a_push_left_shows_its_cost_until_kept(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=2)
    footer = odds(reply.embed)
    use_faces(bot, 6, 4)
    await fake_discord.click(reply, label="Push")
    lines = below_title(reply.embed)
    assert lines[-2:] == ["Push again (only you; 1 push left) to reroll 1 die.", next_push_cost([2, 3], [6, 4])]
    assert odds(reply.embed) == footer  # the pool's odds, as on the first card
    await fake_discord.click(reply, label="Keep")
    assert reply.embed["title"] == "✅ Pushed: no success → 1 success"
    assert field(reply.embed, PUSHED_DICE) == "Base: ↻ `6`⚔ `4`"
    assert assert_ended(reply, Ending.KEPT.value, footer)[1:] == [Ending.KEPT.value, NO_COST]


async def test_a_card_pushed_with_the_command_links_to_the_pushed_roll(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    first = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=2)
    footer = odds(first.embed)
    use_faces(bot, 4, 5)
    pushed = await fake_discord.slash("push")
    assert below_title(pushed.embed)[-1] == next_push_cost([2, 3], [4, 5])
    assert first.embed["title"] == "❌ No success"  # the first roll, as that message showed it
    link = f"⏹ Pushed with /push: see [the pushed roll]({jump_url(pushed.message)}) below."
    assert_ended(first, link, footer)
    assert field(first.embed, "Dice") == "Base: `2` `3`"


async def test_an_expired_pushed_card_shows_what_its_push_cost_and_no_more(start_bot, fake_discord):
    now = [datetime(2030, 1, 1, 12, tzinfo=UTC)]
    bot = await start_bot(extensions=YZ, clock=lambda: now[0], PUSH_LIFETIME_HOURS="0.5")
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=2)
    footer = odds(reply.embed)
    use_faces(bot, 1, 4)  # one bane: a point of Attribute damage and of Willpower
    await fake_discord.click(reply, label="Push")
    await bot.db.rolls.messages.flush()
    now[0] += timedelta(minutes=31)
    assert await bot.purge_expired_rolls() == 1
    assert reply.embed["title"] == "❌ Pushed: still no success"
    assert field(reply.embed, PUSHED_DICE) == "Base: ↻ `1`☠ `4`"
    lines = assert_ended(reply, Ending.EXPIRED.value, footer)
    assert lines[1:] == [Ending.EXPIRED.value, "☠ Attribute damage **1**", "Willpower +1"]


async def test_a_repaired_card_is_redrawn_too_and_links_to_the_pushed_roll(start_bot, fake_discord, monkeypatch):
    bot = await start_bot(extensions=YZ)
    first = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=2)
    footer = odds(first.embed)
    await bot.db.rolls.messages.flush()
    refuse_channel_edits(fake_discord, monkeypatch)
    use_faces(bot, 4, 5)
    pushed = await fake_discord.slash("push")  # the first message's edit fails: it still offers a push
    assert [b["label"] for b in buttons(first.message)] == ["Push", "Keep"]
    await bot.db.rolls.messages.flush()
    any_faces(bot)
    assert (await fake_discord.click(first, label="Push")).type == 7
    assert_ended(first, f"⏹ Pushed with /push: see [the pushed roll]({jump_url(pushed.message)}) below.", footer)


async def test_a_private_roll_pushed_with_the_command_points_below_without_a_link(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    first = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, private=True, pushes=2)
    footer = odds(first.embed)
    use_faces(bot, 4, 5)
    await fake_discord.slash("push")
    any_faces(bot)
    assert (await fake_discord.click(first, label="Push")).type == 7  # repaired: an ephemeral message has no edit
    assert_ended(first, Ending.PUSHED.value, footer, left=("Reveal",))  # not revealed yet: Reveal stays


@pytest.mark.parametrize("payload", ['{"roll": {}}', "not json", "[1]", '"roll"', '{"note": "no roll"}'])
def test_an_unreadable_payload_leaves_the_card_as_it_was(payload):
    when = datetime(2030, 1, 1, tzinfo=UTC)
    stored = YearZeroRoll(1, 2, 3, 4, 5, RollState.PENDING, payload, None, when, None)
    assert ended_card(stored, Ending.EXPIRED) is None
