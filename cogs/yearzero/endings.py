"""Messages of Year Zero rolls that can no longer be pushed: edited, best effort, to say so and drop the buttons.

A roll stops being pushable when it is pushed for the last time, kept, superseded by the same player's newer roll
in that channel, or expired. Its message (noted in storage when it was sent) is then edited: its Push and Keep
buttons go, and its card is drawn again from the stored roll in its ended state (the ending said once, in the card:
no content line, no Push line nor push cost, a link to the pushed result after /push). An edit that fails (Discord down,
message deleted) is only logged: the next click on the message repairs it (``refuse_or_repair``). A private roll's
message is ephemeral, which only the interaction that sent it could edit, so it is left as it is.

Where the bot itself is absent (a DM, a group DM, a server that did not add the app: the stored payload says
``botless``), the bot's own token reaches no channel: the message is edited through the token of the interaction that
last showed it, while that lives (bot/interactions/webhook_edits.py), and otherwise left to a click to repair.
"""

from __future__ import annotations

import json
import logging
from enum import StrEnum
from typing import Any

import aiohttp
import discord

from bot.errors import PlayerError
from bot.interactions.language import player_speech
from bot.interactions.private_rolls import reveal_on, roll_view, still_to_reveal
from bot.interactions.rollkeeper import Rollkeeper, rollkeeper
from bot.render.by_hand import mark_card
from bot.storage.roll_records import PushRefusal, YearZeroRoll
from cogs.yearzero.card import EndedRoll, render_ended
from rules.language import N_, Speech, speak
from rules.yearzero.odds import pool_odds
from rules.yearzero.roll import YzRoll

_log = logging.getLogger(__name__)

EXPIRING_EDITS = 25
"""At most this many expiring rolls' messages are edited per purge (the rest are repaired when clicked)."""

_COMPACT = json.JSONEncoder(separators=(",", ":"))
"""One encoder for every stored roll (json.dumps with options builds a new one per call)."""


class Ending(StrEnum):
    """Why a roll's message no longer offers a push, as its message says it."""

    PUSHED = N_("⏹ Pushed with /push: the pushed roll is in a later message.")
    SUPERSEDED = N_("⏹ Superseded: the same player rolled again in this channel, so this roll can no longer be pushed.")
    EXPIRED = N_("⏹ Too old to push now.")
    KEPT = N_("✋ Kept: the roller accepted this roll as it lies; it can no longer be pushed.")


REFUSED = {
    PushRefusal.UNKNOWN: N_("I cannot find that roll; it may be too old to push."),
    PushRefusal.NOT_YOURS: N_("Only the player who rolled can push this roll."),
    PushRefusal.SUPERSEDED: N_("You rolled again in this channel since; only your latest roll can be pushed."),
    PushRefusal.EXPIRED: N_("This roll is too old to push now."),
    PushRefusal.ALREADY_PUSHED: N_("This roll has already been pushed; a roll can be pushed only once."),
    PushRefusal.NO_PUSHES_LEFT: N_("This roll has been pushed as many times as it allows."),
    PushRefusal.PUSHED_MEANWHILE: N_("This roll was pushed just now; look at the pushed roll before pushing again."),
    PushRefusal.KEPT: N_("This roll was kept: it can no longer be pushed."),
}
"""What a player is told when a push (or keep) is refused."""


def check_same_push(stored: YearZeroRoll | None, pushes_made: int) -> None:
    """Refuse a submission whose modal was opened for a push that was made since (by /push, or another modal); a
    roll no longer stored is the push's to refuse."""
    if stored is not None and stored.pushes_made != pushes_made:
        raise PlayerError(REFUSED[PushRefusal.PUSHED_MEANWHILE])


_ENDINGS = {
    PushRefusal.SUPERSEDED: Ending.SUPERSEDED,
    PushRefusal.EXPIRED: Ending.EXPIRED,
    PushRefusal.KEPT: Ending.KEPT,
}
"""Refusals that mean the clicked message should no longer offer a push, and what it should say instead."""
_PUSHED = {PushRefusal.ALREADY_PUSHED, PushRefusal.NO_PUSHES_LEFT, PushRefusal.PUSHED_MEANWHILE}


def stored_payload(
    roll: YzRoll, note: str | None, private: bool, speech: Speech, *, by_hand: bool = False, botless: bool = False
) -> str:
    """The JSON stored for a roll: the roll itself, the player's note, whether it was rolled privately, the
    language its card speaks (every later card of the roll speaks it too) and, only when true, that its dice were
    rolled by hand (its pushes then take the player's faces too) and that it was rolled where the bot itself is
    absent (its message is then never edited with the bot's own token)."""
    data = {"roll": roll.as_dict(), "note": note, "private": private, "language": speech.code}
    if by_hand:
        data["by_hand"] = True
    if botless:
        data["botless"] = True
    return _COMPACT.encode(data)


