"""/willpower and /test extended on PostgreSQL (DATABASE_URL set), end to end through the fake Discord: the
same answers as on SQLite, racing spends that never go below zero, progress that survives a restart."""

from __future__ import annotations

import asyncio
import re

from tests.bot.embeds import field, give_faces
from tests.fakediscord import ALICE, GM

EPHEMERAL = 64


def public(reply) -> str:
    """A change's answer: stored, then shown in the first callback, public."""
    assert reply.type == 4 and not reply.flags & EPHEMERAL and not reply.loading, reply.describe()
    return reply.content


async def test_willpower_on_postgresql_is_set_spent_and_never_below_zero(postgres_url, start_bot, fake_discord):
    bot = await start_bot(extensions=("cogs.willpower.cog",), DATABASE_URL=postgres_url)
    await fake_discord.slash("willpower-set", {"player": ALICE, "points": 5}, user=GM)
    replies = await asyncio.gather(*(fake_discord.slash("willpower spend") for _ in range(12)))
    spent = [reply for reply in replies if not reply.ephemeral and reply.content]
    afters = sorted(int(re.search(r"→ \*\*(\d+)\*\*", public(reply))[1]) for reply in spent)
    assert afters == [0, 1, 2, 3, 4] and len(replies) - len(spent) == 7
    assert await bot.db.willpower.get(fake_discord.guild.id, ALICE.id) == 0


async def extended(fake_discord, bot, faces: list[int], **options) -> dict:
    dice = give_faces(bot, "SevenKingdoms", *faces)
    reply = await fake_discord.slash("test extended", options)
    dice.finish()
    assert reply.embeds, reply.describe()
    return reply.embed


async def test_an_extended_test_on_postgresql_keeps_its_progress_across_a_restart(
    postgres_url, start_bot, fake_discord
):
    cogs = ("cogs.sevenkingdoms.cog",)
    bot = await start_bot(extensions=cogs, DATABASE_URL=postgres_url)
    first = await extended(fake_discord, bot, [2, 2, 1], task="Forge a blade", needed=5, rank=3, difficulty="Easy")
    assert field(first, "Progress") == "**Forge a blade**: ▰▱▱▱▱ 1/5 — 4 to go"
    bot = await start_bot(extensions=cogs, DATABASE_URL=postgres_url)  # a new process on the same database
    second = await extended(fake_discord, bot, [6, 5, 4], task="forge a BLADE", rank=3, difficulty="Easy")
    assert field(second, "Progress") == "**Forge a blade**: ▰▰▰▰▱ 4/5 — 1 to go"
    done = await extended(fake_discord, bot, [4, 4, 4], task="Forge a blade", rank=3, difficulty="Easy")
    assert "🏁 **Forge a blade is complete!**" in done["description"]
    task = await bot.db.extended.get(fake_discord.guild.id, fake_discord.channel.id, "FORGE A BLADE")
    assert (task.name, task.needed, task.progress, task.complete) == ("Forge a blade", 5, 6, True)
