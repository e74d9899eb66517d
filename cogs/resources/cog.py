"""/resource roll|show|set: each player's Forbidden Lands resource dice (RULES.md section 7) where they play, kept
as Willpower is: each change once per interaction, stored with its roll-log entry before it is answered, and
withdrawn if the answer never reaches the player (bot.interactions.answers)."""

from __future__ import annotations

from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import PlayerError
from bot.interactions.acknowledging import in_time
from bot.interactions.answers import answer_or_withdraw
from bot.interactions.by_hand import Faces, by_hand
from bot.interactions.common_options import Player, describe, picker_label
from bot.interactions.language import player_speech, table_speech
from bot.interactions.logbook import Rolled, new_entry
from bot.interactions.places import anywhere, game_master, may_see_others, place_channel
from bot.interactions.rollkeeper import Rollkeeper
from bot.storage.resources import Key, RatingChange, ResourceRatings
from bot.text import player_name
from cogs.resources.card import DIE, NO_DIE, RESOURCE_NAMES, rating_text, render_resource
from rules.dice import DiceSource, FixedDice, SystemDice, rolled_with
from rules.errors import Term
from rules.language import N_, Speech
from rules.yearzero.resources import NONE, RATINGS, Resource, ResourceRoll, resource_events, roll_resource

SYSTEM = "resources"
"""The roll log's system of a resource roll (/stats counts it apart: its luck is keeping the die)."""
RESOURCE_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=name, value=resource.value) for resource, name in RESOURCE_NAMES.items()
]
RATING_OF = {f"d{rating}" if rating else "none": rating for rating in RATINGS}
"""The rating each choice of /resource set stands for (a choice's value is text: Discord bounds every number)."""
RATING_CHOICES: list[app_commands.Choice[str]] = [
    app_commands.Choice(name=picker_label(DIE, sides=rating) if rating else NO_DIE, value=value)
    for value, rating in RATING_OF.items()
]
ONLY_YOUR_OWN = N_("You can see and set only your own resources; a game master (Manage Server) can see and set "
                   "anyone's.")
CHANGED_MEANWHILE = N_("Your {resource} changed meanwhile, so nothing was done. Try again.")
# Translators: an option description (at most 100 characters).
FACES = N_("The die rolled by hand: its one face (1 up to the die's sides)")


def _whose(
    interaction: discord.Interaction, player: discord.abc.User | None, *, to_see: bool = False
) -> discord.abc.User:
    """The player named (else the one asking), if the one asking may: anyone's for a game master in a server; in a
    DM or a group DM anyone may see anyone's (places.may_see_others) but set only their own."""
    who = player or interaction.user
    allowed = may_see_others(interaction) if to_see else game_master(interaction)
    if who.id != interaction.user.id and not allowed:
        raise PlayerError(ONLY_YOUR_OWN)
    return who


