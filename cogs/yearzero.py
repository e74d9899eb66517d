"""Year Zero (Forbidden Lands): /yz rolls, the Push button and /push.

A pushable roll is stored in SQLite before it is shown; its Push button's custom_id names the stored roll
(``rk:yz:push:<id>``), so the button works after a restart. The push itself is claimed with one atomic SQL
statement together with the Willpower gain, so a roll is pushed at most once whatever arrives at once.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import BotInteraction, RollkeeperBot, the_bot
from bot.errors import PlayerError
from bot.render.yearzero import FirstRollOdds, PushedRoll, render_first, render_pushed
from bot.shared_options import Note, describe
from bot.storage import PushRefusal, YearZeroRoll
from bot.tree import report_error, reports_errors, send_private, server_channel
from rules.dice import DiceSource, SystemDice
from rules.yearzero import YzRoll, push, roll_yz
from rules.yearzero_odds import odds_after_first, odds_for_roll

_log = logging.getLogger(__name__)

PUSH_PATTERN = re.compile(r"rk:yz:push:(?P<roll>[0-9]{1,19})")
NO_ROLL_TO_PUSH = "You have no roll to push in this channel: roll with /yz first (a roll stays pushable for a while)."

Artifact = Literal["d8", "d10", "d12"]


_COMPACT = json.JSONEncoder(separators=(",", ":"))
"""One encoder for every stored roll (json.dumps with options builds a new one per call)."""


def stored_payload(roll: YzRoll, note: str | None, private: bool) -> str:
    return _COMPACT.encode({"roll": roll.as_dict(), "note": note, "private": private})


def read_payload(stored: YearZeroRoll) -> tuple[YzRoll, str | None, bool]:
    data = json.loads(stored.payload)
    return YzRoll.from_dict(data["roll"]), data.get("note"), bool(data.get("private"))


def push_custom_id(roll_id: int) -> str:
    """The custom_id of a roll's Push button: PUSH_PATTERN with the roll's id."""
    return f"rk:yz:push:{roll_id}"


def push_view(roll_id: int) -> discord.ui.View:
    """The Push button of a roll, to send with its message.

    Clicks are taken by the PushButton DynamicItem registered when the cog loads (whatever process or restart
    sent the message), so the view is stopped at once: discord.py keeps no listener for it."""
    view = discord.ui.View(timeout=None)
    view.add_item(PushButton(roll_id))
    view.stop()
    return view


class PushButton(discord.ui.DynamicItem[discord.ui.Button], template=PUSH_PATTERN):
    """The Push button of one stored roll: only its roller may press it, and only once."""

    pattern = PUSH_PATTERN
    """The template again, for the bot to tell clicks it takes from stale ones (see RollkeeperBot)."""

    def __init__(self, roll_id: int) -> None:
        style = discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label="Push", emoji="🎲", style=style, custom_id=push_custom_id(roll_id)))
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> PushButton:
        return cls(int(match["roll"]))

    # discord.py types a button's interaction as Interaction[ClientT] for any client: an override may not narrow
    # it to BotInteraction, so these two ask for the bot by its type instead (`the_bot`).
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse anyone but the roller here, answering them privately (or they see "interaction failed")."""
        bot = the_bot(interaction)
        bot.hold_interaction()
        try:
            stored = await bot.db.rolls.get(self.roll_id)
        except Exception as error:  # a busy database, say: answered like every other failure
            await report_error(interaction, error)
            return False
        if stored is not None and stored.user_id != interaction.user.id:
            await send_private(interaction, PushRefusal.NOT_YOURS.message)
            return False
        return True

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        cog = the_bot(interaction).get_cog(YearZero.__cog_name__)
        if not isinstance(cog, YearZero):
            raise RuntimeError("the Year Zero cog is not loaded, yet its button was clicked")
        await cog.push_stored(interaction, self.roll_id, edit_in_place=True)


