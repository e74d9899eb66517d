"""Reveal, the roll log, /log show and export, /stats: end to end through discord.py against the fake Discord."""

from __future__ import annotations

import asyncio
import csv
import io
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from bot.storage.roll_log import RevealRefusal
from cogs.log.cog import NEEDS_MANAGE_SERVER
from cogs.log.reveal import REFUSED
from cogs.log.stats import GM_ONLY
from cogs.yearzero.card import PUSHED_DICE
from rules.heroic.odds import odds_for_heroic
from rules.language import speak
from rules.luck import LuckEvent, luck_of
from tests.bot.embeds import field, give_faces
from tests.bot.payloads import click_payload
from tests.fakediscord import ALICE, BOB, GM, FakeChannel, FakeDiscord, FakeGuild, Reply

COGS = ("cogs.heroic.cog", "cogs.yearzero.cog", "cogs.willpower.cog", "cogs.log.cog")
GUILD = FakeGuild("Forbidden Lands", channels=(FakeChannel("general"),))
EPHEMERAL = 64
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


@pytest.fixture
def fake_guilds():
    return (GUILD,)


async def heroic(fake: FakeDiscord, bot, faces, *, user=ALICE, **options) -> Reply:
    """/heroic tn: Skill 2 against TN 8 with these faces."""
    dice = give_faces(bot, "Heroic", *faces)
    reply = await fake.slash("heroic tn", {"skill": 2, "tn": 8, **options}, user=user)
    dice.finish()
    return reply


def labels(message: dict) -> list[str]:
    return [button["label"] for row in message["components"] for button in row["components"]]


def usable(message: dict) -> list[str]:
    """The labels of the buttons a reader can press (the others are greyed out)."""
    return [button["label"] for row in message["components"] for button in row["components"]
            if not button.get("disabled")]


def private_text(reply: Reply) -> str:
    assert reply.type == 4 and reply.flags & EPHEMERAL and not reply.embeds, reply.describe()
    return reply.content


def log_rows(db_path) -> list[dict]:
    with closing(sqlite3.connect(db_path)) as connection:
        connection.row_factory = sqlite3.Row
        return [dict(row) for row in connection.execute("SELECT * FROM roll_log ORDER BY id")]


# -- Reveal ------------------------------------------------------------------------------------------


async def test_a_private_roll_is_revealed_by_its_roller_once_with_the_same_dice(start_bot, fake_discord):
    bot = await start_bot(extensions=COGS)
    secret = await heroic(fake_discord, bot, [5, 4], private=True)
    assert secret.flags & EPHEMERAL and labels(secret.message) == ["Reveal"]

    assert private_text(await fake_discord.click(secret, label="Reveal", user=BOB)) == REFUSED[RevealRefusal.NOT_YOURS]
    shown = await fake_discord.click(secret, label="Reveal")
    assert shown.type == 4 and not shown.flags & EPHEMERAL
    card, original = shown.embed, secret.embed
    assert card["title"] == original["title"] and card["fields"] == original["fields"]
    assert card["color"] == original["color"] and card.get("footer") == original.get("footer")
    first_line, rest = card["description"].split("\n", 1)
    assert first_line.startswith("*Rolled privately at <t:") and first_line.endswith(":f>, revealed.*")
    assert rest == original["description"] and "timestamp" in card

    again = await fake_discord.click(secret, label="Reveal")
    assert private_text(again) == REFUSED[RevealRefusal.ALREADY_REVEALED]


async def test_reveal_works_after_a_restart_and_once_under_simultaneous_clicks(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=COGS)
    secret = await heroic(fake_discord, bot, [6, 6], private=True)
    await start_bot(extensions=COGS)  # a new process: the button is known by its custom_id alone
    clicks = await asyncio.gather(*(fake_discord.click(secret, label="Reveal") for _ in range(20)))
    public = [click for click in clicks if click.embeds]
    assert len(public) == 1 and not public[0].flags & EPHEMERAL
    assert [private_text(c) for c in clicks if not c.embeds] == [REFUSED[RevealRefusal.ALREADY_REVEALED]] * 19
    assert log_rows(db_path)[0]["revealed_at"] is not None


async def test_a_reveal_clicked_while_the_bot_drains_is_refused_and_reveals_nothing(start_bot, fake_discord, db_path):
    """As Push and Keep: while closing, a click is told the bot restarts and nothing is claimed for it."""
    from bot.app.client import RESTARTING

    bot = await start_bot(extensions=COGS)
    secret = await heroic(fake_discord, bot, [6, 6], private=True)
    bot.draining = True  # as close() sets it first
    refused = await fake_discord.click(secret, label="Reveal")
    bot.draining = False
    assert private_text(refused) == RESTARTING and log_rows(db_path)[0]["revealed_at"] is None