@anywhere
class ResourceCommands(
    commands.GroupCog, group_name="resource",
    # Translators: a command description (at most 100 characters): the /resource group of commands.
    group_description=N_("Forbidden Lands resource dice: Food, Water, Arrows and Torches."),
):
    """Forbidden Lands resource dice: Food, Water, Arrows and Torches."""

    def __init__(self, bot: Rollkeeper, dice: DiceSource | None = None) -> None:
        self.bot = bot
        self.dice: DiceSource = dice or SystemDice()
        super().__init__()

    @property
    def _ratings(self) -> ResourceRatings:
        return self.bot.db.resources

    @app_commands.command(name="roll", description=N_("Roll a resource die: on 1 or 2 it steps down one size."))
    @app_commands.choices(resource=RESOURCE_CHOICES)
    @describe(resource=N_("The resource used: Food, Water, Arrows or Torches."), faces=FACES)
    async def roll(self, interaction: discord.Interaction, resource: str, faces: Faces | None = None) -> None:
        """Roll a resource die: on 1 or 2 it steps down one size."""
        key = (place_channel(interaction)[0], interaction.user.id, resource)
        speech = await table_speech(interaction, self.bot.db.languages)
        # The rating's read and the change's write both count in the budget before "thinking..." is shown.
        made, card, stored = await in_time(interaction, self._roll_and_store(interaction, key, speech, faces))
        if stored is None:
            raise PlayerError(CHANGED_MEANWHILE, resource=Term(RESOURCE_NAMES[made.resource]))
        if (stored.before, stored.face) != (made.before, made.die.face):  # a repeat: the first roll's card
            card, _ = _card(_again(made.resource, stored), speech, faces)
        withdrawal = partial(self._ratings.withdraw, key, stored, interaction_id=interaction.id)
        await answer_or_withdraw(interaction, "/resource roll", withdrawal, embed=card)

    async def _roll_and_store(
        self, interaction: discord.Interaction, key: Key, speech: Speech, faces: str | None
    ) -> tuple[ResourceRoll, discord.Embed, RatingChange | None]:
        """The roll of the player's rated die (or of the faces typed), its card, and the change stored once with its
        log entry (None: the rating changed since it was read). A resource rated none is refused. (A repeat
        delivery of the roll that used it up is refused too, after the first delivery's answer: the tree leaves
        that answer standing, as for a Willpower spend.)"""
        resource = Resource(key[2])
        rating = (await self._ratings.ratings(*key[:2])).get(resource.value, NONE)
        made = rolled_with(faces, self.dice, lambda dice: roll_resource(resource, rating, dice))
        card, rolled = _card(made, speech, faces)
        change = RatingChange(made.before, made.after, made.die.face)
        log = new_entry(interaction, card, rolled, private=False)
        return made, card, await self._ratings.change(key, change, self.bot.now(), interaction_id=interaction.id,
                                                      log=log)

    async def _set(self, key: Key, rating: int, interaction_id: int) -> RatingChange | None:
        """The rating set from what it is now, once (None: it changed since it was read)."""
        before = (await self._ratings.ratings(*key[:2])).get(key[2], NONE)
        return await self._ratings.change(key, RatingChange(before, rating), self.bot.now(),
                                          interaction_id=interaction_id)

    @app_commands.command(name="show", description=N_("See your resource dice (a game master may see anyone's)."))
    @describe(player=N_("Whose resource dice to see (game masters only; default yourself)."))
    async def show(self, interaction: discord.Interaction, player: Player | None = None) -> None:
        """See your resource dice (a game master may see anyone's)."""
        who = _whose(interaction, player, to_see=True)
        ratings = await self._ratings.ratings(place_channel(interaction)[0], who.id)
        speech = player_speech(interaction)
        listed = " · ".join(f"{speech._(name)} **{rating_text(ratings.get(resource.value, NONE), speech)}**"
                            for resource, name in RESOURCE_NAMES.items())
        if who.id == interaction.user.id:
            text = speech._("Your resource dice: {ratings}.", ratings=listed)
        else:
            text = speech._("{name}'s resource dice: {ratings}.", name=player_name(who), ratings=listed)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="set", description=N_("Set a resource die, yours (a game master may set anyone's).")
    )
    @app_commands.choices(resource=RESOURCE_CHOICES)
    @app_commands.choices(rating=RATING_CHOICES)
    @describe(resource=N_("The resource: Food, Water, Arrows or Torches."),
              rating=N_("Its new die, D6 to D12, or none."),
              player=N_("Whose resource to set (game masters only; default yourself)."))
    async def set_rating(
        self, interaction: discord.Interaction, resource: str, rating: str, player: Player | None = None
    ) -> None:
        """Set a resource die, yours (a game master may set anyone's)."""
        who = _whose(interaction, player)
        key = (place_channel(interaction)[0], who.id, resource)
        stored = await in_time(interaction, self._set(key, RATING_OF[rating], interaction.id))
        if stored is None:
            raise PlayerError(CHANGED_MEANWHILE, resource=Term(RESOURCE_NAMES[Resource(resource)]))
        speech = await table_speech(interaction, self.bot.db.languages)
        text = _set_text(speech, interaction, who, RESOURCE_NAMES[Resource(resource)], stored)
        withdrawal = partial(self._ratings.withdraw, key, stored, interaction_id=interaction.id)
        await answer_or_withdraw(interaction, "/resource set", withdrawal, content=text)


def _again(resource: Resource, change: RatingChange) -> ResourceRoll:
    """The roll a stored change records, made again from its face (a repeat delivery shows the first roll)."""
    return roll_resource(resource, change.before, FixedDice([change.face or 0]))


def _card(made: ResourceRoll, speech: Speech, faces: str | None) -> tuple[discord.Embed, Rolled]:
    """The roll's card and its log entry (a luck event: keeping the die), both marked when rolled by hand."""
    rolled = Rolled(SYSTEM, made.resource.value, resource_events(made), {"before": made.before, "after": made.after})
    return by_hand(render_resource(made, made.chance_to_step_down, speech=speech), rolled, speech, faces)


def _set_text(speech: Speech, interaction: discord.Interaction, who: discord.abc.User, name: str,
              change: RatingChange) -> str:
    values = {"player": who.mention, "resource": speech._(name), "after": rating_text(change.after, speech),
              "before": rating_text(change.before, speech)}
    if who.id == interaction.user.id:
        # Translators: {player} is a mention of the player; {resource} Food, Water, ...; {after} and {before} dice.
        return speech._("{player}'s {resource} is now **{after}** (was {before}).", **values)
    # Translators: as above; {gm} is a mention of the game master who set it.
    return speech._("{player}'s {resource} is now **{after}** (was {before}), set by {gm}.",
                    gm=interaction.user.mention, **values)


async def setup(bot: Rollkeeper) -> None:
    await bot.add_cog(ResourceCommands(bot))
