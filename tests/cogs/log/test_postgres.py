"""/log show, /log export and /stats on PostgreSQL (DATABASE_URL set), end to end through discord.py against the
fake Discord: the same cards and CSV as on SQLite (test_cog_log.py), read back from a real PostgreSQL server, with
times that come back in UTC, private rolls shown only to their roller, and pages that still turn after a restart.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from bot.render.common import Tones
from cogs.log.cards import CSV_HEADERS, EMPTY_PAGE
from rules.heroic.odds import odds_for_heroic
from rules.language import speak
from rules.luck import LuckEvent, luck_of
from tests.bot.embeds import field, give_faces
from tests.cogs.log.test_cog import CALLBACK, COGS, EPHEMERAL, GUILD, heroic, labels
from tests.fakediscord import ALICE, BOB, GM, FakeDiscord, Reply

EVENING = datetime(2026, 12, 2, 19, 0, tzinfo=UTC)
HEROIC = odds_for_heroic(2, 8).success
"""The chance of every Heroic roll here: Skill 2 against TN 8."""


@pytest.fixture
def fake_guilds():
    return (GUILD,)


@pytest.fixture
def clock() -> list[datetime]:
    """The bots' time, moved by the tests: the log's times are then known to the second."""
    return [EVENING]


@pytest.fixture
def start_on_postgres(postgres_url, start_bot, clock):
    """Start (or restart: a new process on the same database) the bot with the log cogs on PostgreSQL (the
    database is requested first, so that it is dropped only after the bot stopped)."""

    async def start():
        return await start_bot(extensions=COGS, clock=lambda: clock[0], DATABASE_URL=postgres_url)

    return start


def reading(card: dict) -> str:
    """What the log keeps of a card: its title and the line below it."""
    return f"{card['title']} — {card['description'].splitlines()[0]}"


def log_line(at: datetime, user, card: dict, system: str = "Heroic Rolls", private: str = "") -> str:
    return f"<t:{int(at.timestamp())}:t> <@{user.id}> · {system}: {reading(card)}{private}"


def assert_log_page(reply: Reply, lines: list[str], entries: tuple[int, int]) -> None:
    """A page of the log: private to its reader, the progress tone, these lines (newest first), entries first–last
    in the footer, Newer (greyed: this is the newest page) and Older buttons."""
    embed = reply.embed
    assert reply.flags & EPHEMERAL and embed["title"] == f"{Tones.PROGRESS.symbol} Roll log of this channel"
    assert embed["color"] == Tones.PROGRESS.colour.value and embed["description"].splitlines() == lines
    assert embed["footer"]["text"] == f"Entries {entries[0]}–{entries[1]}; private rolls show only to their roller."
    assert labels(reply.message) == ["Newer", "Older"]
    assert [button.get("disabled", False) for row in reply.message["components"] for button in row["components"]] == [
        True, False
    ]


async def test_log_show_on_postgresql_pages_newest_first_and_shows_private_rolls_to_their_roller(
    start_on_postgres, fake_discord, clock
):
    bot = await start_on_postgres()
    secret = (await heroic(fake_discord, bot, [5, 4], private=True)).embed  # entry 1, Alice's
    bobs_cards = []
    for _ in range(11):  # entries 2-12, a minute apart
        clock[0] += timedelta(minutes=1)
        bobs_cards.append((clock[0], (await heroic(fake_discord, bot, [1, 2], user=BOB)).embed))
    bobs_lines = [log_line(at, BOB, card) for at, card in reversed(bobs_cards)]

    first = await fake_discord.slash("log show", user=BOB)
    assert_log_page(first, bobs_lines[:10], (3, 12))
    await start_on_postgres()  # a new process on the same database: the page buttons name their entries
    older = await fake_discord.click(first, label="Older", user=BOB)
    assert older.type == 7 and older.embed["description"].splitlines() == bobs_lines[10:]  # not Alice's private roll
    assert older.embed["footer"]["text"].startswith("Entries 2–2;")

    alices = await fake_discord.slash("log show")  # one message, edited by each click on it
    assert_log_page(alices, bobs_lines[:10], (3, 12))
    alice_older = await fake_discord.click(alices, label="Older")
    mine = log_line(EVENING, ALICE, secret, private=" · 🔒 private")
    assert alice_older.embed["description"].splitlines() == [*bobs_lines[10:], mine]
    newer = await fake_discord.click(alice_older, label="Newer")
    assert newer.embed["description"].splitlines() == bobs_lines[:10]
    end = await fake_discord.click(newer, label="Older")
    disabled = [button["label"] for row in end.message["components"] for button in row["components"]
                if button.get("disabled")]
    assert disabled == ["Older"] and end.embed["description"] != EMPTY_PAGE  # the oldest page: no way past it


def exported(fake: FakeDiscord) -> list[list[str]]:
    """The rows of the CSV file the last answer uploaded, its header first."""
    upload = fake.requests_to("POST", CALLBACK)[-1].files[0]
    return list(csv.reader(io.StringIO(upload["data"].decode("utf-8"))))


async def test_log_export_on_postgresql_is_a_csv_of_the_days_asked_in_utc(start_on_postgres, fake_discord, clock):
    bot = await start_on_postgres()
    public = (await heroic(fake_discord, bot, [5, 4])).embed  # entry 1: 9 + 2 = 11 > 8
    await heroic(fake_discord, bot, [1, 1], user=BOB, private=True)  # entry 2: never revealed, Bob's alone
    secret = await heroic(fake_discord, bot, [6, 6], private=True)  # entry 3: revealed below
    await fake_discord.click(secret, label="Reveal")
    revealed_at = clock[0]
    clock[0] += timedelta(hours=6)  # 01:00 UTC the next day
    give_faces(bot, "YearZero", 1, 3)
    rolled = await fake_discord.slash("yz", {"attribute": 2})  # entry 4: a bane and a blank
    give_faces(bot, "YearZero", 1)
    pushed = (await fake_discord.click(rolled, label="Push")).embed  # a second bane: 2 Willpower, 2 banes

    export = await fake_discord.slash("log export", {"start": "2026-12-02", "end": "2026-12-02"}, user=GM)
    assert export.flags & EPHEMERAL and export.content == "2 rolls from 2026-12-02 to 2026-12-02 (UTC)."
    assert export.message["attachments"][0]["filename"] == f"roll-log-{GUILD.channel.id}-2026-12-02-2026-12-02.csv"
    chance = f"{HEROIC.numerator}/{HEROIC.denominator}"
    header, *rows = exported(fake_discord)
    assert tuple(header) == CSV_HEADERS
    assert rows == [
        ["1", EVENING.isoformat(), str(ALICE.id), "heroic", "task", reading(public), "0", "", f"{chance}:1", ""],
        ["3", EVENING.isoformat(), str(ALICE.id), "heroic", "task", reading(secret.embed), "1",
         revealed_at.isoformat(), f"{chance}:1", ""],
    ]

    everything = await fake_discord.slash("log export", user=GM)  # the last 30 days, up to today (the 3rd)
    assert everything.content == "3 rolls from 2026-11-04 to 2026-12-03 (UTC)."
    _, *rows = exported(fake_discord)
    [entry, at, user, system, kind, read, private, revealed, events, extras] = rows[-1]
    assert [entry, at, user, system, kind, private, revealed] == [
        "4", (EVENING + timedelta(hours=6)).isoformat(), str(ALICE.id), "yearzero", "roll", "0", ""
    ]
    assert read == reading(pushed) and extras == "banes=2 pushes=1 willpower=2"
    first, push = Fraction(11, 36), Fraction(1, 6)  # a first success with 2 dice; the push's one rerolled die
    assert events == f"{first.numerator}/{first.denominator}:0 {push.numerator}/{push.denominator}:0"

    own = await fake_discord.slash("log export", user=BOB)
    assert own.type == 4 and own.flags & EPHEMERAL and not own.message.get("attachments")  # GMs only


async def test_stats_on_postgresql_show_the_exact_luck_of_the_session(start_on_postgres, fake_discord, clock):
    bot = await start_on_postgres()
    await heroic(fake_discord, bot, [6, 6])  # before the session: not counted
    clock[0] += timedelta(minutes=5)
    started = await fake_discord.slash("session start", user=GM)
    assert started.type == 4 and not started.flags & EPHEMERAL
    for faces in ([5, 4], [1, 2], [6, 5]):
        clock[0] += timedelta(minutes=1)
        await heroic(fake_discord, bot, faces)
    await heroic(fake_discord, bot, [1, 1], private=True)  # Alice's own private roll counts in her stats
    await heroic(fake_discord, bot, [6, 6], user=BOB, private=True)  # Bob's does not, even for the GM's channel
    give_faces(bot, "YearZero", 1, 3)
    await fake_discord.slash("yz", {"attribute": 2})
    give_faces(bot, "YearZero", 1)
    await fake_discord.slash("push")

    await start_on_postgres()  # the session marker and the log are read back by a new process
    stats = await fake_discord.slash("stats")
    embed = stats.embed
    assert stats.flags & EPHEMERAL and embed["title"] == f"{Tones.NEUTRAL.symbol} Luck of Alice"
    assert embed["color"] == Tones.NEUTRAL.colour.value and embed["description"].startswith("Since the session started")
    names = [item["name"] for item in embed["fields"]]
    assert names == ["In total", "Year Zero", "Heroic Rolls", "The evening, roll by roll"]
    heroic_luck = luck_of([LuckEvent(HEROIC, won) for won in (True, False, True, False)])
    assert field(embed, "Heroic Rolls") == "\n".join([
        "4 rolls", f"2 of 4 chances succeeded; expected {float(heroic_luck.expected):.2f}",
        f"Luckier than {speak('en').percent(heroic_luck.percentile)} of possible evenings",
        f"At least this good: {speak('en').percent(heroic_luck.at_least_this_good)}",
    ])
    yz = field(embed, "Year Zero")
    assert yz.startswith("1 roll\n0 of 2 chances succeeded") and "1 push, 2 Willpower gained, 2 banes taken" in yz
    assert field(embed, "In total").startswith("5 rolls\n2 of 6 chances succeeded")
    assert len(field(embed, "The evening, roll by roll").strip("`")) == 6

    channel = await fake_discord.slash("stats", {"everyone": True}, user=GM)
    assert channel.embed["title"].endswith("Luck of this channel")
    assert field(channel.embed, "In total").startswith("4 rolls")  # private rolls count only for their roller
    bobs = await fake_discord.slash("stats", {"player": BOB}, user=GM)
    assert field(bobs.embed, "In total") == "0 rolls"
