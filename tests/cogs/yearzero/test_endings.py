"""The Keep button, and the message of a roll that stops being pushable: each way (pushed, superseded, expired,
kept) edits it, and a click on a message whose edit failed repairs it (what the edited card shows:
test_cog_yearzero_ended_cards.py). End to end through discord.py against the fake Discord, on a real SQLite file.
Faces are worked out by hand (RULES.md 6)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.playground.protocol import error
from bot.storage.roll_records import PushRefusal
from cogs.yearzero.card import PUSHED_DICE
from cogs.yearzero.cog import NO_ROLL_TO_PUSH
from cogs.yearzero.endings import EXPIRING_EDITS, REFUSED, Ending
from tests.bot.embeds import assert_ended_as, field
from tests.bot.payloads import click_payload
from tests.cogs.yearzero.test_cog import (
    EDIT_CHANNEL_MESSAGE,
    GUILD,
    TAVERN,
    YZ,
    Constant,
    any_faces,
    buttons,
    private_answer,
    roll,
    rows,
    use_faces,
    willpower,
)
from tests.fakediscord import BOB, FakeDiscord
from tests.storage.reading import new_roll

pytestmark = pytest.mark.usefixtures("fake_discord")


@pytest.fixture
async def fake_discord(discord_spec):
    from tests.cogs.yearzero.test_cog import GUILD as guild

    async with FakeDiscord(guilds=[guild], validator=discord_spec) as fake:
        yield fake
        await fake.stop()
        fake.assert_clean()


def labels(reply) -> list[str]:
    return [button["label"] for button in buttons(reply.message)]


def refuse_channel_edits(fake: FakeDiscord, monkeypatch) -> None:
    """Discord refuses the bot's message edits (as when it lost access to the channel)."""
    monkeypatch.setattr(fake.backend, "edit_message", lambda *args: error(403, 50001, "Missing Access"))


# -- Keep ------------------------------------------------------------------------------------------


async def test_keep_ends_the_roll_and_the_card_says_so(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [6, 3], attribute=2, skill=0)
    refused = await fake_discord.click(reply, label="Keep", user=BOB)
    assert private_answer(refused) == REFUSED[PushRefusal.NOT_YOURS] and labels(reply) == ["Push", "Keep"]
    kept = await fake_discord.click(reply, label="Keep")
    assert kept.type == 7
    assert_ended_as(reply.message, Ending.KEPT)
    assert reply.embed["title"] == "✅ 1 success"  # the card still shows the roll as it lies
    assert [row["state"] for row in rows(db_path)] == ["kept"] and willpower(db_path) is None
    assert private_answer(await fake_discord.slash("push")) == NO_ROLL_TO_PUSH


async def test_keep_after_a_push_keeps_the_pushed_roll(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=2)
    use_faces(bot, 6, 4)
    await fake_discord.click(reply, label="Push")
    assert (await fake_discord.click(reply, label="Keep")).type == 7
    assert reply.components == [] and field(reply.embed, PUSHED_DICE) == "Base: ↻ `6`⚔ `4`"
    [stored] = rows(db_path)
    assert (stored["state"], stored["pushes_made"]) == ("kept", 1)


# -- each way a roll stops being pushable edits its message ----------------------------------------


async def test_pushed_with_the_command_edits_the_message_and_moves_the_buttons(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=2)
    use_faces(bot, 4, 5)
    pushed = await fake_discord.slash("push")
    assert pushed.type == 4 and [b["label"] for b in buttons(pushed.message)] == ["Push", "Keep"]
    assert_ended_as(reply.message, Ending.PUSHED)
    use_faces(bot, 6, 6)
    again = await fake_discord.click(pushed, label="Push")  # the second push, on the message /push sent
    assert again.type == 7 and pushed.components == []
    assert pushed.embed["title"].endswith("Pushed: no success → 2 successes")


