"""``/hex test|contest|cast|plain``: HEX rolls from the AEGIS options.

Each command builds the pool, asks ``rules.hex_odds`` for the exact odds and ``rules.hex`` for the roll,
and answers with ``cogs.hex.card``'s embed. A rules error (a Specialty above its Skill, a voluntary
nullified pool) is raised and answered privately by the tree.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions.by_hand import (
    HEX_CAST_FACES,
    HEX_CONTEST_FACES,
    HEX_FACES,
    HEX_PLAIN_FACES,
    Faces,
    by_hand,
)
from bot.interactions.common_options import Descriptions, Note
from bot.interactions.language import answer_speech
from bot.interactions.logbook import Rolled, answer_roll
from bot.interactions.places import both_installs, everywhere_contexts
from bot.interactions.rollkeeper import Rollkeeper
from cogs.hex import card as render
from rules.dice import DiceSource, SystemDice, rolled_with
from rules.hex.luck_events import hex_events
from rules.hex.odds import odds_for_cast, odds_for_contest, odds_for_plain, odds_for_test
from rules.hex.pool import MAX_POOL, MAX_RISK, HexPool
from rules.hex.roll import MAX_DV, roll_cast, roll_contest, roll_plain, roll_test
from rules.language import N_, Speech

Rating = app_commands.Range[int, 0, 12]
Bonus = app_commands.Range[int, 0, 3]
Complications = app_commands.Range[int, 0, 20]
Risk = app_commands.Range[int, 0, MAX_RISK]
PoolDice = app_commands.Range[int, 0, MAX_POOL]
DamageValue = app_commands.Range[int, 0, MAX_DV]

describe = Descriptions({
    "attribute": N_("Attribute, 0-12 (humans 1-6; 7 and up is supernatural)"),
    "skill": N_("Skill, 0-12 (0: untrained, the Attribute alone plus any E/G/I dice)"),
    "specialty": N_("Specialty dice, 0 up to the Skill (none while the Skill is 0)"),
    "environment": N_("Environment dice, 0-3 (normally 0 or 1)"),
    "gear": N_("Gear dice, 0-3 (normally 0 or 1; superior gear may stack)"),
    "ingenuity": N_("Ingenuity dice, 0-3 (normally 0 or 1)"),
    "complications": N_("Complications, 0-20: each removes one die (the pool may end at 0 or below)"),
    # Translators: an option description (at most 100 characters).
    "required": N_("A required Test (e.g. imposed by an Injury): with no dice left it fails instead of being refused"),
    "advancement": N_("Spend a banked Advancement: automatic success, nothing rolled, no Mishap"),
    "dv": N_("Damage Value: on a success, damage = DV + Margin of Success"),
    "risk": N_("Casting Risk, 0-5: Control dice = min(Risk, pool - 1), beside one Affinity die"),
})
CONTEST_OPPOSING = N_("The opposing pool's dice count, 0-45 (0: nullified, it cannot win)")
CAST_OPPOSING = N_("Resisted: the opposing pool's dice count, 0-45 (leave empty if unresisted)")
POOL = ("attribute", "skill", "specialty", "environment", "gear", "ingenuity", "complications")
COMMON = ("advancement", "dv", "private", "note")


class Hex(commands.Cog):
    """HEX: a d6 success pool; each 6 is a success, Hazard Dice bring Mishaps."""

    hex_group = app_commands.Group(
        name="hex", description=N_("HEX: roll a d6 pool, each 6 a success, with Hazard Dice"),
        allowed_contexts=everywhere_contexts(), allowed_installs=both_installs(),
    )

    def __init__(self, bot: Rollkeeper, dice: DiceSource | None = None) -> None:
        self.bot = bot
        self.dice: DiceSource = dice or SystemDice()

    @staticmethod
    async def _answer(
        interaction: discord.Interaction, result_embed: discord.Embed, private: bool, rolled: Rolled, speech: Speech,
        faces: str | None,
    ) -> None:
        """Answer with the card and log the roll, both marked as rolled by hand when the player typed the faces."""
        result_embed, rolled = by_hand(result_embed, rolled, speech, faces)
        await answer_roll(interaction, result_embed, rolled, private=private, speech=speech)

    @hex_group.command(
        name="test", description=N_("An uncontested Test: one 6 succeeds; Hazard Dice may bring a Mishap")
    )
    @describe(*POOL, "required", *COMMON, faces=HEX_FACES)
    async def hex_test(
        self, interaction: discord.Interaction, attribute: Rating, skill: Rating = 0, specialty: Rating = 0,
        environment: Bonus = 0, gear: Bonus = 0, ingenuity: Bonus = 0, complications: Complications = 0,
        required: bool = False, advancement: bool = False, dv: DamageValue | None = None,
        private: bool = False, note: Note | None = None, faces: Faces | None = None,
    ) -> None:
        pool = HexPool(attribute, skill, specialty, environment, gear, ingenuity, complications)
        odds = odds_for_test(pool, required=required, advancement=advancement)
        result = rolled_with(
            faces, self.dice, lambda dice: roll_test(pool, dice, required=required, advancement=advancement, dv=dv)
        )
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        embed = render.render_result(result, odds, speech=speech, roller=interaction.user, note=note)
        rolled = Rolled("hex", result.kind, hex_events(result, odds))
        await self._answer(interaction, embed, private, rolled, speech, faces)

    @hex_group.command(name="contest", description=N_("A Contest: the opposition wins only with strictly more 6s"))
    @describe(*POOL, *COMMON, opposing=CONTEST_OPPOSING, faces=HEX_CONTEST_FACES)
    async def hex_contest(
        self, interaction: discord.Interaction, attribute: Rating, opposing: PoolDice, skill: Rating = 0,
        specialty: Rating = 0, environment: Bonus = 0, gear: Bonus = 0, ingenuity: Bonus = 0,
        complications: Complications = 0, advancement: bool = False, dv: DamageValue | None = None,
        private: bool = False, note: Note | None = None, faces: Faces | None = None,
    ) -> None:
        pool = HexPool(attribute, skill, specialty, environment, gear, ingenuity, complications)
        odds = odds_for_contest(pool, opposing, advancement=advancement)
        result = rolled_with(
            faces, self.dice, lambda dice: roll_contest(pool, opposing, dice, advancement=advancement, dv=dv)
        )
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        embed = render.render_result(result, odds, speech=speech, roller=interaction.user, note=note)
        rolled = Rolled("hex", result.kind, hex_events(result, odds))
        await self._answer(interaction, embed, private, rolled, speech, faces)

    @hex_group.command(name="cast", description=N_("A magical casting at a Risk, resisted by an opposing pool or not"))
    @describe(*POOL, "risk", "required", *COMMON, opposing=CAST_OPPOSING, faces=HEX_CAST_FACES)
    async def hex_cast(
        self, interaction: discord.Interaction, attribute: Rating, risk: Risk = 0, skill: Rating = 0,
        specialty: Rating = 0, environment: Bonus = 0, gear: Bonus = 0, ingenuity: Bonus = 0,
        complications: Complications = 0, opposing: PoolDice | None = None, required: bool = False,
        advancement: bool = False, dv: DamageValue | None = None, private: bool = False,
        note: Note | None = None, faces: Faces | None = None,
    ) -> None:
        pool = HexPool(attribute, skill, specialty, environment, gear, ingenuity, complications)
        odds = odds_for_cast(pool, risk, required=required, advancement=advancement, opposing=opposing)
        result = rolled_with(faces, self.dice, lambda dice: roll_cast(
            pool, risk, dice, dv=dv, required=required, advancement=advancement, opposing=opposing
        ))
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        embed = render.render_result(result, odds, speech=speech, roller=interaction.user, note=note)
        rolled = Rolled("hex", result.kind, hex_events(result, odds))
        await self._answer(interaction, embed, private, rolled, speech, faces)

    @hex_group.command(name="plain", description=N_("A no-Mishap roll (Initiative, Hit Location, Armor): counts 6s"))
    @describe("private", "note", dice=N_("How many dice to roll, 1-45"), faces=HEX_PLAIN_FACES)
    async def hex_plain(
        self, interaction: discord.Interaction, dice: app_commands.Range[int, 1, MAX_POOL],
        private: bool = False, note: Note | None = None, faces: Faces | None = None,
    ) -> None:
        odds = odds_for_plain(dice)
        result = rolled_with(faces, self.dice, lambda source: roll_plain(dice, source))
        speech = await answer_speech(interaction, self.bot.db.languages, private=private)
        embed = render.render_plain(result, odds, speech=speech, roller=interaction.user, note=note)
        await self._answer(interaction, embed, private, Rolled("hex", "plain"), speech, faces)


async def setup(bot: Rollkeeper) -> None:
    await bot.add_cog(Hex(bot))
