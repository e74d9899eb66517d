"""Year Zero (Forbidden Lands): /yz rolls, the Push and Keep buttons and /push.

A pushable roll is stored before it is shown; its buttons' custom_ids name the stored roll (``rk:yz:push:<id>``,
``rk:yz:keep:<id>``), so they work after a restart. What a push or a keep does, each at most once whatever arrives
at once, is in pushing.py beside this module. When a roll stops being pushable, its message says so and loses its
buttons (endings.py; before each purge, the cog has the bot mark expiring rolls so; superseded rolls' edits are
coalesced per channel: superseding.py); a click on a message whose edit failed, or was left out, repairs it.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import PlayerError
from bot.interactions import logbook
from bot.interactions.acknowledging import in_time
from bot.interactions.answers import withdraw
from bot.interactions.by_hand import YZ_FACES, Faces, mark_log
from bot.interactions.common_options import Note, describe
from bot.interactions.language import answer_speech
from bot.interactions.logbook import Rolled
from bot.interactions.places import anywhere, bot_present, place_channel
from bot.interactions.roller import only_its_roller
from bot.interactions.rollkeeper import Rollkeeper, rollkeeper
from bot.interactions.tree import reports_errors
from bot.render.by_hand import mark_card
from bot.storage.database import Storage
from bot.storage.roll_records import PushRefusal, RollState, YearZeroRoll
from cogs.yearzero.by_hand import submitted
from cogs.yearzero.card import FirstRollOdds, render_first
from cogs.yearzero.endings import (
    REFUSED,
    check_same_push,
    is_by_hand,
    mark_expiring,
    payload_speech,
    read_payload,
    stored_payload,
)
from cogs.yearzero.pushing import CHECKED_ROLL, RollPushes
from cogs.yearzero.superseding import SupersededCards
from rules.dice import DiceSource, SystemDice, rolled_with
from rules.language import N_, Speech
from rules.yearzero.luck_events import yearzero_first_events
from rules.yearzero.odds import YzOdds, odds_after_first, pool_odds
from rules.yearzero.roll import YzRoll, roll_yz

PUSH_PATTERN = re.compile(r"rk:yz:push:(?P<roll>[0-9]{1,19})")
KEEP_PATTERN = re.compile(r"rk:yz:keep:(?P<roll>[0-9]{1,19})")
# Translators: an option description (at most 100 characters).
PUSH_FACES = N_("A roll made by hand: the rerolled dice's new faces, in the card's order (e.g. 6 3 1)")
NO_ROLL_TO_PUSH = N_(
    "You have no roll to push in this channel: roll with /yz first (a roll stays pushable for a while)."
)

Artifact = Literal["d8", "d10", "d12"]


def custom_id(action: Literal["push", "keep"], roll_id: int) -> str:
    """The custom_id of a roll's Push or Keep button: PUSH_PATTERN or KEEP_PATTERN with the roll's id."""
    return f"rk:yz:{action}:{roll_id}"


def push_view(roll_id: int, speech: Speech) -> discord.ui.View:
    """The Push and Keep buttons of a roll, to send with its message.

    Clicks are taken by the DynamicItems registered when the cog loads (whatever process or restart sent the
    message), so the view is stopped at once: discord.py keeps no listener for it."""
    view = discord.ui.View(timeout=None)
    for button in push_buttons(roll_id, speech):
        view.add_item(button)
    view.stop()
    return view


def push_buttons(roll_id: int, speech: Speech) -> list[discord.ui.Item[Any]]:
    """A pushable roll's own buttons: Push and Keep (bot.interactions.logbook adds Reveal to a private roll's)."""
    # Translators: button labels (at most 80 characters): push the roll (Forbidden Lands), or keep it as it lies.
    return [PushButton(roll_id, speech._("Push")), KeepButton(roll_id, speech._("Keep"))]


async def roller_only(interaction: discord.Interaction, roll_id: int) -> bool:
    """Refuse anyone but the roll's roller, answering them privately (or they see "interaction failed"). The roll
    read is kept for the click's callback (pushing.checked_roll): one read per click."""

    async def read(db: Storage) -> YearZeroRoll | None:
        interaction.extras[CHECKED_ROLL] = roll = await db.rolls.get(roll_id)
        return roll

    return await only_its_roller(interaction, read, REFUSED[PushRefusal.NOT_YOURS])


def _cog(interaction: discord.Interaction) -> YearZero:
    cog = rollkeeper(interaction).get_cog(YearZero.__cog_name__)
    if not isinstance(cog, YearZero):
        raise RuntimeError("the Year Zero cog is not loaded, yet its button was clicked")
    return cog