async def test_a_pushed_private_roll_is_revealed_with_its_push(start_bot, fake_discord):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "YearZero", 2, 3)
    secret = await fake_discord.slash("yz", {"attribute": 1, "skill": 1, "private": True})
    assert labels(secret.message) == ["Push", "Keep", "Reveal"]
    give_faces(bot, "YearZero", 6, 4)
    pushed = await fake_discord.click(secret, label="Push")
    assert labels(pushed.message) == ["Reveal"]
    shown = await fake_discord.click(secret, label="Reveal")
    assert field(shown.embed, PUSHED_DICE) == field(pushed.embed, PUSHED_DICE) == "Base: ↻ `6`⚔ `4`"
    assert shown.embed["title"] == pushed.embed["title"] and not shown.flags & EPHEMERAL


async def test_a_public_roll_has_no_reveal_and_a_crafted_reveal_is_refused(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=COGS)
    public = await heroic(fake_discord, bot, [3, 3])
    assert labels(public.message) == [] and not public.flags & EPHEMERAL
    entry = log_rows(db_path)[0]["id"]
    crafted = await fake_discord.send_interaction(click_payload(fake_discord, public, f"rk:reveal:{entry}"))
    assert private_text(crafted) == REFUSED[RevealRefusal.NOT_PRIVATE]
    unknown = await fake_discord.send_interaction(click_payload(fake_discord, public, f"rk:reveal:{entry + 99}"))
    assert private_text(unknown) == REFUSED[RevealRefusal.UNKNOWN]
    assert all(row["revealed_at"] is None for row in log_rows(db_path))


# -- the log -----------------------------------------------------------------------------------------


async def test_every_roll_is_logged_with_its_exact_luck_event(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=COGS)
    card = (await heroic(fake_discord, bot, [5, 4], note="the gate")).embed  # 9 + 2 = 11 > 8
    [row] = log_rows(db_path)
    system_line = card["description"].split("\n")[0]
    assert row["reading"] == f"{card['title']} — {system_line}" and "gate" not in row["reading"]
    chance = odds_for_heroic(2, 8).success
    assert row["system"] == "heroic" and row["kind"] == "task" and row["user_id"] == ALICE.id
    assert row["events"] == f"{chance.numerator}/{chance.denominator}:1"
    assert row["private"] == 0 and row["card"] is None and row["channel_id"] == GUILD.channels[0].id


async def test_log_hides_private_rolls_from_others_and_pages(start_bot, fake_discord):
    bot = await start_bot(extensions=COGS)
    await heroic(fake_discord, bot, [5, 4], private=True)
    for _ in range(11):
        await heroic(fake_discord, bot, [1, 2], user=BOB)

    bobs = await fake_discord.slash("log show", user=BOB)
    assert bobs.flags & EPHEMERAL and labels(bobs.message) == ["Newer", "Older"]
    assert usable(bobs.message) == ["Older"]  # the newest page: nothing newer
    assert bobs.embed["description"].count("\n") == 9 and "private" not in bobs.embed["description"]
    older = await fake_discord.click(bobs, label="Older", user=BOB)
    assert older.type == 7 and older.embed["description"].count(f"<@{BOB.id}>") == 1
    assert f"<@{ALICE.id}>" not in older.embed["description"]
    assert usable(older.message) == ["Newer"]  # Bob's oldest page: nothing older for him, never an empty page

    alices = await fake_discord.slash("log show")
    alice_older = await fake_discord.click(alices, label="Older")
    assert f"<@{ALICE.id}>" in alice_older.embed["description"] and "🔒 private" in alice_older.embed["description"]
    newer = await fake_discord.click(alice_older, label="Newer")
    assert newer.embed["description"] == alices.embed["description"]


async def test_export_is_a_csv_with_headers_for_game_masters_only(start_bot, fake_discord):
    bot = await start_bot(extensions=COGS)
    await heroic(fake_discord, bot, [5, 4])
    await heroic(fake_discord, bot, [1, 1], user=BOB, private=True)

    assert private_text(await fake_discord.slash("log export")) == NEEDS_MANAGE_SERVER
    assert private_text(await fake_discord.slash("log export", {"start": "yesterday"}, user=GM)).startswith(
        "'yesterday' is not a date"
    )
    export = await fake_discord.slash("log export", user=GM)
    assert export.flags & EPHEMERAL and export.message["attachments"][0]["filename"].endswith(".csv")
    upload = fake_discord.requests_to("POST", CALLBACK)[-1].files[0]
    table = list(csv.DictReader(io.StringIO(upload["data"].decode("utf-8"))))
    assert [row["user_id"] for row in table] == [str(ALICE.id)]  # Bob's private roll is his alone
    assert table[0]["system"] == "heroic" and table[0]["luck_events"].endswith(":1")
    assert "1 roll from" in export.content


# -- /stats ------------------------------------------------------------------------------------------