async def test_superseded_by_a_newer_roll_edits_the_older_message_only(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    older = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    elsewhere = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, channel=TAVERN)
    bobs = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, user=BOB)
    newer = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    assert_ended_as(older.message, Ending.SUPERSEDED)
    assert all(labels(reply) == ["Push", "Keep"] for reply in (elsewhere, bobs, newer))
    [edit] = fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE)
    assert edit.path == f"/channels/{GUILD.channel.id}/messages/{older.message['id']}"


async def test_an_ended_message_says_its_ending_once_and_clears_earlier_content(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    older = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    older.message["content"] = Ending.SUPERSEDED.value  # as an earlier version of the bot left an ended message
    await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    [edit] = fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE)
    assert edit.body["content"] is None and edit.body["components"] == []  # null clears it, as the spec allows
    assert_ended_as(older.message, Ending.SUPERSEDED)
    assert older.message["embeds"][0]["description"].count(Ending.SUPERSEDED.value) == 1


async def test_expired_rolls_are_edited_by_the_purge(start_bot, fake_discord, db_path):
    now = [datetime(2030, 1, 1, 12, tzinfo=UTC)]
    settings = {"PUSH_LIFETIME_HOURS": "0.5"}
    bot = await start_bot(extensions=YZ, clock=lambda: now[0], **settings)
    old = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    pushed = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, channel=TAVERN)
    use_faces(bot, 4, 5)
    await fake_discord.click(pushed, label="Push")
    await bot.db.rolls.messages.flush()
    now[0] += timedelta(minutes=31)
    assert await bot.purge_expired_rolls() == 2
    assert_ended_as(old.message, Ending.EXPIRED)
    [edit] = fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE)  # pushed ended before: no second edit
    assert edit.path == f"/channels/{GUILD.channel.id}/messages/{old.message['id']}"
    assert rows(db_path) == []


async def test_the_purge_edits_a_bounded_number_of_messages(start_bot, fake_discord, db_path):
    now = [datetime(2030, 1, 1, 12, tzinfo=UTC)]
    bot = await start_bot(extensions=YZ, clock=lambda: now[0], PUSH_LIFETIME_HOURS="0.5")
    for n in range(EXPIRING_EDITS + 2):
        await new_roll(bot.db, GUILD.id, 9000 + n, n + 1, '{"roll": {}}', now[0])
        bot.db.rolls.messages.note(n + 1, 9000 + n, 1_000_000 + n)  # no such messages: each edit fails
    await bot.db.rolls.messages.flush()
    now[0] += timedelta(hours=1)
    assert await bot.purge_expired_rolls() == EXPIRING_EDITS + 2
    tried = fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE)
    assert len(tried) == EXPIRING_EDITS and all(request.status == 404 for request in tried)


# -- a failed edit is repaired by the next click ---------------------------------------------------


async def test_when_the_edit_failed_the_next_click_repairs_the_message(start_bot, fake_discord, monkeypatch):
    bot = await start_bot(extensions=YZ)
    superseded = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=2)
    refuse_channel_edits(fake_discord, monkeypatch)
    latest = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, pushes=2)
    await bot.db.rolls.messages.flush()  # latest's first message id is written; /push's is only noted below
    use_faces(bot, 4, 5)
    await fake_discord.slash("push")  # pushes latest; its message's edit fails too
    assert labels(superseded) == ["Push", "Keep"] and labels(latest) == ["Push", "Keep"]
    assert [request.status for request in fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE)] == [403, 403]
    any_faces(bot)
    for reply, ending in ((superseded, Ending.SUPERSEDED), (latest, Ending.PUSHED)):
        repaired = await fake_discord.click(reply, label="Push")
        assert repaired.type == 7
        assert_ended_as(reply.message, ending)


