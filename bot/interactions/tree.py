"""The one error path: every failed slash command or button ends here and gets a private answer.

A rules error or a `PlayerError` (storage's "busy" and "not enough Willpower" among them) is shown as it is;
a failed check or a bad option value gets a clear sentence; anything else - a bug - gets a short generic
message, and its traceback goes to the log.

Slash commands reach it through `RollkeeperTree.on_error`. Buttons do not (discord.py only logs what a
`DynamicItem` raises), so their callbacks use `reports_errors` or call `report_error` themselves.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

import aiohttp
import discord
from discord import app_commands

from bot.errors import PlayerError
from bot.interactions.acknowledging import ALREADY_ACKNOWLEDGED, NotAcknowledged
from bot.interactions.language import player_speech
from bot.interactions.raw_options import raw_options_problem
from bot.storage.errors import StorageUnavailable
from bot.text import inert
from rules.errors import RulesError
from rules.language import N_, Speech

_log = logging.getLogger(__name__)

GENERIC_MESSAGE = N_("Something went wrong on my side, sorry; it has been logged. Please try again.")
MAX_MESSAGE_LENGTH = 2000

_PERMISSION_NAMES = {
    # Translators: Discord's permission names: use the names Discord shows in your language.
    "manage_guild": N_("Manage Server"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "manage_messages": N_("Manage Messages"),
    "administrator": N_("Administrator"),
}


def _permissions(names: list[str], speech: Speech) -> str:
    shown = [speech._(_PERMISSION_NAMES[name]) if name in _PERMISSION_NAMES else name.replace("_", " ").title()
             for name in names]
    # Translators: {names} are Discord permission names, joined by commas.
    return speech.ngettext("the {names} permission", "the {names} permissions", len(shown), names=", ".join(shown))


DATABASE_LOST = N_("Nothing was done: the bot cannot use its database any more and is stopping until it is restored.")
"""For a player whose command met a database file deleted, replaced or damaged (the log says which, once)."""
NOT_FOUND_HERE = N_("I cannot find the user, role or channel you picked in this server.")
"""For an option naming someone or something the command cannot use: never the Python repr of what discord.py
made of it (``<Object id=... type=<class 'discord.object.Object'>>``)."""


def _quoted(value: object) -> str:
    """A player's value shown back to them: inert (no Markdown, no controls), cut, between quotes."""
    text = str(value)
    return f"“{inert(text if len(text) <= 50 else text[:50] + '...')}”"


