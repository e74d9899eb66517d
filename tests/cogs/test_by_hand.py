"""`faces` on every roll command, end to end through the fake Discord on a real SQLite file: dice rolled by hand are
read as the command line reads --faces, refused privately (nothing logged) when wrong, and shown and logged as the
bot's roll of the same faces is, with the card and the log entry saying they were rolled by hand."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest

from bot.render.by_hand import BY_HAND
from tests.bot.embeds import give_faces
from tests.fakediscord import ALICE, BOB, FakeDiscord, Reply

COGS = ("cogs.yearzero.cog", "cogs.hex.cog", "cogs.heroic.cog", "cogs.sevenkingdoms.cog")
EPHEMERAL = 64
MARK = f"\n{BY_HAND}"

ROLLS = [  # (command, its cog, options, faces in the card's order), each read by hand in the rules' tests
    ("yz", "YearZero", {"attribute": 2, "skill": 1, "gear": 1, "artifact": "d8"}, [6, 3, 1, 4, 7]),
    ("hex test", "Hex", {"attribute": 3, "skill": 1, "dv": 5}, [6, 2, 6, 1]),
    ("hex contest", "Hex", {"attribute": 2, "skill": 1, "opposing": 3}, [6, 3, 6, 6, 2, 1]),
    ("hex cast", "Hex", {"attribute": 3, "skill": 2, "risk": 2}, [2, 1, 3, 4, 5]),
    ("hex plain", "Hex", {"dice": 3}, [6, 1, 4]),
    ("heroic difficulty", "Heroic", {"skill": 3, "difficulty": "easy"}, [4, 5]),
    ("heroic tn", "Heroic", {"skill": 5, "tn": 10, "dice": "d20"}, [20]),
    ("heroic versus", "Heroic", {"skill": 2, "versus": 3}, [1, 1]),
    ("test basic", "SevenKingdoms", {"pool": "3D+2B-1P", "difficulty": "Routine"}, [6, 5, 1, 4, 2]),
    ("test conflict", "SevenKingdoms", {"rank": 2, "defense": 8}, [1, 6]),
    ("test competition", "SevenKingdoms", {"participants": "Jaime 2D+1B, Brienne 2D"}, [6, 5, 1, 3, 3]),
]
IDS = [command for command, *_ in ROLLS]


@pytest.fixture
async def bot(start_bot):
    return await start_bot(extensions=COGS)


def logged(db_path) -> list[dict]:
    with closing(sqlite3.connect(db_path)) as connection:
        connection.row_factory = sqlite3.Row
        rows = connection.execute("SELECT system, kind, reading, events, extras FROM roll_log ORDER BY id")
        return [{**dict(row), "extras": json.loads(row["extras"])} for row in rows]


def card(reply: Reply) -> dict:
    """The card as shown, whichever way it was answered (at once, or filled in after "thinking...")."""
    assert not reply.ephemeral and reply.errors == [], reply.describe()
    return reply.embed


def refusal(reply: Reply) -> str:
    assert reply.type == 4 and reply.flags & EPHEMERAL and not reply.embeds, reply.describe()
    return reply.content


@pytest.mark.parametrize(("command", "cog", "options", "faces"), ROLLS, ids=IDS)
async def test_a_roll_by_hand_reads_shows_and_logs_as_the_bots_roll_of_the_same_faces(
    fake_discord: FakeDiscord, bot, db_path, command, cog, options, faces
):
    dice = give_faces(bot, cog, *faces)
    by_bot = card(await fake_discord.slash(command, options, user=BOB))
    dice.finish()
    give_faces(bot, cog)  # the bot's dice would refuse to roll: every face comes from the option
    typed = " ".join(map(str, faces)) if len(faces) % 2 else ",".join(map(str, faces))  # both ways of writing them
    by_hand = card(await fake_discord.slash(command, {**options, "faces": typed}, user=BOB))
    assert {key: by_hand.get(key) for key in ("title", "description", "fields", "color")} == {
        key: by_bot.get(key) for key in ("title", "description", "fields", "color")
    }
    assert by_hand["footer"]["text"] == by_bot["footer"]["text"] + MARK  # the same odds, then the mark
    first, second = logged(db_path)[-2:]
    assert second["extras"].pop("by_hand") == 1 and "by_hand" not in first["extras"]
    assert second == first  # the same reading, luck events and figures


@pytest.mark.parametrize(("command", "cog", "options", "faces"), ROLLS, ids=IDS)
async def test_wrong_faces_are_refused_privately_naming_the_first_wrong_one_and_nothing_is_logged(
    fake_discord: FakeDiscord, bot, db_path, command, cog, options, faces
):
    give_faces(bot, cog)  # the bot's dice would refuse to roll
    count = len(faces)
    impossible = [*faces[:-1], 21]
    wrong = {
        " ".join(map(str, faces[:-1])) or "x": "Not enough faces" if count > 1 else "not a number",
        " ".join(map(str, [*faces, 1])): f"{count + 1} faces given, but the roll used {count}",
        " ".join(map(str, impossible)): "Face 21 is impossible on a d",
        ",".join(map(str, faces[:-1])) + ",six": "Face 'six' is not a number",
        "6 -1" if count > 1 else "-1": "not a number",
    }
    for typed, said in wrong.items():
        reply = await fake_discord.slash(command, {**options, "faces": typed}, user=ALICE)
        assert said in refusal(reply), typed
    assert f"(die {count})" in refusal(await fake_discord.slash(command, {**options, "faces": " ".join(
        map(str, impossible))}))
    assert logged(db_path) == []
