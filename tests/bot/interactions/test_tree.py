"""The one error path, unit by unit (the end-to-end tests through the fake Discord come with the cogs)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.interactions.tree import (
    DATABASE_LOST,
    GENERIC_MESSAGE,
    RollkeeperTree,
    player_message,
    report_error,
    reports_errors,
)
from bot.storage.errors import NotEnoughWillpower, StorageBusy, StorageUnavailable
from rules.errors import CannotPush, InvalidInput
from rules.language import speak


@app_commands.command(name="yz", description="Roll")
async def yz(interaction: discord.Interaction, attribute: int) -> None:
    """A command to hang errors on."""


def invoke_error(error: Exception) -> app_commands.CommandInvokeError:
    return app_commands.CommandInvokeError(yz, error)


def transformer_error(value: Any, cause: Exception | None = None) -> app_commands.TransformerError:
    error = app_commands.TransformerError(
        value, discord.AppCommandOptionType.integer, app_commands.Range[int, 0, 10]
    )
    error.__cause__ = cause
    return error


@dataclass
class FakeInteraction:
    """Just what report_error touches: response.is_done/send_message, followup.send, command, data, locale."""

    done: bool = False
    fail_with: Exception | None = None
    sent: list[tuple[str, str, bool]] = field(default_factory=list)
    command: Any = yz
    data: dict[str, Any] = field(default_factory=dict)
    id: int = 1234
    locale: str = "en-US"

    def __post_init__(self) -> None:
        self.response = SimpleNamespace(is_done=lambda: self.done, send_message=self._answer("response"), type=None)
        self.followup = SimpleNamespace(send=self._answer("followup"))

    def _answer(self, how: str):
        async def send(content: str, *, ephemeral: bool = False) -> None:
            if self.fail_with is not None:
                raise self.fail_with
            self.sent.append((how, content, ephemeral))

        return send


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (InvalidInput("Attribute 12 is out of range"), "Attribute 12 is out of range"),
        (invoke_error(CannotPush("Nothing to reroll")), "Nothing to reroll"),
        (invoke_error(NotEnoughWillpower(2, 3)), "You have 2 Willpower; you cannot spend 3."),
        (invoke_error(StorageBusy()), "The dice table is busy - try again in a moment."),
        (transformer_error("x", InvalidInput("Pool '3Q' is not valid")), "Pool '3Q' is not valid"),
        (
            app_commands.MissingPermissions(["manage_guild"]),
            "You need the Manage Server permission to do that.",
        ),
        (app_commands.NoPrivateMessage(), "This command works only in a server, not in direct messages."),
    ],
)
def test_player_errors_are_shown_as_they_are(error: Exception, expected: str):
    assert player_message(error, speak("en")) == expected


def test_bad_option_values_and_stale_commands_get_a_clear_sentence():
    assert "not a valid value" in player_message(transformer_error("9" * 80), speak("en"))
    assert len(player_message(transformer_error("9" * 80), speak("en"))) < 120
    assert "try again in a minute" in player_message(app_commands.CommandSignatureMismatch(yz), speak("en"))
    assert "need the Embed Links permission" in player_message(
        app_commands.BotMissingPermissions(["embed_links"]), speak("en")
    )


def test_a_lost_database_is_told_without_its_path():
    """The operator's message names the file (logged once, as the bot stops); the player learns nothing was done."""
    lost = StorageUnavailable(Path("/srv/rk/x.sqlite3"), "the file was deleted")
    message = player_message(invoke_error(lost), speak("en"))
    assert message == DATABASE_LOST and "/srv" not in message and "Nothing was done" in message


@pytest.mark.parametrize(
    "error",
    [RuntimeError("bug"), invoke_error(KeyError("x"))],
)
def test_bugs_have_no_player_message(error: Exception):
    assert player_message(error, speak("en")) is None


async def test_report_answers_privately_then_follows_up():
    fresh, answered = FakeInteraction(), FakeInteraction(done=True)
    await report_error(fresh, invoke_error(InvalidInput("Skill -1 is out of range")))
    await report_error(answered, InvalidInput("Gear 11 is out of range"))
    assert fresh.sent == [("response", "Skill -1 is out of range", True)]
    assert answered.sent == [("followup", "Gear 11 is out of range", True)]