async def test_stats_show_the_exact_luck_of_the_evening(start_bot, fake_discord):
    bot = await start_bot(extensions=COGS)
    for faces in ([5, 4], [1, 2], [6, 5]):
        await heroic(fake_discord, bot, faces)
    await heroic(fake_discord, bot, [6, 6], user=BOB)
    chance = odds_for_heroic(2, 8).success
    luck = luck_of([LuckEvent(chance, True), LuckEvent(chance, False), LuckEvent(chance, True)])

    stats = await fake_discord.slash("stats")
    total = field(stats.embed, "In total")
    assert stats.flags & EPHEMERAL and total.startswith("3 rolls") and stats.embed["title"] == "🎲 Luck of Alice"
    assert f"2 of 3 chances succeeded; expected {float(luck.expected):.2f}" in total
    assert f"Luckier than {speak('en').percent(luck.percentile)} of possible evenings" in total
    assert f"At least this good: {speak('en').percent(luck.at_least_this_good)}" in total
    assert field(stats.embed, "Heroic Rolls") == total
    assert len(field(stats.embed, "The evening, roll by roll").strip("`")) == 3

    assert private_text(await fake_discord.slash("stats", {"everyone": True})) == GM_ONLY
    channel = await fake_discord.slash("stats", {"everyone": True}, user=GM)
    assert field(channel.embed, "In total").startswith("4 rolls")


async def test_stats_count_from_the_session_marker_and_show_no_luck_without_events(start_bot, fake_discord):
    bot = await start_bot(extensions=COGS)
    await heroic(fake_discord, bot, [5, 4])
    started = await fake_discord.slash("session start", user=GM)
    assert started.type == 4 and "session starts now" in started.content
    empty = await fake_discord.slash("stats")
    assert field(empty.embed, "In total") == "0 rolls" and "Since the session started" in empty.embed["description"]
    give_faces(bot, "YearZero", 1, 3)
    await fake_discord.slash("yz", {"attribute": 2, "skill": 0})
    give_faces(bot, "YearZero", 1)
    await fake_discord.slash("push")
    yz = field((await fake_discord.slash("stats")).embed, "Year Zero")
    assert "1 push, 2 Willpower gained, 2 banes taken" in yz
    assert "0 of 2 chances succeeded" in yz and f"expected {float(Fraction(11, 36) + Fraction(1, 6)):.2f}" in yz


async def test_stats_since_hours_leaves_out_older_rolls(start_bot, fake_discord):
    now = [datetime(2026, 12, 2, 19, 0, tzinfo=UTC)]
    bot = await start_bot(extensions=COGS, clock=lambda: now[0])
    await heroic(fake_discord, bot, [5, 4])
    now[0] += timedelta(hours=3)
    await heroic(fake_discord, bot, [1, 2])
    recent = await fake_discord.slash("stats", {"since": 2})
    assert field(recent.embed, "In total").startswith("1 roll\n") and recent.embed["description"] == "The last 2 hours"
    assert field((await fake_discord.slash("stats")).embed, "In total").startswith("2 rolls")


async def test_stats_count_every_push_of_a_roll_that_allows_several(start_bot, fake_discord):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "YearZero", 3, 4)
    await fake_discord.slash("yz", {"attribute": 2, "pushes": 2})
    for faces in ((2, 3), (6, 5)):
        give_faces(bot, "YearZero", *faces)
        await fake_discord.slash("push")
    yz = field((await fake_discord.slash("stats")).embed, "Year Zero")
    assert "2 pushes, 0 Willpower gained, 0 banes taken" in yz
    assert f"1 of 3 chances succeeded; expected {float(3 * Fraction(11, 36)):.2f}" in yz


async def test_a_private_roll_ended_by_keep_keeps_reveal_until_it_is_revealed(start_bot, fake_discord):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "YearZero", 2, 3)
    secret = await fake_discord.slash("yz", {"attribute": 1, "skill": 1, "private": True})
    kept = await fake_discord.click(secret, label="Keep")
    assert labels(kept.message) == ["Reveal"] and "Kept" in kept.embed["description"]
    shown = await fake_discord.click(kept, label="Reveal")
    assert not shown.flags & EPHEMERAL and shown.embed["title"] == secret.embed["title"]

    give_faces(bot, "YearZero", 2, 3)  # revealed first, then ended: nothing is left to click
    other = await fake_discord.slash("yz", {"attribute": 1, "skill": 1, "private": True})
    await fake_discord.click(other, label="Reveal")
    assert labels((await fake_discord.click(other, label="Keep")).message) == []


async def test_a_log_page_emptied_by_the_purge_gives_way_to_the_latest(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=COGS)
    for _ in range(11):
        await heroic(fake_discord, bot, [1, 2], user=BOB)
    first = await fake_discord.slash("log show", user=BOB)
    oldest = min(int(row["id"]) for row in log_rows(db_path))
    await bot.db.log.withdraw(oldest)  # the page the Older button names is gone
    page = await fake_discord.click(first, label="Older", user=BOB)
    assert page.type == 7 and page.embed["description"].count(f"<@{BOB.id}>") == 10, page.describe()
    assert usable(page.message) == []  # the ten rolls left fit on the one page
