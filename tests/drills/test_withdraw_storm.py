"""Told = stored for Willpower spends whose answers are lost, with the real `python -m bot` in its own process.

Twenty-four players each spend Willpower twice at once. For a third of them every try at an answer meets a reset
(Discord never takes it); for another third Discord takes every try but each reply is lost. Whatever each player
was shown must be what the store holds: a spend shown is stored, a spend whose place says NOT_SHOWN is not, and
no "thinking..." is left for a spend that was stored.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from contextlib import closing

from bot.interactions.answers import ANSWER_ATTEMPTS, NOT_SHOWN
from tests.bot.payloads import slash_payload
from tests.drills.conftest import PLAYERS, TABLES, query, table_of
from tests.drills.process import BotProcess, answer_of
from tests.fakediscord import FakeDiscord, Reply
from tests.fakediscord.faults import CALLBACK, EDIT_ORIGINAL, says

SPENDERS = PLAYERS[:24]
START = 10
SPENT = re.compile(r"spends \*\*(\d+)\*\* Willpower: (\d+) → \*\*(\d+)\*\*")


def settings(tmp_path) -> dict[str, str]:
    return {"DISCORD_TOKEN": "drill-token.withdraw", "DATABASE_PATH": str(tmp_path / "rollkeeper.sqlite3")}


def lose_answers(fake: FakeDiscord) -> tuple[set[int], set[int]]:
    """Every answer to the first third of the spenders never taken; to the second third taken, replies lost."""
    never, taken = SPENDERS[:8], SPENDERS[8:16]
    for players, fault in ((never, {"reset": True}), (taken, {"reset": True, "taken": True})):
        for player in players:  # two spends a player, each tried ANSWER_ATTEMPTS times on either route
            for route in (CALLBACK, EDIT_ORIGINAL):
                fake.inject(
                    "POST" if route == CALLBACK else "PATCH", route, when=says(f"<@{player.id}> spends"),
                    times=2 * ANSWER_ATTEMPTS, **fault,
                )
    return {p.id for p in never}, {p.id for p in taken}


def shown_spend(reply: Reply) -> int:
    """The points the player was shown spent (0 for NOT_SHOWN); fails on anything else, "thinking..." too."""
    if reply.content == NOT_SHOWN:
        return 0
    found = SPENT.search(reply.content or "")
    assert found is not None and not reply.loading, reply.describe()
    return int(found[1])


async def test_a_spend_storm_with_lost_answers_keeps_told_equal_to_stored(fake_discord, tmp_path):
    bot = await BotProcess.start(fake_discord, tmp_path, tmp_path / "bot.log", **settings(tmp_path))
    try:
        await bot.until_ready()
        await spend_storm(fake_discord, bot, tmp_path / "rollkeeper.sqlite3")
    finally:
        await bot.kill()


async def spend_storm(fake: FakeDiscord, bot: BotProcess, db) -> None:
    give_everyone(db, START)
    never, taken = lose_answers(fake)
    spends = [(player, points) for player in SPENDERS for points in (2, 3)]
    replies = await asyncio.gather(*(
        answer_of(fake, slash_payload(fake, "willpower spend", {"points": points}, user=player, channel=table_of(n)))
        for n, (player, points) in enumerate(spends)
    ))
    stored = {row["user_id"]: row["points"] for row in query(db, "SELECT user_id, points FROM willpower")}
    for player in SPENDERS:
        shown = [shown_spend(reply) for (p, _), reply in zip(spends, replies, strict=True) if p is player]
        assert stored[player.id] == START - sum(shown), f"{player.id}: shown {shown}, stored {stored[player.id]}"
        assert (shown == [0, 0]) == (player.id in never), f"{player.id}: shown {shown}"
    print(f"spend storm: {len(replies)} spends; {2 * len(never)} never taken, withdrawn and said so; "
          f"{2 * len(taken)} taken with their replies lost, kept as shown")
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log


def give_everyone(db, points: int) -> None:
    """Each spender's Willpower, written as a game master's /willpower-set would leave it."""
    with closing(sqlite3.connect(db, timeout=30)) as connection, connection:
        connection.executemany(
            "INSERT INTO willpower (guild_id, user_id, points) VALUES (?, ?, ?)",
            [(TABLES.id, player.id, points) for player in SPENDERS],
        )
