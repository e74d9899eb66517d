"""Pushing a Year Zero roll whose dice were rolled by hand: the modal the Push button opens, asking for the new
faces of the dice the push rerolls, and what its submission carries.

The modal's custom_id names the roll and the push it is for (``rk:yz:pushfaces:<roll>:<pushes made>``), as the
button's names the roll: its submission is taken by the cog's listener whatever process or restart opened it, so
the modal is stopped before it is sent and discord.py keeps nothing for it. A submission for a push that another
push beat is refused; the push itself is claimed once, as every push is (pushing.py).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import discord

from bot.render.common import clip
from bot.storage.roll_records import YearZeroRoll
from rules.dice import Die, Role
from rules.language import N_, Speech
from rules.yearzero.dice import PRIDE_NAME
from rules.yearzero.roll import YzRoll

PUSH_FACES_PATTERN = re.compile(r"rk:yz:pushfaces:(?P<roll>[0-9]{1,19}):(?P<made>[0-3])")
FACES_INPUT = "faces"
"""The custom_id of the modal's one text input."""
TITLE, LABEL, PLACEHOLDER = 45, 45, 100
"""Discord's limits on a modal's title, a text input's label and its placeholder."""

# Translators: the title of the form (at most 45 characters) where a player types the faces of a push made by hand.
MODAL_TITLE = N_("Push: the new faces")
# Translators: the grey hint in the form's input (at most 100 characters).
INPUT_HINT = N_("The rerolled dice's new faces, in the card's order, e.g. 6 3 1")
HAND_ROLLED = N_(
    "This roll was rolled by hand: push it with the new faces (its Push button, or /push faces:)."
)
BOT_ROLLED = N_("This roll was rolled by the bot: push it without faces.")


def modal_custom_id(roll_id: int, pushes_made: int) -> str:
    return f"rk:yz:pushfaces:{roll_id}:{pushes_made}"


def push_faces_modal(stored: YearZeroRoll, latest: YzRoll, speech: Speech) -> discord.ui.Modal:
    """The modal asking for the new faces of the dice the roll's next push rerolls, stopped: its submission goes to
    the cog's listener (PUSH_FACES_PATTERN), not to this object."""
    modal = discord.ui.Modal(title=clip(speech._(MODAL_TITLE), TITLE),
                             custom_id=modal_custom_id(stored.id, stored.pushes_made))
    rerolled = [latest.dice[index] for index in latest.reroll_indices]
    dice = rerolled_dice(rerolled, speech)
    # Translators: the form's input label (keep it short): how many faces, then the dice rerolled ("Base ×3, Gear").
    label = speech.ngettext("{count} face: {dice}", "{count} faces: {dice}", len(rerolled), dice=dice)
    modal.add_item(discord.ui.TextInput(
        label=clip(label, LABEL), custom_id=FACES_INPUT, placeholder=clip(speech._(INPUT_HINT), PLACEHOLDER),
        min_length=1, max_length=200,
    ))
    modal.stop()
    return modal


def rerolled_dice(dice: list[Die], speech: Speech) -> str:
    """The dice a push rerolls, grouped in the card's order: "Base ×3, Gear ×2, d8, Pride"."""
    names = Counter(_name(die, speech) for die in dice)
    return ", ".join(name if count == 1 else f"{name} ×{count}" for name, count in names.items())


def _name(die: Die, speech: Speech) -> str:
    if die.role is Role.BASE:
        return speech.pgettext("dice group", "Base")
    if die.role is Role.GEAR:
        return speech.pgettext("dice group", "Gear")
    return speech._(PRIDE_NAME) if die.role is Role.PRIDE else f"d{die.sides}"


def submitted(interaction: discord.Interaction) -> tuple[int, int, str] | None:
    """For a submission of a push-faces modal: the roll, the pushes it had made when the modal opened, and the
    faces typed; None for any other interaction."""
    data: dict[str, Any] = dict(interaction.data or {}) if interaction.type is discord.InteractionType.modal_submit \
        else {}
    match = PUSH_FACES_PATTERN.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return None
    return int(match["roll"]), int(match["made"]), _typed(data.get("components"))


def _typed(components: object) -> str:
    """The text typed into the faces input, wherever the submission nests it (an action row, or a label); "" when
    there is none (a crafted submission: the faces are then refused as missing)."""
    for component in components if isinstance(components, list) else ():
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == FACES_INPUT:
            return str(component.get("value") or "")
        found = _typed(component.get("components")) or _typed([component.get("component")])
        if found:
            return found
    return ""