def is_botless(stored: YearZeroRoll) -> bool:
    """Whether the roll was rolled where the bot itself is absent (places.bot_present, as its payload recorded): a
    DM, a group DM, or a server that did not add the app."""
    return bool(json.loads(stored.payload).get("botless"))


def is_by_hand(stored: YearZeroRoll) -> bool:
    """Whether the roll's dice were rolled by hand (its faces typed with /yz faces:)."""
    return bool(json.loads(stored.payload).get("by_hand"))


def payload_speech(stored: YearZeroRoll) -> Speech:
    """The language a stored roll's cards speak: the one its first card spoke (English for a roll stored before
    rollkeeper spoke others)."""
    return speak(json.loads(stored.payload).get("language"))


def pushed_payload(roll: YzRoll) -> str:
    """The JSON stored for a roll after a push (the whole chain of its rolls)."""
    return _COMPACT.encode(roll.as_dict())


def read_payload(stored: YearZeroRoll) -> tuple[YzRoll, str | None, bool]:
    """The roll as it now lies (after its latest push, if any), the note and whether it is private."""
    data = json.loads(stored.payload)
    latest = json.loads(stored.pushed_payload) if stored.pushed_payload else data["roll"]
    return YzRoll.from_dict(latest), data.get("note"), bool(data.get("private"))


def is_private(stored: YearZeroRoll) -> bool:
    return bool(json.loads(stored.payload).get("private"))


def ending_line(ending: Ending, speech: Speech, result_url: str | None = None) -> str:
    """What the ended card says of its ending: for /push, a link to the pushed result when it is known."""
    if ending is Ending.PUSHED and result_url is not None:
        # Translators: keep the Markdown link [..]({url}) as it is, translating its text.
        return speech._("⏹ Pushed with /push: see [the pushed roll]({url}) below.", url=result_url)
    return speech._(ending.value)


def ended_card(stored: YearZeroRoll, ending: Ending, result_url: str | None = None) -> discord.Embed | None:
    """The card of a roll that ended, drawn from its stored payload; None (logged) when the payload is unreadable:
    the message then keeps its card and says why in its content instead."""
    try:
        roll, note, _ = read_payload(stored)
        speech = payload_speech(stored)
        ended = EndedRoll(roll, ending_line(ending, speech, result_url))
        card = render_ended(ended, pool_odds(roll), speech=speech, note=note)
        return mark_card(card, speech) if is_by_hand(stored) else card
    except (KeyError, TypeError, ValueError, AttributeError) as failure:  # ValueError: json's and the rules'
        _log.warning("Roll %s's stored payload cannot be shown again: %r", stored.id, failure)
        return None


def _roll_channel(bot: Rollkeeper, stored: YearZeroRoll) -> discord.PartialMessageable:
    """The roll's channel, for its links (and the bot's own edits): in a DM or group DM, whose place is the channel
    itself, a channel of no server (its links then read @me)."""
    in_server = stored.guild_id != stored.channel_id
    return bot.get_partial_messageable(stored.channel_id, guild_id=stored.guild_id if in_server else None)


def _ended_message(embed: discord.Embed | None, ending: Ending, speech: Speech) -> dict:
    """The edit of an ended roll's message: its card redrawn with the ending in it, and any content cleared (null,
    as Discord's spec allows) so the ending is read once; only a roll whose card cannot be redrawn (purged, or an
    unreadable payload) keeps its old card and says why in the content."""
    return {"embed": embed, "content": None} if embed is not None else {"content": speech._(ending.value)}


async def edit_ended(bot: Rollkeeper, stored: YearZeroRoll, ending: Ending, result_id: int | None) -> bool:
    """Say why on the message, redraw its card ended and take its buttons off; False (logged) when Discord refused
    or could not."""
    if stored.message_id is None:
        return False
    channel = _roll_channel(bot, stored)
    result_url = channel.get_partial_message(result_id).jump_url if result_id is not None else None
    message = _ended_message(ended_card(stored, ending, result_url), ending, payload_speech(stored))
    doing = f"mark it as {ending.name.lower()}"
    return await _edit_message(bot, stored, stored.message_id, doing, view=None, **message)


async def _edit_message(bot: Rollkeeper, stored: YearZeroRoll, message_id: int, doing: str, **edit: Any) -> bool:
    """Edit the stored roll's own message, message_id; False, logged saying what it was `doing`, when Discord
    refused or could not."""
    if is_botless(stored):
        return await bot.webhooks.edit(message_id, f"{doing} (roll {stored.id})", **edit)
    channel = _roll_channel(bot, stored)
    try:
        await channel.get_partial_message(message_id).edit(**edit)
    except (discord.HTTPException, aiohttp.ClientError) as failure:
        _log.info("Could not %s on message %s of roll %s: %s", doing, message_id, stored.id, failure)
        return False
    return True