class YearZero(commands.Cog):
    """Year Zero Engine rolls, Forbidden Lands flavour."""

    def __init__(self, bot: RollkeeperBot, dice: DiceSource | None = None) -> None:
        self.bot = bot
        self.dice: DiceSource = dice or SystemDice()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PushButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PushButton)

    @app_commands.command(name="yz")
    @app_commands.guild_only()
    @describe(
        "private", "note",
        attribute="The Attribute's current score: that many base dice (0-10).",
        skill="The Skill level: that many more base dice (0-10; default 0, untrained).",
        gear="The gear bonus: that many gear dice (0-10).",
        artifact="An Artifact Die: d8 Mighty, d10 Epic, d12 Legendary.",
        artifact2="A second Artifact Die.",
        artifact3="A third Artifact Die.",
    )
    async def yz(
        self,
        interaction: BotInteraction,
        attribute: app_commands.Range[int, 0, 10],
        skill: app_commands.Range[int, 0, 10] = 0,
        gear: app_commands.Range[int, 0, 10] = 0,
        artifact: Artifact | None = None,
        artifact2: Artifact | None = None,
        artifact3: Artifact | None = None,
        private: bool = False,
        note: Note | None = None,
    ) -> None:
        """Roll Attribute + Skill base dice, gear dice and Artifact Dice; push with the button."""
        artifacts = tuple(a for a in (artifact, artifact2, artifact3) if a)
        roll = roll_yz(attribute, skill, gear, artifacts, self.dice)
        odds = FirstRollOdds(odds_for_roll(attribute + skill, gear, roll.artifacts), odds_after_first(roll))
        guild_id, channel_id = server_channel(interaction)
        where = (guild_id, channel_id, interaction.user.id)
        if roll.can_push:
            roll_id = await self.bot.db.rolls.create(*where, stored_payload(roll, note, private), self.bot.now())
        else:
            await self.bot.db.rolls.supersede(*where)
        embed = render_first(roll, odds, roller=interaction.user, note=note)
        if not roll.can_push:
            await interaction.response.send_message(embed=embed, ephemeral=private)
            return
        answer = await interaction.response.send_message(embed=embed, view=push_view(roll_id), ephemeral=private)
        if answer is not None and answer.message_id is not None:
            # Best effort, written with others a moment later: only /push needs it (to take the button off), and
            # a busy database here must not tell the player to try again - a new roll would supersede this one.
            self.bot.db.rolls.note_message(roll_id, channel_id, answer.message_id)

    @app_commands.command(name="push")
    @app_commands.guild_only()
    async def push_latest(self, interaction: BotInteraction) -> None:
        """Push your latest Year Zero roll in this channel: reroll every die that shows neither 6 nor 1."""
        guild_id, channel_id = server_channel(interaction)
        stored = await self.bot.db.rolls.latest_pending(
            guild_id, channel_id, interaction.user.id, self.bot.now(), self.bot.settings.push_lifetime
        )
        if stored is None:
            raise PlayerError(NO_ROLL_TO_PUSH)
        await self.push_stored(interaction, stored.id, edit_in_place=False)

    async def push_stored(self, interaction: discord.Interaction, roll_id: int, *, edit_in_place: bool) -> None:
        """Push a stored roll for the interaction's user: claim it atomically, then show the pushed roll."""
        rolls = self.bot.db.rolls
        stored = await rolls.get(roll_id)
        if stored is None:
            raise PlayerError((await rolls.refusal_for_missing(roll_id)).message)
        first, note, private = read_payload(stored)
        pushed = push(first, self.dice)
        claim = await rolls.claim_push(
            roll_id, interaction.user.id, _COMPACT.encode(pushed.as_dict()),
            pushed.willpower_gained, self.bot.now(), self.bot.settings.push_lifetime,
        )
        if claim.refusal is not None:
            raise PlayerError(claim.refusal.message)
        odds = odds_for_roll(first.attribute + first.skill, first.gear, first.artifacts)
        change = claim.willpower
        if change is None:
            raise RuntimeError(f"roll {roll_id} was claimed without its Willpower change")
        embed = render_pushed(PushedRoll(pushed, change.after, change.lost), odds, roller=interaction.user, note=note)
        if edit_in_place:
            await interaction.response.edit_message(embed=embed, view=None)
            return
        await interaction.response.send_message(embed=embed, ephemeral=private)
        if not private and stored.message_id is not None:
            await self._remove_button(stored, stored.message_id)

    async def _remove_button(self, stored: YearZeroRoll, message_id: int) -> None:
        """Take the Push button off the first roll's message once /push has pushed it (best effort)."""
        channel = self.bot.get_partial_messageable(stored.channel_id)
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as failure:
            _log.info("Could not remove the Push button of roll %s: %s", stored.id, failure)


async def setup(bot: RollkeeperBot) -> None:
    await bot.add_cog(YearZero(bot))
