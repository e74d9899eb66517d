"""Every system's rolls reach the roll log with the right luck events, and the log's own cards and CSV."""

from __future__ import annotations

import csv
import io
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from fractions import Fraction

import pytest

from bot.storage.roll_log import LogEntry
from cogs.log.cards import CSV_HEADERS, log_csv, spreadsheet_safe
from cogs.log.tallies import per_system, sparkline, tally
from rules.hex.odds import odds_for_test
from rules.language import speak
from rules.luck import LuckEvent
from rules.sevenkingdoms.odds import odds_for_test as sk_odds
from rules.sevenkingdoms.roll import SkPool
from tests.bot.embeds import give_faces
from tests.fakediscord import FakeGuild

COGS = ("cogs.hex.cog", "cogs.sevenkingdoms.cog", "cogs.log.cog")
GUILD = FakeGuild("The Keep")
NOW = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)


@pytest.fixture
def fake_guilds():
    return (GUILD,)


def logged(db_path) -> list[tuple[str, str, str, str]]:
    with closing(sqlite3.connect(db_path)) as connection:
        return list(connection.execute("SELECT system, kind, events, extras FROM roll_log ORDER BY id"))


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


async def test_hex_and_seven_kingdoms_rolls_are_logged_with_their_events(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=COGS)
    give_faces(bot, "Hex", 6, 2, 3)
    await fake_discord.slash("hex test", {"attribute": 3})
    give_faces(bot, "Hex", 6, 6)
    await fake_discord.slash("hex plain", {"dice": 2})
    await fake_discord.slash("hex test", {"attribute": 2, "advancement": True})
    give_faces(bot, "SevenKingdoms", 5, 4)
    await fake_discord.slash("test basic", {"rank": 2, "difficulty": "9"})
    give_faces(bot, "SevenKingdoms", 3, 4, 2, 2)
    await fake_discord.slash("test competition", {"participants": "Jaime 2D, Brienne 2D"})
    hex_test, plain, advancement, basic, competition = logged(db_path)
    assert hex_test[:3] == ("hex", "test", fraction_text(odds_for_test(3).success) + ":1")
    assert plain[:3] == ("hex", "plain", "") and advancement[2] == ""
    expected = sk_odds(SkPool(2), 9)
    assert basic[:3] == ("sevenkingdoms", "basic", fraction_text(expected.success) + ":1")
    assert f'"expected_degrees":"{expected.expected_degrees}"' in basic[3] and '"degrees":1' in basic[3]
    assert competition[:3] == ("sevenkingdoms", "competition", "")


def entry(system: str, events: tuple[str, ...], extras: dict, reading: str = "Success") -> LogEntry:
    return LogEntry(1, 2, 3, 4, NOW, system, "basic", reading, events, extras, False, None, None)


def test_seven_kingdoms_degrees_average_against_the_expected():
    entries = [
        entry("sevenkingdoms", ("1/2:1",), {"degrees": 2, "expected_degrees": "3/2"}),
        entry("sevenkingdoms", ("1/3:0",), {"degrees": 0, "expected_degrees": "1/2"}),
    ]
    [sk] = per_system(entries)
    assert sk.name == "Seven Kingdoms" and sk.degrees is not None
    assert (sk.degrees.average, sk.degrees.expected, sk.degrees.tests) == (1, 1, 2)
    assert sk.luck is not None and sk.luck.expected == Fraction(5, 6)


def test_no_events_no_luck_and_the_sparkline_rises_with_unlikely_successes():
    assert tally("In total", [entry("hex", (), {})]).luck is None
    events = [LuckEvent(Fraction(1, 36), True), LuckEvent(Fraction(35, 36), True), LuckEvent(Fraction(35, 36), False)]
    assert sparkline(events) == "█▅▁" and sparkline([]) == ""


def test_the_csv_has_its_headers_and_defuses_formulas():
    text = log_csv([entry("heroic", ("1/2:1",), {"pushes": 0}, reading="=HYPERLINK(1)")], speak("en"))
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_HEADERS and rows[1][5] == "'=HYPERLINK(1)" and rows[1][9] == "pushes=0"
    assert spreadsheet_safe("Success") == "Success"
