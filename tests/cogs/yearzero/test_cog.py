"""/yz, the Push button and /push, end to end through discord.py against the fake Discord, on a real SQLite file.

Faces are read in the rules' order: base dice (Attribute + Skill), gear dice, then Artifact dice; a push rerolls
the dice it may reroll in that same order. Expected readings below are worked out by hand from RULES.md section 2.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

import discord
import pytest

from bot.app.client import STALE_BUTTON
from bot.app.opening import open_sqlite
from bot.render.common import LEFT_OUT
from bot.storage.roll_records import PushRefusal
from cogs.yearzero.card import PUSHED_DICE
from cogs.yearzero.cog import NO_ROLL_TO_PUSH, KeepButton, PushButton, push_view
from cogs.yearzero.endings import REFUSED, Ending, read_payload
from rules.dice import FixedDice
from rules.language import speak
from rules.yearzero.roll import push
from tests.bot.embeds import assert_ended_as, below_title, field, give_faces, odds
from tests.bot.payloads import click_payload, slash_payload
from tests.fakediscord import ALICE, BOB, GM, FakeChannel, FakeDiscord, FakeGuild, Reply

YZ = ("cogs.yearzero.cog", "cogs.willpower.cog")
TAVERN = FakeChannel("tavern")
GUILD = FakeGuild("Forbidden Lands", channels=(FakeChannel("general"), TAVERN))
EDIT_CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"
EPHEMERAL = 64
MESSAGE, UPDATE = 4, 7
"""A change is stored, then answered in Discord's first callback (bot/interactions/answers.py): a message for a
command, an update of the clicked message for a click."""
NOT_YOURS = REFUSED[PushRefusal.NOT_YOURS]
ALREADY_PUSHED = REFUSED[PushRefusal.ALREADY_PUSHED]


class Constant:
    """A dice source that always shows the same face (enough faces for any number of pushes)."""

    def __init__(self, face: int) -> None:
        self.face = face

    def roll(self, sides: int) -> int:
        return self.face


@pytest.fixture
def fake_guilds():
    """A server with two channels (#general, where interactions happen, and #tavern)."""
    return (GUILD,)


def any_faces(bot) -> None:
    """Dice for pushes that will be refused: the cog rolls a push before it tries to claim it."""
    bot.get_cog("YearZero").dice = Constant(6)


def use_faces(bot, *faces: int) -> FixedDice:
    return give_faces(bot, "YearZero", *faces)


async def roll(fake: FakeDiscord, bot, faces, *, user=ALICE, channel=None, **options) -> Reply:
    """/yz with these faces (every face used), options attribute/skill/... as the player types them."""
    dice = use_faces(bot, *faces)
    reply = await fake.slash("yz", options, user=user, channel=channel)
    dice.finish()
    return reply


def buttons(message: dict) -> list[dict]:
    return [button for row in message["components"] for button in row["components"]]


def rows(db_path) -> list[dict]:
    with closing(sqlite3.connect(db_path)) as connection:
        connection.row_factory = sqlite3.Row
        return [dict(row) for row in connection.execute("SELECT * FROM yz_roll_states ORDER BY id")]


def willpower(db_path, user=ALICE) -> int | None:
    with closing(sqlite3.connect(db_path)) as connection:
        found = connection.execute(
            "SELECT points FROM willpower WHERE guild_id = ? AND user_id = ?", (GUILD.id, user.id)
        ).fetchone()
    return found[0] if found else None


def snapshot(db_path) -> tuple:
    with closing(sqlite3.connect(db_path)) as connection:
        return tuple(
            tuple(connection.execute(f"SELECT * FROM {table} ORDER BY 1, 2"))
            for table in ("yz_rolls", "willpower")
        )


def private_answer(reply: Reply) -> str:
    """The text of an ephemeral type-4 answer (a refusal or an error), failing if it is anything else."""
    assert reply.type == 4 and reply.flags & EPHEMERAL and not reply.embeds, reply.describe()
    assert reply.errors == [], reply.describe()
    return reply.content


def embed_length(embed: dict) -> int:
    """Characters Discord counts towards its 6000 per embed."""
    parts = [embed.get("title"), embed.get("description"), (embed.get("author") or {}).get("name")]
    parts.append((embed.get("footer") or {}).get("text"))
    parts += [text for item in embed.get("fields", []) for text in (item["name"], item["value"])]
    return sum(len(part) for part in parts if part)


# -- rolling -----------------------------------------------------------------------------------------


async def test_roll_shows_the_dice_the_outcome_and_a_push_button(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(
        fake_discord, bot, [6, 1, 3, 4, 2, 5], attribute=3, skill=2, gear=1, note="Climbing the wall"
    )
    assert reply.type == MESSAGE and not reply.ephemeral and not reply.loading
    embed = reply.embed
    assert embed["title"] == "✅ 1 success" and "author" not in embed
    assert below_title(embed)[:3] == [
        "Year Zero · Attribute 3 + Skill 2 + Gear 1", "> Climbing the wall", "Push (only you, once) to reroll 4 dice."
    ]
    assert below_title(embed)[3].startswith("Pushing: ") and "(Attribute damage and as many WP)" in embed["description"]
    assert field(embed, "Dice") == "Base: `6`⚔ `1`☠ `3` `4` `2`\nGear: `5`"
    assert odds(embed).startswith("Odds: success ")
    [button, keep] = buttons(reply.message)
    await bot.db.rolls.messages.flush()  # the message id is written with others a moment later
    [stored] = rows(db_path)
    assert button["label"] == "Push" and button["custom_id"] == f"rk:yz:push:{stored['id']}"
    assert keep["label"] == "Keep" and keep["custom_id"] == f"rk:yz:keep:{stored['id']}"
    assert stored["state"] == "pending" and stored["user_id"] == ALICE.id
    assert stored["channel_id"] == GUILD.channel.id and stored["message_id"] == int(reply.message["id"])


async def test_the_sent_button_is_the_push_buttons_own_and_leaves_no_view_behind(start_bot, fake_discord):
    """push_view is a real discord.ui.View holding the PushButton that takes the clicks, stopped so that discord.py
    keeps nothing per message (a listening view per roll would pile up for the bot's whole life)."""
    bot = await start_bot(extensions=YZ)
    replies = [await roll(fake_discord, bot, [3, 4], attribute=1, skill=1) for _ in range(3)]
    roll_id = int(buttons(replies[-1].message)[0]["custom_id"].rsplit(":", 1)[1])
    view = push_view(roll_id, speak("en"))
    assert isinstance(view, discord.ui.View) and view.timeout is None and view.is_finished()
    [row] = view.to_components()
    assert row["components"] == [PushButton(roll_id).to_component_dict(), KeepButton(roll_id).to_component_dict()]
    [sent, _] = buttons(replies[-1].message)
    assert {key: sent[key] for key in ("custom_id", "label", "style")} == {
        "custom_id": f"rk:yz:push:{roll_id}", "label": "Push", "style": discord.ButtonStyle.danger.value
    }
    assert bot.persistent_views == []


async def test_a_roll_with_nothing_to_push_has_no_button_and_stores_nothing(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [6, 1, 6], attribute=2, skill=1)
    assert reply.embed["title"] == "✅ 2 successes"
    assert "Nothing to push" in reply.embed["description"] and "Pushing:" not in reply.embed["description"]
    assert reply.components == [] and rows(db_path) == []
    scored = await roll(fake_discord, bot, [1, 6], attribute=1, skill=0, artifact="d8")
    assert scored.components == [] and rows(db_path) == []


async def test_artifact_dice_score_by_the_table_show_no_bane_and_reroll_only_when_blank(
    start_bot, fake_discord, db_path
):
    bot = await start_bot(extensions=YZ)
    options = {"attribute": 2, "skill": 0, "artifact": "d8", "artifact2": "d10", "artifact3": "d12"}
    # base 3 and 6, d8 shows 8 (2), d10 shows 1 (nothing, and no bane), d12 shows 12 (4): 7 successes.
    reply = await roll(fake_discord, bot, [3, 6, 8, 1, 12], **options)
    embed = reply.embed
    assert below_title(embed)[0] == "Year Zero · Attribute 2 + Skill 0 + d8 Mighty + d10 Epic + d12 Legendary"
    assert embed["title"] == "✅ 7 successes" and "Banes" not in embed["description"]
    assert field(embed, "Dice") == "Base: `3` `6`⚔\nArtifact: `d8:8`⚔×2 `d10:1` `d12:12`⚔×4"
    assert "reroll 2 dice" in embed["description"]
    # The push rerolls the base 3 (to a 1: a bane) and the blank d10 (to a 10: 3 successes).
    dice = use_faces(bot, 1, 10)
    pushed = await fake_discord.click(reply, label="Push")
    dice.finish()
    assert pushed.type == UPDATE
    assert field(pushed.embed, PUSHED_DICE) == "Base: `6`⚔ ↻ `1`☠\nArtifact: `d8:8`⚔×2 `d12:12`⚔×4 ↻ `d10:10`⚔×3"
    assert pushed.embed["title"] == "✅ Pushed: 7 → 10 successes"
    assert "☠ Attribute damage **1**" in pushed.embed["description"]
    assert willpower(db_path) == 1


async def test_bad_inputs_get_a_private_error_and_store_nothing(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    empty = await fake_discord.slash("yz", {"attribute": 0, "skill": 0, "gear": 0})
    assert "at least one die" in private_answer(empty)
    # Past Discord's own checks (bounds, choices), as a hostile client could send them:
    for unchecked in ({"attribute": 11}, {"skill": -1}, {"gear": 99}, {"artifact": "d20"}):
        payload = slash_payload(
            fake_discord, "yz", {"attribute": 1, "skill": 1, "gear": 1, "artifact": "d8"}, **unchecked
        )
        any_faces(bot)
        answer = await fake_discord.send_interaction(payload)
        [name] = unchecked
        assert f"`{name}` must be" in private_answer(answer)
    assert rows(db_path) == [] and willpower(db_path) is None


async def test_a_private_roll_is_ephemeral_and_its_push_too(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=1, skill=1, private=True)
    assert reply.flags & EPHEMERAL and [b["label"] for b in buttons(reply.message)] == ["Push", "Keep", "Reveal"]
    use_faces(bot, 6, 1)
    pushed = await fake_discord.click(reply, label="Push")
    assert pushed.type == UPDATE and pushed.message is reply.message and reply.flags & EPHEMERAL
    assert field(pushed.embed, PUSHED_DICE) == "Base: ↻ `6`⚔ `1`☠"
    assert [b["label"] for b in buttons(reply.message)] == ["Reveal"]  # a pushed private roll can be revealed
    assert willpower(db_path) == 1

    again = await roll(fake_discord, bot, [2, 3], attribute=1, skill=1, private=True)
    use_faces(bot, 1, 1)
    by_command = await fake_discord.slash("push")
    assert by_command.type == MESSAGE and by_command.flags & EPHEMERAL
    assert field(by_command.embed, PUSHED_DICE) == "Base: ↻ `1`☠ `1`☠"
    assert [b["label"] for b in buttons(by_command.message)] == ["Reveal"]
    assert fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE) == []  # an ephemeral message has no route
    assert buttons(again.message)  # the private first roll keeps its (now refusing) button
    assert willpower(db_path) == 3


# -- the push ----------------------------------------------------------------------------------------


async def test_push_by_the_roller_edits_the_same_message(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [6, 1, 3, 4, 2, 5], attribute=3, skill=2, gear=1, note="The gate")
    dice = use_faces(bot, 1, 1, 6, 1)
    pushed = await fake_discord.click(reply, label="Push")
    dice.finish()
    assert pushed.type == UPDATE and pushed.message is reply.message and not reply.ephemeral
    assert reply.components == [] and len(pushed.edits) == 1
    embed = reply.embed
    assert embed["title"] == "✅ Pushed: 1 → 2 successes"
    assert [item["name"] for item in embed["fields"]] == [PUSHED_DICE]  # the rerolled dice, in one place
    assert field(embed, PUSHED_DICE) == "Base: `6`⚔ `1`☠ ↻ `1`☠ `1`☠ `6`⚔\nGear: ↻ `1`☠"
    assert below_title(embed) == [
        "Year Zero · pushed · Attribute 3 + Skill 2 + Gear 1",
        "> The gate",
        "☠ Attribute damage **3**",
        "☠ Gear bonus −1",
        "Willpower +3 (now 3)",
    ]
    assert odds(embed).startswith("Odds: success ")
    [stored] = rows(db_path)
    assert stored["state"] == "pushed" and json.loads(stored["pushed_payload"])["faces"] == [6, 1, 1, 1, 6, 1]
    assert willpower(db_path) == 3


async def test_willpower_gained_is_clamped_at_ten_and_the_loss_is_shown(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    await fake_discord.slash("willpower-set", {"player": ALICE, "points": 9}, user=GM)
    reply = await roll(fake_discord, bot, [2, 3, 4], attribute=2, skill=1)
    use_faces(bot, 1, 1, 1)
    pushed = await fake_discord.click(reply, label="Push")
    assert "Willpower +3 (now 10) — 2 points lost: Willpower never exceeds 10" in pushed.embed["description"]
    assert willpower(db_path) == 10


async def test_someone_else_is_refused_privately_and_the_roll_stays_pushable(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    await bot.db.rolls.messages.flush()
    before, shown = snapshot(db_path), json.dumps(reply.message)
    use_faces(bot, 1, 1)
    refused = await fake_discord.click(reply, label="Push", user=BOB)
    assert private_answer(refused) == NOT_YOURS
    assert refused.message is not reply.message and json.dumps(reply.message) == shown
    assert snapshot(db_path) == before
    pushed = await fake_discord.click(reply, label="Push", user=ALICE)
    assert pushed.type == UPDATE and willpower(db_path) == 2 and willpower(db_path, BOB) is None


async def test_fifty_simultaneous_clicks_push_exactly_once(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3, 4], attribute=3, skill=0)
    bot.get_cog("YearZero").dice = Constant(1)  # every push rerolls three 1s: 3 Willpower
    clicks = await asyncio.gather(*(fake_discord.click(reply, label="Push") for _ in range(50)))
    # Every click is the roller's: each one that lost the claim is shown the push that won (as stored), so
    # nobody is told "already pushed" about their own roll; the message ends showing the push without a button.
    assert all(click.type == UPDATE for click in clicks)
    assert "Willpower +3 (now 3)" in reply.embed["description"] and reply.components == []
    assert {click.embed["description"] for click in clicks} == {reply.embed["description"]}
    assert willpower(db_path) == 3 and [row["state"] for row in rows(db_path)] == ["pushed"]


async def test_a_click_racing_push_pushes_once(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    for round_number in range(1, 5):
        reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
        bot.get_cog("YearZero").dice = Constant(1)
        click, command = await asyncio.gather(
            fake_discord.click(reply, label="Push"), fake_discord.slash("push")
        )
        # The click either wins or is shown the push that won; /push either wins or is refused privately.
        assert "Pushed:" in reply.embed["title"] and reply.components == [] and "Pushed:" in click.embed["title"]
        if not command.embeds:
            assert private_answer(command) in (ALREADY_PUSHED, NO_ROLL_TO_PUSH)
        assert willpower(db_path) == 2 * round_number
    assert {row["state"] for row in rows(db_path)} == {"pushed"}


async def test_a_second_database_connection_racing_the_bot_claims_once(start_bot, fake_discord, db_path):
    """Two processes on one file: a second Database claims through the bot's storage while the bot is clicked."""
    bot = await start_bot(extensions=YZ)
    other = await open_sqlite(db_path)
    try:
        for round_number in range(1, 4):
            reply = await roll(fake_discord, bot, [2, 3], attribute=1, skill=1)
            bot.get_cog("YearZero").dice = Constant(1)
            stored = await other.rolls.latest_pending(
                GUILD.id, GUILD.channel.id, ALICE.id, datetime.now(UTC), timedelta(hours=1)
            )
            first, _, _ = read_payload(stored)
            pushed = push(first, Constant(1))
            text = json.dumps(pushed.as_dict())

            async def claim(roll_id=stored.id, text=text, gain=pushed.willpower_gained):
                return await other.rolls.claim_push(
                    roll_id, ALICE.id, text, gain, datetime.now(UTC), timedelta(hours=1)
                )

            results = await asyncio.gather(
                *(fake_discord.click(reply, label="Push") for _ in range(10)), *(claim() for _ in range(10))
            )
            clicks, claims = results[:10], results[10:]
            # A click that lost to the other connection is shown the push that won, or told it was pushed: the store
            # says who won, and that it was exactly one.
            assert len([c for c in claims if c.refusal is None]) <= 1
            assert all(c.refusal is PushRefusal.ALREADY_PUSHED for c in claims if c.refusal is not None)
            assert all(c.type == UPDATE or private_answer(c) == ALREADY_PUSHED for c in clicks)
            assert [row["pushes_made"] for row in rows(db_path)][-1] == 1
            assert willpower(db_path) == 2 * round_number  # one push's two banes a round, never two pushes'
    finally:
        await other.close()


async def test_push_command_pushes_the_latest_roll_and_takes_the_button_off(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    older = await roll(fake_discord, bot, [2, 2], attribute=2, skill=0)
    latest = await roll(fake_discord, bot, [6, 3, 4], attribute=2, skill=1)
    dice = use_faces(bot, 1, 6)
    pushed = await fake_discord.slash("push")
    dice.finish()
    assert pushed.type == MESSAGE and not pushed.ephemeral
    assert field(pushed.embed, PUSHED_DICE) == "Base: `6`⚔ ↻ `1`☠ `6`⚔"
    superseded, edit = fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE)
    assert superseded.path == f"/channels/{GUILD.channel.id}/messages/{older.message['id']}"
    assert edit.status == 200 and edit.path == f"/channels/{GUILD.channel.id}/messages/{latest.message['id']}"
    assert latest.components == [] and "Pushed:" not in latest.embed["title"]  # the first roll stays shown
    assert_ended_as(latest.message, Ending.PUSHED)
    assert_ended_as(older.message, Ending.SUPERSEDED)
    assert [row["state"] for row in rows(db_path)] == ["superseded", "pushed"] and willpower(db_path) == 1
    assert private_answer(await fake_discord.slash("push")) == NO_ROLL_TO_PUSH


async def test_push_command_with_nothing_pending_is_a_clear_private_error(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    assert private_answer(await fake_discord.slash("push")) == NO_ROLL_TO_PUSH
    await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, user=BOB)
    await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, channel=TAVERN)
    await bot.db.rolls.messages.flush()
    before = snapshot(db_path)
    assert private_answer(await fake_discord.slash("push")) == NO_ROLL_TO_PUSH  # BOB's, and in another channel
    assert snapshot(db_path) == before


async def test_the_button_works_after_a_restart(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    restarted = await start_bot(extensions=YZ)
    assert restarted is not bot and bot.is_closed()
    use_faces(restarted, 1, 6)
    pushed = await fake_discord.click(reply, label="Push")
    assert pushed.type == UPDATE and field(pushed.embed, PUSHED_DICE) == "Base: ↻ `1`☠ `6`⚔"
    assert willpower(db_path) == 1


async def test_a_newer_roll_in_the_same_channel_supersedes(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    first = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    second = await roll(fake_discord, bot, [4, 5], attribute=2, skill=0)
    elsewhere = await roll(fake_discord, bot, [4, 5], attribute=2, skill=0, channel=TAVERN)
    bobs = await roll(fake_discord, bot, [4, 5], attribute=2, skill=0, user=BOB)
    await bot.db.rolls.messages.flush()
    before = snapshot(db_path)
    assert_ended_as(first.message, Ending.SUPERSEDED)  # edited at once
    any_faces(bot)
    custom_id = f"rk:yz:push:{rows(db_path)[0]['id']}"
    repaired = await fake_discord.send_interaction(click_payload(fake_discord, first, custom_id))
    assert repaired.type == 7
    assert_ended_as(repaired.data, Ending.SUPERSEDED)
    assert snapshot(db_path) == before
    for reply, user in ((second, ALICE), (elsewhere, ALICE), (bobs, BOB)):
        use_faces(bot, 6, 6)
        assert (await fake_discord.click(reply, label="Push", user=user)).type == UPDATE


async def test_a_roll_with_nothing_to_push_supersedes_too(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    first = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    await roll(fake_discord, bot, [6, 1], attribute=2, skill=0)
    assert_ended_as(first.message, Ending.SUPERSEDED)
    assert private_answer(await fake_discord.slash("push")) == NO_ROLL_TO_PUSH


async def test_an_expired_roll_is_refused_then_purged_at_start_up(start_bot, fake_discord, db_path):
    now = [datetime(2030, 1, 1, 12, tzinfo=UTC)]
    lifetime = {"PUSH_LIFETIME_HOURS": "0.5"}
    bot = await start_bot(extensions=YZ, clock=lambda: now[0], **lifetime)
    old = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    now[0] += timedelta(minutes=29)
    fresh = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0, channel=TAVERN)
    now[0] += timedelta(minutes=2)  # old is 31 minutes old, fresh 2
    await bot.db.rolls.messages.flush()
    before, old_id = snapshot(db_path), rows(db_path)[0]["id"]
    any_faces(bot)
    repaired = await fake_discord.click(old, label="Push")  # not purged yet: the click repairs the message
    assert repaired.type == 7
    assert_ended_as(old.message, Ending.EXPIRED)
    assert private_answer(await fake_discord.slash("push")) == NO_ROLL_TO_PUSH
    assert snapshot(db_path) == before

    bot = await start_bot(extensions=YZ, clock=lambda: now[0], **lifetime)
    await asyncio.wait_for(bot.first_purge_done.wait(), 10)
    assert [row["channel_id"] for row in rows(db_path)] == [TAVERN.id]  # the old roll was purged
    any_faces(bot)
    stale = await fake_discord.send_interaction(click_payload(fake_discord, old, f"rk:yz:push:{old_id}"))
    assert stale.type == 7 and stale.data["content"] == Ending.EXPIRED.value  # purged: repaired all the same
    use_faces(bot, 6, 6)
    assert (await fake_discord.click(fresh, label="Push")).type == UPDATE


async def test_hostile_and_stale_clicks_get_a_private_answer_and_change_nothing(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    await bot.db.rolls.messages.flush()
    [stored] = rows(db_path)
    await bot.db.rolls.messages.flush()
    before, shown = snapshot(db_path), json.dumps(reply.message)
    answers = {
        "rk:yz:push:999999": REFUSED[PushRefusal.UNKNOWN],
        "rk:yz:push:0": REFUSED[PushRefusal.UNKNOWN],
        f"rk:yz:push:{2**63}": REFUSED[PushRefusal.UNKNOWN],  # 19 digits, past SQLite's integers
        "rk:yz:push:" + "9" * 25: STALE_BUTTON,
        "rk:yz:push:abc": STALE_BUTTON,
        "rk:yz:push:": STALE_BUTTON,
        "vote": STALE_BUTTON,
    }
    for custom_id, expected in answers.items():
        any_faces(bot)
        answer = await fake_discord.send_interaction(click_payload(fake_discord, reply, custom_id))
        assert private_answer(answer) == expected, custom_id
    foreign = click_payload(fake_discord, reply, f"rk:yz:push:{stored['id']}", user=BOB)
    assert private_answer(await fake_discord.send_interaction(foreign)) == NOT_YOURS
    assert snapshot(db_path) == before and json.dumps(reply.message) == shown
    assert fake_discord.bot_errors == []


OTHER_PATTERN = re.compile(r"rk:other:(?P<n>[0-9]+)")


class OtherButton(discord.ui.DynamicItem[discord.ui.Button], template=OTHER_PATTERN):
    """Another cog's restart-proof button: the bot's answer for unknown clicks must leave it alone."""

    pattern = OTHER_PATTERN

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="Other", custom_id=f"rk:other:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> OtherButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("other", ephemeral=True)


async def test_another_cogs_button_is_answered_once_by_its_own_handler(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    bot.add_dynamic_items(OtherButton)
    answer = await fake_discord.send_interaction(click_payload(fake_discord, reply, "rk:other:7"))
    assert private_answer(answer) == "other" and len(answer.callbacks) == 1 and answer.rejected == []
    bot.remove_dynamic_items(OtherButton)
    gone = await fake_discord.send_interaction(click_payload(fake_discord, reply, "rk:other:7"))
    assert private_answer(gone) == STALE_BUTTON


async def test_the_biggest_pushed_roll_fits_in_one_embed(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    options = {"attribute": 10, "skill": 10, "gear": 10, "artifact": "d12", "artifact2": "d12", "artifact3": "d12"}
    reply = await roll(fake_discord, bot, [3] * 33, **options, note="n" * 200)
    dice = use_faces(bot, *[1] * 30, 12, 12, 12)
    pushed = await fake_discord.click(reply, label="Push")
    dice.finish()
    embed = pushed.embed
    assert embed_length(embed) <= 6000 and not odds(embed).endswith(LEFT_OUT)  # nothing was left out
    assert field(embed, PUSHED_DICE).count("↻ ") == 3 and field(embed, PUSHED_DICE).count("☠") == 30
    assert embed["title"] == "✅ Pushed: no success → 12 successes"
    assert "Willpower +20 (now 10) — 10 points lost" in embed["description"]
    assert willpower(db_path) == 10
