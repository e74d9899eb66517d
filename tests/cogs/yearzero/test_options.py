"""/yz as Discord shows it: the Skill may be left out (an untrained roll), and counts 0 then."""

from __future__ import annotations

from tests.bot.embeds import give_faces


async def test_yz_skill_is_optional_and_defaults_to_zero(fake_discord, start_bot):
    bot = await start_bot(extensions=("cogs.yearzero.cog",))
    (yz,) = [command for command in fake_discord.commands() if command["name"] == "yz"]
    required = {option["name"]: option.get("required", False) for option in yz["options"]}
    assert required["attribute"] and not required["skill"]
    dice = give_faces(bot, "YearZero", 6, 3)  # Attribute 2, no Skill given: exactly two base dice
    reply = await fake_discord.slash("yz", {"attribute": 2})
    dice.finish()  # both faces used, and no third die asked for
    assert reply.type == 4 and reply.embeds, reply.describe()  # stored, then shown in the first callback