def _cause(error: BaseException) -> BaseException:
    """The error that explains a wrapper: the command's own error, or what a transformer raised."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    if isinstance(error, app_commands.TransformerError) and isinstance(
        error.__cause__, RulesError | PlayerError
    ):
        return error.__cause__
    return error


def _check_message(error: app_commands.CheckFailure, speech: Speech) -> str:
    if isinstance(error, app_commands.MissingPermissions):
        # Translators: {permissions} is "the Manage Server permission" (translated).
        return speech._("You need {permissions} to do that.",
                        permissions=_permissions(error.missing_permissions, speech))
    if isinstance(error, app_commands.BotMissingPermissions):
        return speech._("I need {permissions} in this channel to do that.",
                        permissions=_permissions(error.missing_permissions, speech))
    if isinstance(error, app_commands.NoPrivateMessage):
        return speech._("This command works only in a server, not in direct messages.")
    if isinstance(error, app_commands.CommandOnCooldown):
        seconds = speech.number(round(error.retry_after))
        return speech._("Slow down a little: try again in {seconds} s.", seconds=seconds)
    return speech._("You cannot use this command here.")


def player_message(error: BaseException, speech: Speech) -> str | None:
    """What to tell the player about error, in their language, or None when it is a bug (the caller logs it)."""
    error = _cause(error)
    if isinstance(error, RulesError | PlayerError):
        return speech.error(error)
    if isinstance(error, app_commands.CheckFailure):
        return _check_message(error, speech)
    if isinstance(error, StorageUnavailable):
        return speech._(DATABASE_LOST)
    if isinstance(error, app_commands.TransformerError):
        if not isinstance(error.value, str | int | float):  # a user, role or channel discord.py resolved (or not)
            return speech._(NOT_FOUND_HERE)
        if error.transformer.choices:  # a Literal or an Enum option: the value is none of its choices
            # Translators: {value} is what the player typed, between quotes.
            return speech._("{value} is not one of this option's choices.", value=_quoted(error.value))
        return speech._("{value} is not a valid value for this option.", value=_quoted(error.value))
    if isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return speech._("Discord is still updating this command; try again in a minute.")
    return None


def _describe(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    return f"component {_quoted(data.get('custom_id', '?'))}"


def answered_before(error: BaseException) -> bool:
    """Discord refused the answer because the interaction was answered already (40060): this is a repeat delivery
    (a duplicate, a RESUME replay) of one that an earlier delivery answered. discord.py refuses a second answer
    through the same Interaction itself, so only another delivery can have answered it."""
    cause = _cause(error)
    return isinstance(cause, discord.HTTPException) and cause.code == ALREADY_ACKNOWLEDGED


def _delivered_again(interaction: discord.Interaction) -> None:
    _log.info("Interaction %s (%s) was delivered again; answered already", interaction.id, _describe(interaction))


async def send_private(interaction: discord.Interaction, message: str) -> None:
    """Answer the interaction with an ephemeral message, as a follow-up if it was already answered."""
    if len(message) > MAX_MESSAGE_LENGTH:
        message = message[: MAX_MESSAGE_LENGTH - 1] + "…"
    try:
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # "thinking..." may be public, and the first followup would fill it: take it away, then answer
            await interaction.delete_original_response()
            await interaction.followup.send(message, ephemeral=True)
        elif interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except (discord.HTTPException, aiohttp.ClientError, RuntimeError) as failure:  # RuntimeError: closing down
        if answered_before(failure):  # a repeat delivery, refused again: the first delivery's answer stands
            _delivered_again(interaction)
            return
        _log.warning("Could not tell the player about an error in %s: %s", _describe(interaction), failure)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed command or button privately; log the traceback of anything unexpected."""
    if isinstance(_cause(error), NotAcknowledged):  # nothing was changed, and nothing can be answered
        _log.warning("Could not acknowledge %s: %s", _describe(interaction), _cause(error))
        return
    if answered_before(error):  # the player has the first delivery's answer; the repeat has nothing to add
        _delivered_again(interaction)
        return
    speech = player_speech(interaction)
    message = player_message(error, speech)
    if message is None:
        _log.error("Unexpected error in %s", _describe(interaction), exc_info=_cause(error))
        message = speech._(GENERIC_MESSAGE)
    else:
        _log.debug("Refused %s: %s", _describe(interaction), message)
    await send_private(interaction, message)


P = ParamSpec("P")
S = TypeVar("S")
R = TypeVar("R")
InteractionT = TypeVar("InteractionT", bound=discord.Interaction)

def reports_errors(
    callback: Callable[Concatenate[S, InteractionT, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[S, InteractionT, P], Coroutine[Any, Any, R | None]]:
    """Decorate a button's ``callback(self, interaction, ...)``: what it raises goes to report_error."""

    @functools.wraps(callback)
    async def wrapper(self: S, interaction: InteractionT, *args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return await callback(self, interaction, *args, **kwargs)
        except Exception as error:  # every failure is answered, and logged when unexpected
            await report_error(interaction, error)
            return None

    return wrapper


class RollkeeperTree(app_commands.CommandTree):
    """The bot's command tree (pass as ``tree_cls``): failed commands get a private answer."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse, privately, a command whose raw options do not fit its declarations (crafted payloads)."""
        refuse = getattr(interaction.client, "refuse_if_draining", None)
        if refuse is not None and await refuse(interaction):  # closing: no new work (the bot says so)
            return False
        hold = getattr(interaction.client, "hold_interaction", None)
        if hold is not None:  # the bot waits for this command's task when it closes
            hold(interaction)
        if interaction.type is not discord.InteractionType.application_command:
            return True
        try:
            problem = raw_options_problem(self, interaction.data, player_speech(interaction))
        except Exception:  # a fault in this guard must not cost the player an answer: discord.py goes on
            _log.exception("Could not check the options of %s", _describe(interaction))
            return True
        if problem is None:
            return True
        _log.info("Refused %s: %s", _describe(interaction), problem)
        await send_private(interaction, problem)
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)
