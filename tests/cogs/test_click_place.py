"""A button acts only where its record was rolled (issue 18): Push, Keep, Reveal and the /log pages name their
record in the custom_id, and a custom_id can be sent from anywhere. The roller's own click on a copy of the
message in another channel of the server, in another server or in a DM is refused privately, with nothing stored
and no message edited; the same click on the roll itself still works."""

from __future__ import annotations

import copy
import sqlite3
from contextlib import closing

import pytest

from bot.interactions.roller import NOT_HERE
from bot.playground.invoke import find_component
from bot.playground.records import Reply
from cogs.log.cog import ANOTHER_CHANNELS_LOG
from tests.fakediscord import ALICE, FakeChannel, FakeDiscord, FakeGuild, FakeUser

COMPONENT, EPHEMERAL = 3, 64
TAVERN = FakeChannel("tavern")
HOME = FakeGuild("Forbidden Lands", channels=(FakeChannel("general"), TAVERN))
ELSEWHERE = FakeGuild("Another table")
FEATURES = ("cogs.yearzero.cog", "cogs.willpower.cog", "cogs.log.cog")
PLACES = {
    "another channel": {"guild": HOME, "channel": TAVERN},
    "another server": {"guild": ELSEWHERE},
    "a DM": {"dm": True},
}


@pytest.fixture
def fake_guilds():
    return (HOME, ELSEWHERE)


def click_from(fake: FakeDiscord, shown: Reply, label: str, user: FakeUser = ALICE, **place) -> dict:
    """`user` clicking `label` on a copy of the message shown, sent from `place` (guild/channel, or dm)."""
    message = copy.deepcopy(shown.message)
    component = find_component(message, None, label)
    data = {"custom_id": component["custom_id"], "component_type": component["type"]}
    return fake.payload(COMPONENT, data, user=user, **place) | {"message": message}


def refusal(reply: Reply) -> str:
    assert reply.type == 4 and reply.flags & EPHEMERAL and not reply.embeds, reply.describe()
    return reply.content


def table(db_path, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(db_path)) as connection:
        return connection.execute(sql).fetchall()


def edits(fake: FakeDiscord) -> int:
    return len(fake.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")) + len(
        fake.requests_to("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    )


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("label", ["Push", "Keep"])
async def test_push_and_keep_from_a_copy_elsewhere_are_refused(start_bot, fake_discord, db_path, place, label):
    await start_bot(extensions=FEATURES)
    rolled = await fake_discord.slash("yz", {"attribute": 5, "skill": 5})
    assert [c["label"] for row in rolled.message["components"] for c in row["components"]][:2] == ["Push", "Keep"]
    shown, before = copy.deepcopy(rolled.message), edits(fake_discord)
    reply = await fake_discord.send_interaction(click_from(fake_discord, rolled, label, **PLACES[place]))
    assert refusal(reply) == NOT_HERE
    assert table(db_path, "SELECT state, pushes_made FROM yz_roll_states") == [("pending", 0)]
    assert table(db_path, "SELECT * FROM willpower") == []
    assert edits(fake_discord) == before and rolled.message == shown
    pushed = await fake_discord.click(rolled, label="Push")  # on the roll itself, it still works
    assert pushed.type in (6, 7) and table(db_path, "SELECT pushes_made FROM yz_roll_states") == [(1,)]


@pytest.mark.parametrize("place", PLACES)
async def test_reveal_from_a_copy_elsewhere_is_refused(start_bot, fake_discord, db_path, place):
    await start_bot(extensions=FEATURES)
    secret = await fake_discord.slash("yz", {"attribute": 2, "skill": 1, "pushes": 0, "private": True})
    assert secret.flags & EPHEMERAL
    reply = await fake_discord.send_interaction(click_from(fake_discord, secret, "Reveal", **PLACES[place]))
    assert refusal(reply) == NOT_HERE
    assert table(db_path, "SELECT revealed_at FROM roll_log") == [(None,)]
    shown = await fake_discord.click(secret, label="Reveal")  # from the roll's own channel
    assert shown.embeds and table(db_path, "SELECT revealed_at IS NOT NULL FROM roll_log") == [(1,)]


@pytest.mark.parametrize("place", PLACES)
async def test_a_log_page_turns_only_in_its_own_channel(start_bot, fake_discord, place):
    await start_bot(extensions=FEATURES)
    for _ in range(12):  # two pages
        await fake_discord.slash("yz", {"attribute": 2, "skill": 1, "pushes": 0})
    page = await fake_discord.slash("log show")
    reply = await fake_discord.send_interaction(click_from(fake_discord, page, "Older", **PLACES[place]))
    assert refusal(reply) == ANOTHER_CHANNELS_LOG
    older = await fake_discord.click(page, label="Older")
    assert older.type == 7 and older.embeds
