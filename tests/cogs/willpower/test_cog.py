"""/willpower show|spend|set, end to end through discord.py against the fake Discord, on a real SQLite file."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from contextlib import closing

import pytest

from cogs.willpower.cog import ONLY_YOUR_OWN
from tests.bot.payloads import slash_payload
from tests.fakediscord import ALICE, BOB, GM, MANAGE_GUILD, CannotInvoke, FakeDiscord, FakeGuild, Reply

WILLPOWER = ("cogs.willpower.cog",)
EPHEMERAL = 64
KEEP = FakeGuild("The Keep")
MARSH = FakeGuild("The Marsh")
NEEDS_MANAGE_SERVER = "You need the Manage Server permission to do that."


@pytest.fixture
def fake_guilds():
    """Two servers: Willpower is kept per server."""
    return (KEEP, MARSH,)


@pytest.fixture
async def bot(start_bot):
    return await start_bot(extensions=WILLPOWER)


def stored(db_path, user=ALICE, guild=KEEP) -> int | None:
    with closing(sqlite3.connect(db_path)) as connection:
        found = connection.execute(
            "SELECT points FROM willpower WHERE guild_id = ? AND user_id = ?", (guild.id, user.id)
        ).fetchone()
    return found[0] if found else None


def private_answer(reply: Reply) -> str:
    assert reply.type == 4 and reply.flags & EPHEMERAL, reply.describe()
    assert reply.errors == [], reply.describe()
    return reply.content


def public_answer(reply: Reply) -> str:
    """A change's answer: stored, then shown in the first callback, public."""
    assert reply.type == 4 and not reply.flags & EPHEMERAL and not reply.loading, reply.describe()
    return reply.content


async def set_points(fake: FakeDiscord, player, points: int, guild=None) -> Reply:
    return await fake.slash("willpower-set", {"player": player, "points": points}, user=GM, guild=guild)


async def test_players_see_their_own_willpower_privately(fake_discord, bot, db_path):
    assert private_answer(await fake_discord.slash("willpower show")) == "You have **0** Willpower (at most 10)."
    assert stored(db_path) is None  # looking stores nothing
    await set_points(fake_discord, ALICE, 4)
    assert "**4**" in private_answer(await fake_discord.slash("willpower show"))
    named = await fake_discord.slash("willpower show", {"player": ALICE})
    assert private_answer(named).startswith("You have **4**")


async def test_only_a_game_master_sees_another_players_willpower(fake_discord, bot, db_path):
    await set_points(fake_discord, BOB, 6)
    refused = await fake_discord.slash("willpower show", {"player": BOB}, user=ALICE)
    assert private_answer(refused) == ONLY_YOUR_OWN and "6" not in refused.content
    allowed = await fake_discord.slash("willpower show", {"player": BOB}, user=GM)
    assert private_answer(allowed) == "Bob has **6** Willpower (at most 10)."


async def test_spend_takes_points_and_refuses_more_than_the_player_has(fake_discord, bot, db_path):
    await set_points(fake_discord, ALICE, 5)
    spent = await fake_discord.slash("willpower spend", {"points": 2})
    assert public_answer(spent) == f"<@{ALICE.id}> spends **2** Willpower: 5 → **3**."
    assert stored(db_path) == 3
    too_many = await fake_discord.slash("willpower spend", {"points": 4})
    assert private_answer(too_many) == "You have 3 Willpower; you cannot spend 4."
    assert stored(db_path) == 3
    assert public_answer(await fake_discord.slash("willpower spend")).endswith("3 → **2**.")  # 1 by default
    nothing = await fake_discord.slash("willpower spend", user=BOB)
    assert private_answer(nothing) == "You have 0 Willpower; you cannot spend 1."
    assert stored(db_path, BOB) is None


async def test_simultaneous_spends_never_go_below_zero(fake_discord, bot, db_path):
    await set_points(fake_discord, ALICE, 5)
    replies = await asyncio.gather(*(fake_discord.slash("willpower spend") for _ in range(12)))
    spent = [reply for reply in replies if reply.message is not None and not reply.ephemeral]
    afters = sorted(int(re.search(r"→ \*\*(\d+)\*\*", public_answer(reply))[1]) for reply in spent)
    assert afters == [0, 1, 2, 3, 4]
    # Refused privately, at once or when the atomic spend found too few.
    refusals = [private_answer(reply) for reply in replies if reply.ephemeral]
    assert len(refusals) == 7 and all("you cannot spend 1" in refusal for refusal in refusals)
    assert stored(db_path) == 0


async def test_set_by_a_game_master_is_public_and_per_server(fake_discord, bot, db_path):
    answer = await set_points(fake_discord, ALICE, 7)
    assert public_answer(answer) == f"<@{ALICE.id}>'s Willpower is now **7** (was 0), set by <@{GM.id}>."
    assert public_answer(await set_points(fake_discord, ALICE, 0)).endswith(f"**0** (was 7), set by <@{GM.id}>.")
    await set_points(fake_discord, ALICE, 9, guild=MARSH)
    assert stored(db_path) == 0 and stored(db_path, guild=MARSH) == 9
    [callback] = answer.requests  # the answer, in one request
    assert callback.body["data"]["allowed_mentions"]["parse"] == []  # a mention that pings nobody


async def test_set_needs_manage_server(fake_discord, bot, db_path):
    # Discord applies default_member_permissions only to top-level commands: /willpower (show, spend) is for
    # everyone, /willpower-set is hidden from members without Manage Server, and the bot checks it itself too.
    commands = {command["name"]: command for command in fake_discord.commands()}
    assert commands["willpower"].get("default_member_permissions") is None
    assert commands["willpower-set"]["default_member_permissions"] == str(MANAGE_GUILD)
    with pytest.raises(CannotInvoke, match="cannot see /willpower-set"):
        await fake_discord.slash("willpower-set", {"player": ALICE, "points": 10}, user=ALICE)
    crafted = slash_payload(fake_discord, "willpower-set", {"player": BOB, "points": 3}, user=BOB)
    assert private_answer(await fake_discord.send_interaction(crafted)) == NEEDS_MANAGE_SERVER
    assert stored(db_path) is None and stored(db_path, BOB) is None


async def test_values_outside_zero_to_ten_are_refused(fake_discord, bot, db_path):
    await set_points(fake_discord, ALICE, 5)
    with pytest.raises(CannotInvoke, match="outside 0..10"):
        await set_points(fake_discord, ALICE, 11)
    with pytest.raises(CannotInvoke, match="outside 1..10"):
        await fake_discord.slash("willpower spend", {"points": 0})
    # A crafted payload gets past Discord's client; the bot refuses it itself and changes nothing.
    crafted = [
        ("willpower-set", {"player": ALICE, "points": 1}, {"points": 11}, GM),
        ("willpower-set", {"player": ALICE, "points": 1}, {"points": -1}, GM),
        ("willpower spend", {"points": 1}, {"points": 0}, ALICE),
        ("willpower spend", {"points": 1}, {"points": -3}, ALICE),
        ("willpower spend", {"points": 1}, {"points": 11}, ALICE),
    ]
    for command, options, unchecked, user in crafted:
        payload = slash_payload(fake_discord, command, options, user=user, **unchecked)
        answer = await fake_discord.send_interaction(payload)
        assert private_answer(answer).startswith("`points` must be from"), unchecked
    assert stored(db_path) == 5