class PushButton(discord.ui.DynamicItem[discord.ui.Button], template=PUSH_PATTERN):
    """The Push button of one stored roll: only its roller may press it, and each push once."""

    pattern = PUSH_PATTERN
    """The template again, for the bot to tell clicks it takes from stale ones (see RollkeeperBot)."""

    def __init__(self, roll_id: int, label: str = "Push") -> None:
        style = discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label, emoji="🎲", style=style, custom_id=custom_id("push", roll_id)))
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> PushButton:
        return cls(int(match["roll"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await roller_only(interaction, self.roll_id)

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)  # a roll made by hand asks for the new faces in a modal instead (pushing.py)
        await cog.pushes.push(interaction, self.roll_id, cog.dice, edit_in_place=True)


class KeepButton(discord.ui.DynamicItem[discord.ui.Button], template=KEEP_PATTERN):
    """The Keep button of one stored roll: its roller accepts the roll as it lies, and it can no longer be pushed."""

    pattern = KEEP_PATTERN

    def __init__(self, roll_id: int, label: str = "Keep") -> None:
        style = discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, emoji="✋", style=style, custom_id=custom_id("keep", roll_id)))
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> KeepButton:
        return cls(int(match["roll"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await roller_only(interaction, self.roll_id)

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).pushes.keep(interaction, self.roll_id)


class YearZero(commands.Cog):
    """Year Zero Engine rolls, Forbidden Lands flavour."""

    def __init__(self, bot: Rollkeeper, dice: DiceSource | None = None) -> None:
        self.bot = bot
        self.dice: DiceSource = dice or SystemDice()
        self.pushes = RollPushes(bot, push_buttons)
        self.superseded = SupersededCards(bot)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PushButton, KeepButton)
        self.bot.add_purge_hook(self.mark_expiring)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PushButton, KeepButton)
        self.bot.remove_purge_hook(self.mark_expiring)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Take the submission of a push-faces modal (by_hand.py), whatever process opened it."""
        typed = submitted(interaction)
        if typed is not None:
            await self._push_typed(interaction, *typed)

    @reports_errors
    async def _push_typed(self, interaction: discord.Interaction, roll_id: int, pushes_made: int, faces: str) -> None:
        """Push a roll made by hand with the faces its roller typed in the modal, if no push was made since."""
        if await roller_only(interaction, roll_id):
            check_same_push(interaction.extras.get(CHECKED_ROLL), pushes_made)  # the roll roller_only read
            await self.pushes.push(interaction, roll_id, self.dice, edit_in_place=True, faces=faces)

    async def mark_expiring(self) -> int:
        """Before a purge: mark the messages of a few rolls that expired while pushable (endings.mark_expiring)."""
        return await mark_expiring(self.bot)

    @app_commands.command(
        name="yz", description=N_("Roll Attribute + Skill base dice, gear dice, Artifact Dice and Pride; push or keep")
    )
    @anywhere
    @describe(
        "private", "note",
        attribute=N_("The Attribute's current score: that many base dice (0-10)."),
        skill=N_("The Skill level: that many more base dice (0-10; default 0, untrained)."),
        gear=N_("The gear bonus: that many gear dice (0-10)."),
        artifact=N_("An Artifact Die: d8 Mighty, d10 Epic, d12 Legendary."),
        artifact2=N_("A second Artifact Die."),
        artifact3=N_("A third Artifact Die."),
        pride=N_("Add your Pride die (a d12 read like an Artifact Die)."),
        pushes=N_("How many times this roll may be pushed (0-3; 1 unless a talent or the GM says otherwise)."),
        faces=YZ_FACES,
    )
    async def yz(
        self,
        interaction: discord.Interaction,
        attribute: app_commands.Range[int, 0, 10],
        skill: app_commands.Range[int, 0, 10] = 0,
        gear: app_commands.Range[int, 0, 10] = 0,
        artifact: Artifact | None = None,
        artifact2: Artifact | None = None,
        artifact3: Artifact | None = None,
        pride: bool = False,
        pushes: app_commands.Range[int, 0, 3] = 1,
        private: bool = False,
        note: Note | None = None,
        faces: Faces | None = None,
    ) -> None:
        """Roll Attribute + Skill base dice, gear dice, Artifact Dice and Pride; push or keep with the buttons."""
        artifacts = tuple(a for a in (artifact, artifact2, artifact3) if a)
        roll = rolled_with(
            faces, self.dice, lambda dice: roll_yz(attribute, skill, gear, artifacts, dice, pride=pride, pushes=pushes)
        )
        hand = faces is not None
        place_channel(interaction)  # a roll is stored under its place's channel: refused where Discord named none
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        if roll.can_push:
            await self._store_and_show(interaction, roll, pushes, note, private, speech, hand)
        else:
            await self._show_unpushable(interaction, roll, note, private, speech, hand)

    async def _show_unpushable(
        self, interaction: discord.Interaction, roll: YzRoll, note: str | None, private: bool, speech: Speech,
        hand: bool,
    ) -> None:
        """A roll without pushes is only shown and logged; once shown, it ends the roller's pushable rolls here. A
        repeat delivery finds the interaction answered (the first shows and logs its own dice: these would differ)
        and shows nothing."""
        embed, rolled = _first_card(interaction, roll, note, speech, hand), yearzero_rolled(roll, pool_odds(roll), hand)
        await logbook.answer_roll(interaction, embed, rolled, private=private, speech=speech)
        where = (*place_channel(interaction), interaction.user.id)
        for older in await self.bot.db.rolls.supersede(*where, interaction_id=interaction.id):
            await self.superseded.mark(older)

    async def _store_and_show(
        self, interaction: discord.Interaction, roll: YzRoll, pushes: int, note: str | None, private: bool,
        speech: Speech, hand: bool,
    ) -> None:
        """A pushable roll (`pushes` allowed) is stored with its log entry (one transaction, once per interaction,
        which also finds the roller's older roll here), then shown with Push and Keep; once shown, the older roll's
        message says it ended. A repeat shows what the first stored. `hand`: its dice were rolled by hand."""
        guild_id, channel_id = place_channel(interaction)
        where = (guild_id, channel_id, interaction.user.id)
        payload = stored_payload(roll, note, private, speech, by_hand=hand, botless=not bot_present(interaction))
        embed, rolled = _first_card(interaction, roll, note, speech, hand), yearzero_rolled(roll, pool_odds(roll), hand)
        entry = logbook.new_entry(interaction, embed, rolled, private)
        rolls, now = self.bot.db.rolls, self.bot.now()
        storing = rolls.create_superseding(interaction.id, *where, payload, now, pushes, log=entry)  # one trip
        stored, replaced = await in_time(interaction, storing, ephemeral=private)
        if stored.state is not RollState.PENDING or stored.pushes_made:  # a repeat after the roll moved on
            return
        if stored.payload != payload:  # a repeated interaction shows the roll the first one stored
            roll, note, private = read_payload(stored)
            speech, hand = payload_speech(stored), is_by_hand(stored)
            embed = _first_card(interaction, roll, note, speech, hand)
            rolled = yearzero_rolled(roll, pool_odds(roll), hand)
        answer = await logbook.deliver_roll(  # with Reveal when private
            interaction, embed, rolled, private=private, speech=speech, entry_id=stored.id, buttons=push_buttons,
            logged=True,
        )
        if answer is None:  # never shown: it must not supersede the roll the player does see
            await withdraw(interaction, "/yz", lambda: self.bot.db.rolls.withdraw(stored.id), ephemeral=private)
            return
        # Best effort, written with others a moment later: only the message edits need it.
        self.bot.db.rolls.messages.note(stored.id, channel_id, answer.id)
        self.bot.webhooks.remember(interaction, answer.id)  # where the bot is absent, only this token may edit it
        if replaced is not None:
            await self.superseded.mark(replaced)

    @app_commands.command(
        name="push",
        description=N_("Push your latest Year Zero roll in this channel: reroll every die that shows neither 6 nor 1"),
    )
    @anywhere
    @describe(faces=PUSH_FACES)
    async def push_latest(self, interaction: discord.Interaction, faces: Faces | None = None) -> None:
        """Push your latest Year Zero roll in this channel: reroll every die that shows neither 6 nor 1."""
        guild_id, channel_id = place_channel(interaction)
        stored = await self.bot.db.rolls.latest_pending(
            guild_id, channel_id, interaction.user.id, self.bot.now(), self.bot.settings.push_lifetime
        )
        if stored is None:
            raise PlayerError(NO_ROLL_TO_PUSH)
        await self.pushes.push(interaction, stored.id, self.dice, edit_in_place=False, faces=faces)


def _first_card(
    interaction: discord.Interaction, roll: YzRoll, note: str | None, speech: Speech, hand: bool = False
) -> discord.Embed:
    """The card of a first roll; `hand`: it says the dice were rolled by hand."""
    odds = FirstRollOdds(pool_odds(roll), odds_after_first(roll))
    card = render_first(roll, odds, speech=speech, roller=interaction.user, note=note)
    return mark_card(card, speech) if hand else card


def yearzero_rolled(roll: YzRoll, odds: YzOdds, hand: bool = False) -> Rolled:
    """What the log keeps of a Year Zero first roll: its event; no push, no Willpower, no bane taken yet; flagged
    when its dice were rolled by hand."""
    extras = {"pushes": 0, "willpower": 0, "banes": 0}
    rolled = Rolled("yearzero", "roll", yearzero_first_events(roll, odds), extras)
    return mark_log(rolled) if hand else rolled


async def setup(bot: Rollkeeper) -> None:
    await bot.add_cog(YearZero(bot))
