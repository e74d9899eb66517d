"""/yz, the Push button and /push, end to end through discord.py against the fake Discord."""

from __future__ import annotations

import pytest

from rules.dice import FixedDice
from tests.fakediscord import ALICE, BOB

YZ = ("cogs.yearzero", "cogs.willpower")


def use_faces(bot, *faces: int) -> None:
    bot.get_cog("YearZero").dice = FixedDice(faces)


async def test_roll_then_push_by_the_roller(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    use_faces(bot, 6, 1, 3, 4, 2, 5)
    reply = await fake_discord.slash("yz", {"attribute": 3, "skill": 2, "gear": 1}, user=ALICE)
    assert reply.type == 4 and not reply.ephemeral
    assert "1 success" in reply.embed["description"]
    use_faces(bot, 1, 1, 6, 1)
    pushed = await fake_discord.click(reply, label="Push", user=ALICE)
    assert pushed.type == 7
    print(pushed.embed)
