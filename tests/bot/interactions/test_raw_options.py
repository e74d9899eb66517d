"""Crafted option values that Discord's client would never send are refused privately, before anything runs."""

from __future__ import annotations

import sqlite3

import pytest

from rules.language import speak
from tests.fakediscord import ALICE

YZ = ("cogs.yearzero.cog", "cogs.willpower.cog")


def yz_data(fake, options: list[dict]) -> dict:
    [command] = [c for c in fake.commands() if c["name"] == "yz"]
    return {"id": command["id"], "name": "yz", "type": 1, "options": options}


def rolls_stored(db_path) -> int:
    with sqlite3.connect(db_path) as connection:
        return connection.execute("SELECT COUNT(*) FROM yz_rolls").fetchone()[0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([{"name": "attribute", "type": 4, "value": -5}, {"name": "skill", "type": 4, "value": 1}],
         "`attribute` must be from 0 to 10, not -5."),
        ([{"name": "attribute", "type": 4, "value": 10**12}, {"name": "skill", "type": 4, "value": 1}],
         "`attribute` must be from 0 to 10"),
        ([{"name": "attribute", "type": 4, "value": 3.5}, {"name": "skill", "type": 4, "value": 1}],
         "`attribute` must be a whole number."),
        ([{"name": "attribute", "type": 4, "value": "3"}, {"name": "skill", "type": 4, "value": 1}],
         "`attribute` must be a whole number."),
        ([{"name": "skill", "type": 4, "value": 1}], "`/yz` needs the option `attribute`."),
        ([{"name": "attribute", "type": 4, "value": 1}, {"name": "skill", "type": 4, "value": 1},
          {"name": "artifact", "type": 3, "value": "d20"}], "`artifact` must be one of: d8, d10, d12."),
        ([{"name": "attribute", "type": 4, "value": 1}, {"name": "skill", "type": 4, "value": 1},
          {"name": "note", "type": 3, "value": "x" * 10_000}], "`note` is too long: at most 200 characters"),
        ([{"name": "attribute", "type": 4, "value": 1}, {"name": "skill", "type": 4, "value": 1},
          {"name": "luck", "type": 4, "value": 1}], "`/yz` has no option `luck`."),
        ([{"name": "attribute", "type": 10, "value": "abc"}, {"name": "skill", "type": 4, "value": 1}],
         "`attribute` has the wrong type of value."),
    ],
)
async def test_crafted_options_get_a_private_refusal_and_store_nothing(start_bot, fake_discord, db_path, options,
                                                                      message):
    await start_bot(extensions=YZ)
    reply = await fake_discord.send_interaction(fake_discord.payload(2, yz_data(fake_discord, options), user=ALICE))
    assert reply.ephemeral and message in reply.content
    assert rolls_stored(db_path) == 0


async def test_a_fitting_crafted_payload_still_rolls(start_bot, fake_discord, db_path):
    await start_bot(extensions=YZ)
    options = [{"name": "attribute", "type": 4, "value": 2}, {"name": "skill", "type": 4, "value": 1}]
    reply = await fake_discord.send_interaction(fake_discord.payload(2, yz_data(fake_discord, options), user=ALICE))
    assert not reply.ephemeral and reply.embed["description"].startswith("Year Zero")


@pytest.mark.parametrize("value", ["²", "١٢٣", "12a", "", 123, None, "1" * 21])
def test_a_user_option_must_be_an_ascii_id(value):
    """'²' passed the guard (str.isdigit says yes) and then failed inside discord.py, unanswered."""
    from discord import AppCommandOptionType

    from bot.interactions.raw_options import Declared, option_problem

    user = Declared("player", AppCommandOptionType.user, False, (), "", None, None)
    assert option_problem(6, value, user, speak("en")) == "`player` does not name anything I can find."
    assert option_problem(6, "123456789012345678", user, speak("en")) is None