async def test_a_bug_gets_the_generic_message_and_a_logged_traceback(caplog: pytest.LogCaptureFixture):
    interaction = FakeInteraction()
    with caplog.at_level(logging.ERROR, logger="bot.interactions.tree"):
        await report_error(interaction, invoke_error(ZeroDivisionError("division by zero")))
    assert interaction.sent == [("response", GENERIC_MESSAGE, True)]
    [record] = caplog.records
    assert "/yz" in record.getMessage() and record.exc_info[0] is ZeroDivisionError
    assert "division by zero" not in GENERIC_MESSAGE


async def test_an_answer_that_cannot_be_sent_is_logged_not_raised(caplog: pytest.LogCaptureFixture):
    gone = discord.NotFound(
        SimpleNamespace(status=404, reason="Not Found"), {"code": 10062, "message": "Unknown"}
    )
    interaction = FakeInteraction(fail_with=gone)
    with caplog.at_level(logging.WARNING, logger="bot.interactions.tree"):
        await report_error(interaction, InvalidInput("bad"))
    assert "Could not tell the player" in caplog.text


def refused_answer(code: int) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=400, reason="Bad Request"), {"code": code, "message": "No"})


async def test_a_repeat_delivery_refused_as_already_answered_is_one_info_line(caplog: pytest.LogCaptureFixture):
    """Discord's 40060 on an answer: another delivery of this interaction answered it; nothing more is said."""
    interaction = FakeInteraction()
    with caplog.at_level(logging.INFO, logger="bot.interactions.tree"):
        await report_error(interaction, invoke_error(refused_answer(40060)))
    assert interaction.sent == []
    assert [(record.levelname, record.getMessage()) for record in caplog.records] == [
        ("INFO", "Interaction 1234 (/yz) was delivered again; answered already")
    ]


async def test_any_other_refused_answer_is_a_bug(caplog: pytest.LogCaptureFixture):
    interaction = FakeInteraction()
    with caplog.at_level(logging.ERROR, logger="bot.interactions.tree"):
        await report_error(interaction, invoke_error(refused_answer(50035)))  # an invalid body
    assert interaction.sent == [("response", GENERIC_MESSAGE, True)] and caplog.records[0].exc_info


async def test_long_messages_fit_discord():
    interaction = FakeInteraction()
    await report_error(interaction, InvalidInput("x" * 5000))
    assert len(interaction.sent[0][1]) == 2000


async def test_the_tree_routes_command_errors_to_report_error():
    tree = RollkeeperTree(discord.Client(intents=discord.Intents.none()))
    interaction = FakeInteraction()
    await tree.on_error(interaction, invoke_error(CannotPush("This roll cannot be pushed")))
    assert interaction.sent == [("response", "This roll cannot be pushed", True)]


async def test_reports_errors_answers_for_a_button():
    class PushButton:
        @reports_errors
        async def callback(self, interaction: FakeInteraction) -> str:
            raise StorageBusy()

        @reports_errors
        async def fine(self, interaction: FakeInteraction) -> str:
            return "pushed"

    interaction = FakeInteraction(command=None, data={"custom_id": "yz:push:7"})
    assert await PushButton().callback(interaction) is None
    assert interaction.sent == [("response", "The dice table is busy - try again in a moment.", True)]
    assert await PushButton().fine(interaction) == "pushed"
    assert PushButton.callback.__name__ == "callback"


class _Choosing(app_commands.Transformer):
    """A transformer with choices, as discord.py makes for Literal and Enum options."""

    @property
    def choices(self):
        return [app_commands.Choice(name="one", value="one")]

    async def transform(self, interaction, value):
        return value


class _Free(app_commands.Transformer):
    async def transform(self, interaction, value):
        return value


def test_a_value_outside_an_options_choices_is_named_as_such():
    string = discord.AppCommandOptionType.string
    chosen = app_commands.TransformerError("two", string, _Choosing())
    assert player_message(chosen, speak("en")) == "“two” is not one of this option's choices."
    free = app_commands.TransformerError("two", string, _Free())
    assert player_message(free, speak("en")) == "“two” is not a valid value for this option."


def test_a_refused_value_is_shown_back_inert():
    """A value the player typed comes back without Markdown or controls: a masked link stays text."""
    string = discord.AppCommandOptionType.string
    link = app_commands.TransformerError("[Push](https://evil.example)\u202e", string, _Free())
    assert player_message(link, speak("en")) == "“\\[Push](https://evil.example)” is not a valid value for this option."
