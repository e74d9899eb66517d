"""Pushing and keeping a stored Year Zero roll, for its roller: what the Push and Keep buttons and /push do
(cogs/yearzero/cog.py holds the buttons and the commands).

Each push is claimed with one atomic statement (a compare-and-set on the pushes made) together with the Willpower
gain, so the Nth push of a roll happens at most once whatever arrives at once. A click on a message that no longer
shows what is stored is answered by bringing it back to the stored roll (cogs/yearzero/endings.py).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.errors import PlayerError
from bot.interactions import logbook
from bot.interactions.acknowledging import in_time
from bot.interactions.answers import answer
from bot.interactions.logbook import Rolled
from bot.interactions.private_rolls import Buttons, roll_view
from bot.interactions.rollkeeper import Rollkeeper
from bot.render.by_hand import mark_card
from bot.storage.roll_records import PushRefusal, RollState, YearZeroRoll, push_subject, refusal_of
from bot.storage.rolls import PushClaim
from bot.storage.willpower import WillpowerChange
from cogs.yearzero.by_hand import BOT_ROLLED, HAND_ROLLED, push_faces_modal
from cogs.yearzero.card import PushedRoll, render_pushed
from cogs.yearzero.endings import (
    REFUSED,
    Ending,
    is_by_hand,
    is_private,
    mark_ended,
    payload_speech,
    pushed_payload,
    read_payload,
    refuse_or_repair,
    repair,
    show_ended,
    show_pushed_in_place,
    shown_elsewhere,
)
from rules.dice import DiceSource, rolled_with
from rules.yearzero.luck_events import yearzero_push_events
from rules.yearzero.odds import pool_odds
from rules.yearzero.roll import YzRoll, push

CHECKED_ROLL = "rollkeeper.yz.checked_roll"
"""Key in `interaction.extras`: the roll a button's roller check read (cog.roller_only), read again by nothing."""

_PUSHED_SINCE = {PushRefusal.ALREADY_PUSHED, PushRefusal.NO_PUSHES_LEFT, PushRefusal.PUSHED_MEANWHILE}
"""Refusals of a roller's push because another push of theirs was claimed: they are shown that push instead."""


