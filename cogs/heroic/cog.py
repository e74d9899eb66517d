"""``/heroic``: a Heroic Roll, 2d6 (or d12, d20) + Skill against a Target Number.

The target is one of a named difficulty (``/heroic difficulty``), a TN (``/heroic tn``), or the opposing Skill
(``/heroic versus``): a sub-command each, so the one option it needs is marked required.
The cog rolls with ``rules.heroic``, takes the exact odds from
``rules.heroic_odds`` and answers with ``cogs.heroic.card``'s embed.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions.by_hand import HEROIC_FACES, Faces, by_hand
from bot.interactions.common_options import NOTE, PRIVATE, Descriptions, Note, picker_label
from bot.interactions.language import answer_speech
from bot.interactions.logbook import Rolled, answer_roll
from bot.interactions.places import both_installs, everywhere_contexts
from bot.interactions.rollkeeper import Rollkeeper
from cogs.heroic import card as render
from rules.dice import DiceSource, SystemDice, rolled_with
from rules.errors import Term
from rules.heroic.luck_events import heroic_events
from rules.heroic.odds import odds_for_heroic
from rules.heroic.roll import DAMAGE_MAX, SKILL_MAX, TN_MAX, TN_MIN, HeroicRoll, roll_heroic
from rules.heroic.tables import Difficulty, Kind, Variant
from rules.language import N_

Skill = app_commands.Range[int, 0, SKILL_MAX]
TargetNumber = app_commands.Range[int, TN_MIN, TN_MAX]
Damage = app_commands.Range[int, 0, DAMAGE_MAX]

KINDS = (Kind.TASK, Kind.ATTACK, Kind.BLOCK, Kind.PARRY, Kind.SHIELD_BLOCK, Kind.DODGE, Kind.RESIST_MAGIC,
         Kind.SPELL)


_KIND_LABELS = {
    # Translators: a choice label (at most 100 characters): what a Heroic Roll is for.
    Kind.TASK: N_("Task"), Kind.ATTACK: N_("Attack"), Kind.SPELL: N_("Spell"),
}


def _kind_label(kind: Kind) -> app_commands.locale_str:
    """'Reaction: Parry/Fend (Sword-Play)' for a reaction, 'Attack' for the others."""
    reaction = kind.reaction
    if reaction is None:
        return app_commands.locale_str(_KIND_LABELS[kind])
    if reaction.skill is None:
        return picker_label("Reaction: {name}", name=Term(reaction.name))
    # Translators: a choice label; {name} is a reaction (Block, Dodge, ...), {skill} the Skill it is rolled with.
    return picker_label("Reaction: {name} ({skill})", name=Term(reaction.name), skill=Term(reaction.skill))


DIFFICULTY_CHOICES = [
    # Translators: a choice label; {name} is a difficulty (Basic, ...), {tn} its Target Number with 2d6 or d12.
    app_commands.Choice(name=picker_label("{name} (TN {tn}, d20 {tn20})", name=Term(d.label), tn=d.tn(Variant.TWO_D6),
                                    tn20=d.tn(Variant.D20)), value=d.value)
    for d in Difficulty
]
DICE_CHOICES = [
    app_commands.Choice(name=picker_label("{dice} + Skill", dice=Variant.TWO_D6.value), value=Variant.TWO_D6.value),
    app_commands.Choice(name=picker_label("{dice} + Skill", dice=Variant.D12.value), value=Variant.D12.value),
    app_commands.Choice(name=picker_label("{dice} + Skill", dice=Variant.D20.value), value=Variant.D20.value),
]
KIND_CHOICES = [app_commands.Choice(name=_kind_label(kind), value=kind.value) for kind in KINDS]


SHARED = {
    "skill": N_("The Hero's Skill, 0-30"),
    "dice": N_("Which dice: 2d6 (default), d12 or d20"),
    "kind": N_("What the roll is for: it decides what a Crit or a Fumble means (default task)"),
    "damage": N_("The damage at stake, 0-9999, for an attack or a reaction: the doubled figure is shown"),
    "private": PRIVATE,
    "note": NOTE,
    "faces": HEROIC_FACES,
}
describe = Descriptions(SHARED)
OPTIONS = tuple(SHARED)
CHOICES = {"dice": DICE_CHOICES, "kind": KIND_CHOICES}


class Heroic(commands.Cog):
    """Heroic Rolls: Crits and Fumbles whatever the TN; a tie with the TN succeeds with a complication.

    One sub-command per way of giving the Target Number, each with that option required: Discord then shows
    the player what to fill in, instead of an error for giving none or two."""

    heroic_group = app_commands.Group(
        name="heroic", description=N_("A Heroic Roll: 2d6 (or d12, d20) + Skill against a Target Number"),
        allowed_contexts=everywhere_contexts(), allowed_installs=both_installs(),
    )

    def __init__(self, bot: Rollkeeper, dice: DiceSource | None = None) -> None:
        self.bot = bot
        self.dice: DiceSource = dice or SystemDice()

    @heroic_group.command(name="difficulty", description=N_("Against a named difficulty, Basic to Insane"))
    @app_commands.choices(difficulty=DIFFICULTY_CHOICES, **CHOICES)
    @describe(*OPTIONS, difficulty=N_("The difficulty: its Target Number depends on the dice"))
    async def against_difficulty(
        self, interaction: discord.Interaction, skill: Skill, difficulty: str, dice: str = Variant.TWO_D6.value,
        kind: str = Kind.TASK.value, damage: Damage | None = None, private: bool = False, note: Note | None = None,
        faces: Faces | None = None,
    ) -> None:
        target = {"difficulty": difficulty}
        await self._roll(interaction, skill, target, dice=dice, kind=kind, damage=damage, private=private, note=note,
                         faces=faces)

    @heroic_group.command(name="tn", description=N_("Against a Target Number given outright"))
    @app_commands.choices(**CHOICES)
    @describe(*OPTIONS, tn=N_("The Target Number, 1-60"))
    async def against_tn(
        self, interaction: discord.Interaction, skill: Skill, tn: TargetNumber, dice: str = Variant.TWO_D6.value,
        kind: str = Kind.TASK.value, damage: Damage | None = None, private: bool = False, note: Note | None = None,
        faces: Faces | None = None,
    ) -> None:
        target = {"tn": tn}
        await self._roll(interaction, skill, target, dice=dice, kind=kind, damage=damage, private=private, note=note,
                         faces=faces)

    @heroic_group.command(name="versus", description=N_("Opposed or reaction roll: TN = 7 + the opposing Skill"))
    @app_commands.choices(**CHOICES)
    @describe(*OPTIONS, versus=N_("The opposing Skill, 0-30: TN = 7 + it (9 + it with a d20)"))
    async def against_skill(
        self, interaction: discord.Interaction, skill: Skill, versus: Skill, dice: str = Variant.TWO_D6.value,
        kind: str = Kind.TASK.value, damage: Damage | None = None, private: bool = False, note: Note | None = None,
        faces: Faces | None = None,
    ) -> None:
        target = {"versus": versus}
        await self._roll(interaction, skill, target, dice=dice, kind=kind, damage=damage, private=private, note=note,
                         faces=faces)

    async def _roll(
        self, interaction: discord.Interaction, skill: int, target: dict[str, Any], *, dice: str, kind: str,
        damage: int | None, private: bool, note: str | None, faces: str | None,
    ) -> None:
        """Roll, read and show a Heroic Roll with its exact odds."""
        def heroic(source: DiceSource) -> HeroicRoll:
            return roll_heroic(skill, source, variant=dice, kind=kind, damage=damage, **target)

        roll = rolled_with(faces, self.dice, heroic)
        odds = odds_for_heroic(roll.skill, roll.tn, roll.variant)
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        embed = render.render_roll(roll, odds, speech=speech, roller=interaction.user, note=note)
        rolled = Rolled("heroic", roll.kind.value, heroic_events(roll, odds))
        embed, rolled = by_hand(embed, rolled, speech, faces)
        await answer_roll(interaction, embed, rolled, private=private, speech=speech)


async def setup(bot: Rollkeeper) -> None:
    await bot.add_cog(Heroic(bot))