async def test_a_click_on_a_kept_rolls_stale_copy_repairs_it(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    stale = click_payload(fake_discord, reply, buttons(reply.message)[0]["custom_id"])
    await fake_discord.click(reply, label="Keep")
    any_faces(bot)
    again = await fake_discord.send_interaction(stale)
    assert again.type == 7
    assert_ended_as(again.data, Ending.KEPT)
    assert [row["state"] for row in rows(db_path)] == ["kept"]


# -- races and private rolls -------------------------------------------------------------------------


async def test_keep_racing_push_clicks_ends_the_roll_one_way_only(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    for _ in range(3):
        reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
        bot.get_cog("YearZero").dice = Constant(1)  # a push gains 2 WP
        clicks = [fake_discord.click(reply, label=label) for label in ("Push", "Keep") * 10]
        answers = await asyncio.gather(*clicks)
        state = rows(db_path)[-1]["state"]
        assert state in ("pushed", "kept") and reply.components == []
        if state == "kept":
            assert_ended_as(reply.message, Ending.KEPT)
            assert reply.embed["title"] == "❌ No success"
        else:
            assert reply.embed["title"].startswith("❌ Pushed")
        refusals = {private_answer(answer) for answer in answers if answer.type == 4}
        assert refusals <= {REFUSED[PushRefusal.ALREADY_PUSHED], REFUSED[PushRefusal.KEPT]}
    pushed = sum(row["state"] == "pushed" for row in rows(db_path))
    assert (willpower(db_path) or 0) == 2 * pushed


async def test_a_private_roll_is_kept_and_pushed_in_its_own_ephemeral_messages(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    kept = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, private=True)
    assert (await fake_discord.click(kept, label="Keep")).type == 7
    assert_ended_as(kept.message, Ending.KEPT, left=("Reveal",))  # Push and Keep go; Reveal stays

    first = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, private=True, pushes=2)
    use_faces(bot, 4, 5)
    by_command = await fake_discord.slash("push")
    assert by_command.ephemeral and labels(by_command) == ["Push", "Keep", "Reveal"]  # private: Reveal too
    assert fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE) == []  # an ephemeral message has no route
    any_faces(bot)
    repaired = await fake_discord.click(first, label="Push")  # the first message still offers a push: repaired
    assert repaired.type == 7
    assert_ended_as(first.message, Ending.PUSHED, left=("Reveal",))
    use_faces(bot, 6, 6)
    assert (await fake_discord.click(by_command, label="Push")).type == 7 and labels(by_command) == ["Reveal"]
    assert [row["pushes_made"] for row in rows(db_path)] == [0, 2]


async def test_each_superseded_message_is_edited_once(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    first = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    second = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    use_faces(bot, 6, 6)
    await fake_discord.click(second, label="Push")  # second ends pushed: its message is already settled
    await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    edits = [request.path for request in fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE)]
    assert edits == [f"/channels/{GUILD.channel.id}/messages/{first.message['id']}"]
    assert "content" not in second.message or not second.message["content"]


async def test_the_purge_leaves_private_messages_alone(start_bot, fake_discord, db_path):
    now = [datetime(2030, 1, 1, 12, tzinfo=UTC)]
    bot = await start_bot(extensions=YZ, clock=lambda: now[0], PUSH_LIFETIME_HOURS="0.5")
    private = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, private=True)
    public = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, channel=TAVERN)
    await bot.db.rolls.messages.flush()
    now[0] += timedelta(hours=1)
    assert await bot.purge_expired_rolls() == 2
    [edit] = fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE)  # an ephemeral message has no such route
    assert edit.path == f"/channels/{TAVERN.id}/messages/{public.message['id']}"
    assert labels(private) == ["Push", "Keep", "Reveal"]  # until clicked: then repaired, as the roll is gone
    any_faces(bot)
    repaired = await fake_discord.click(private, label="Push")
    assert repaired.type == 7 and labels(private) == ["Reveal"]  # purged: its old card stays, the content says why
    assert private.message["content"] == Ending.EXPIRED.value