class RollPushes:
    """Pushes and keeps of the rolls the bot stored; `buttons` gives a roll's Push and Keep buttons."""

    def __init__(self, bot: Rollkeeper, buttons: Buttons) -> None:
        self.bot = bot
        self.buttons = buttons

    async def push(
        self, interaction: discord.Interaction, roll_id: int, dice: DiceSource, *, edit_in_place: bool,
        faces: str | None = None,
    ) -> None:
        """Push a stored roll for the interaction's user: claim the next push atomically, then show it in the first
        callback (a click: its message updated; /push: a new message, the roll's old one then marked as pushed). With
        `faces`, the rerolled dice show the faces the player typed (a roll made by hand)."""
        stored = await self._pushable(interaction, roll_id)
        if stored is None:
            return
        if is_by_hand(stored) != (faces is not None):
            return await self._ask_faces(interaction, stored, faces)
        latest, note, private = read_payload(stored)
        pushed = rolled_with(faces, dice, lambda source: push(latest, source))  # wrong faces: refused, nothing stored
        claim = await self._claim(interaction, stored, pushed, private)
        if claim is None or claim.roll is None or claim.willpower is None:
            return
        embed, pushes_left = pushed_answer(interaction, claim.roll, claim.willpower)  # as stored (a repeat: first's)
        speech = payload_speech(claim.roll)
        view = roll_view(roll_id, private, speech, self.buttons if pushes_left else None)  # Reveal if private
        what = f"push of roll {roll_id}"
        if edit_in_place:  # not shown: its roller's next click on the message shows it
            updated = await answer(interaction, what, embed=embed, view=view)
            if updated is not None:  # where the bot is absent, the click's token may edit it for 15 minutes more
                self.bot.webhooks.remember(interaction, updated.id)
        else:
            shown = await answer(interaction, what, ephemeral=private, embed=embed, **_with(view))
            if shown is None:  # shown on the roll's own message instead, or on its roller's next click there
                await show_pushed_in_place(self.bot, stored, embed, view)
            else:  # the roll now shows in the answer
                self.bot.db.rolls.messages.note(roll_id, stored.channel_id, shown.id)
                self.bot.webhooks.remember(interaction, shown.id)
                await mark_ended(self.bot, stored, Ending.PUSHED, shown.id)
        logged = yearzero_push_rolled(latest, pushed, claim.willpower.gained)
        await logbook.record_push(interaction, roll_id, claim.roll.pushes_made, embed, logged, private)  # once answered

    async def keep(self, interaction: discord.Interaction, roll_id: int) -> None:
        """Keep a stored roll for its roller: it can no longer be pushed; its message says so, without buttons."""
        stored = await self._stored(interaction, roll_id)
        if stored is None:
            return
        lifetime = self.bot.settings.push_lifetime
        keeping = self.bot.db.rolls.keep(roll_id, interaction.user.id, self.bot.now(), lifetime)
        claim = await in_time(interaction, keeping)
        if claim.refusal is not None:
            return await refuse_or_repair(interaction, claim.refusal, stored)
        await show_ended(interaction, Ending.KEPT, stored)

    async def _ask_faces(self, interaction: discord.Interaction, stored: YearZeroRoll, faces: str | None) -> None:
        """A roll made by hand is pushed with the faces its player types, and only it: its Push button asks for them
        in a modal (by_hand.py); /push without them, or faces for a roll the bot rolled, is refused."""
        if faces is not None:
            raise PlayerError(BOT_ROLLED)
        if interaction.type is not discord.InteractionType.component:
            raise PlayerError(HAND_ROLLED)
        latest, _, _ = read_payload(stored)
        await interaction.response.send_modal(push_faces_modal(stored, latest, payload_speech(stored)))

    async def _pushable(self, interaction: discord.Interaction, roll_id: int) -> YearZeroRoll | None:
        """The stored roll, if it may still be pushed from this message; else refused (or None once repaired, or
        once the roller's click was shown the push that is stored)."""
        stored = await self._stored(interaction, roll_id)
        if stored is None:
            return None
        if shown_elsewhere(interaction, stored):
            await refuse_or_repair(interaction, PushRefusal.PUSHED_MEANWHILE, stored)
            return None
        lifetime = self.bot.settings.push_lifetime
        if stored.state is not RollState.PENDING or self.bot.now() > stored.created_at + lifetime:  # ended: say why
            if stored.state is RollState.PUSHED and await self._show_stored_push(interaction, stored):
                return None
            await refuse_or_repair(interaction, refusal_of(stored, self.bot.now(), lifetime), stored)
            return None
        return stored

    async def _claim(
        self, interaction: discord.Interaction, stored: YearZeroRoll, pushed: YzRoll, private: bool
    ) -> PushClaim | None:
        """Claim the push that made `pushed` (the roll's next one), once per interaction; None once refused (or the
        roller's click that lost a race was shown the push that won)."""
        claiming = self.bot.db.rolls.claim_push(
            stored.id, interaction.user.id, pushed_payload(pushed), pushed.new_base_banes, self.bot.now(),
            self.bot.settings.push_lifetime, pushes_made=stored.pushes_made, last=not pushed.can_push,
            interaction_id=interaction.id,
        )
        claim = await in_time(interaction, claiming, ephemeral=private)
        if claim.refusal is None:
            return claim
        if claim.roll is not None and claim.refusal in _PUSHED_SINCE and await self._show_stored_push(
            interaction, claim.roll
        ):
            return None
        await refuse_or_repair(interaction, claim.refusal, stored)
        return None

    async def _show_stored_push(self, interaction: discord.Interaction, roll: YearZeroRoll) -> bool:
        """Show the roller, on the message they clicked, the roll as its latest push left it (that push's answer did
        not arrive, or they lost a race to it): what they see converges to what is stored. False when this is no
        click on the roll's own message, or the push is older than what the store remembers of it."""
        if interaction.type is not discord.InteractionType.component or shown_elsewhere(interaction, roll):
            return False
        outcome = await self.bot.db.applied.latest_for(push_subject(roll.id))
        if outcome is None or roll.pushed_payload is None:
            return False
        embed, pushes_left = pushed_answer(interaction, roll, WillpowerChange(**outcome["willpower"]))
        view = roll_view(roll.id, is_private(roll), payload_speech(roll), self.buttons if pushes_left else None)
        await answer(interaction, f"push of roll {roll.id}", embed=embed, view=view)  # Reveal too
        return True

    async def _stored(self, interaction: discord.Interaction, roll_id: int) -> YearZeroRoll | None:
        """The stored roll a button or /push names. A purged one is refused, or None when the click on its message
        was answered by repairing the message."""
        rolls = self.bot.db.rolls
        checked = interaction.extras.pop(CHECKED_ROLL, None)
        stored = checked if isinstance(checked, YearZeroRoll) and checked.id == roll_id else await rolls.get(roll_id)
        if stored is not None:
            return stored
        refusal = await rolls.refusal_for_missing(roll_id)
        if refusal is PushRefusal.EXPIRED and await repair(interaction, Ending.EXPIRED):
            return None
        raise PlayerError(REFUSED[refusal])


def pushed_answer(
    interaction: discord.Interaction, roll: YearZeroRoll, change: WillpowerChange
) -> tuple[discord.Embed, bool]:
    """The card of a roll as its latest stored push left it, and whether it still offers a push (its buttons)."""
    latest, note, _ = read_payload(roll)
    result = PushedRoll(latest, change.after, change.lost)
    speech = payload_speech(roll)
    embed = render_pushed(result, pool_odds(latest), speech=speech, roller=interaction.user, note=note)
    if is_by_hand(roll):
        embed = mark_card(embed, speech)
    return embed, roll.state is RollState.PENDING and latest.can_push


def _with(view: discord.ui.View | None) -> dict[str, Any]:
    return {"view": view} if view is not None else {}


def yearzero_push_rolled(first: YzRoll, pushed: YzRoll, willpower_gained: int) -> Rolled:
    """What the log keeps of a Year Zero push: its event (when the roll had no success yet), the Willpower it gained
    and the banes showing after it (the log adds the push and the Willpower to the roll's, and keeps the latest
    banes)."""
    extras = {"willpower": willpower_gained, "banes": pushed.base_banes + pushed.gear_banes}
    return Rolled("yearzero", "roll", yearzero_push_events(first, pushed), extras)