async def mark_ended(bot: Rollkeeper, stored: YearZeroRoll, ending: Ending, result_id: int | None = None) -> bool:
    """Edit the message of a roll that ended, when it has a public one; result_id is the message /push showed the
    pushed roll in."""
    if stored.message_id is None or is_private(stored):
        return False
    return await edit_ended(bot, stored, ending, result_id)


async def show_pushed_in_place(
    bot: Rollkeeper, stored: YearZeroRoll, embed: discord.Embed, view: discord.ui.View | None
) -> bool:
    """/push's answer never arrived: show the pushed roll on the roll's own message instead (a public one), with
    its buttons while pushes are left. False (logged) when that edit fails too: the message keeps its Push button,
    and the roller's next click on it shows the push as stored."""
    if stored.message_id is None or is_private(stored):
        return False
    return await _edit_message(bot, stored, stored.message_id, "show its push", embed=embed, view=view, content=None)


async def mark_expiring(bot: Rollkeeper) -> int:
    """Before the purge: edit the messages of up to EXPIRING_EDITS rolls that expired while pushable."""
    rolls = await bot.db.rolls.expiring(bot.now(), bot.settings.push_lifetime, EXPIRING_EDITS)
    edited = 0
    for stored in rolls:
        edited += await mark_ended(bot, stored, Ending.EXPIRED)
    return edited


def shown_elsewhere(interaction: discord.Interaction, stored: YearZeroRoll) -> bool:
    """A click on a message that no longer shows the roll: /push pushed it and showed it in a later message."""
    clicked = interaction.message.id if interaction.message is not None else None
    moved = stored.message_id is not None and clicked not in (None, stored.message_id)
    return interaction.type is discord.InteractionType.component and stored.pushes_made > 0 and moved


async def refuse_or_repair(interaction: discord.Interaction, refusal: PushRefusal, stored: YearZeroRoll) -> None:
    """Tell the player why; when the clicked message still offers a push it should not, repair it instead."""
    ending = _ENDINGS.get(refusal)
    if ending is None and refusal in _PUSHED and shown_elsewhere(interaction, stored):
        ending = Ending.PUSHED
    if ending is not None and await repair(interaction, ending, stored):
        return
    raise PlayerError(REFUSED[refusal])


async def repair(interaction: discord.Interaction, ending: Ending, stored: YearZeroRoll | None = None) -> bool:
    """Answer a click on a message that should no longer offer a push by editing it to say why, its card redrawn
    ended from the stored roll when there still is one (a purged roll's card stays as it was)."""
    if interaction.type is not discord.InteractionType.component:
        return False
    acknowledged = interaction.response.type is discord.InteractionResponseType.deferred_message_update
    if interaction.response.is_done() and not acknowledged:
        return False
    await show_ended(interaction, ending, stored)
    return True


async def show_ended(interaction: discord.Interaction, ending: Ending, stored: YearZeroRoll | None) -> None:
    """Answer a click by editing its message to the roll's ended card, without Push and Keep (a private roll not
    yet revealed keeps Reveal; a purged roll, given as None, keeps the card it had and says why in the content)."""
    card = ended_card(stored, ending, _shown_at(interaction, stored)) if stored is not None else None
    speech = payload_speech(stored) if stored is not None else player_speech(interaction)
    message = _ended_message(card, ending, speech)
    view = await reveal_left(interaction, stored, speech)
    if interaction.response.type is discord.InteractionResponseType.deferred_message_update:  # acknowledged first
        await interaction.edit_original_response(view=view, **message)
        return
    await interaction.response.edit_message(view=view, **message)


async def reveal_left(interaction: discord.Interaction, stored: YearZeroRoll | None, speech: Speech
                      ) -> discord.ui.View | None:
    """The buttons an ended roll's message keeps: Reveal, for a private roll its roller has not revealed yet (a
    purged roll's private message keeps the Reveal it carries while the log entry it names is unrevealed)."""
    if stored is not None and not is_private(stored):
        return None
    entry_id = stored.id if stored is not None else reveal_on(interaction.message)
    if entry_id is None or not still_to_reveal(await rollkeeper(interaction).db.log.get(entry_id)):
        return None
    return roll_view(entry_id, True, speech)


def _shown_at(interaction: discord.Interaction, stored: YearZeroRoll) -> str | None:
    """The link to the message a public roll now shows in, when it moved there from the clicked one."""
    if stored.message_id is None or is_private(stored) or not shown_elsewhere(interaction, stored):
        return None
    channel = _roll_channel(rollkeeper(interaction), stored)
    return channel.get_partial_message(stored.message_id).jump_url
