"""/yz, the Push button and /push on PostgreSQL (DATABASE_URL set), end to end through discord.py against the
fake Discord: the same answers as on SQLite, a push claimed once under racing clicks, a /push racing a click,
another pool (another process) racing the bot, and a button that still works after a restart."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage.postgres import PostgresDatabase
from bot.storage.roll_records import PushRefusal, RollState
from cogs.yearzero.card import PUSHED_DICE
from cogs.yearzero.cog import NO_ROLL_TO_PUSH
from cogs.yearzero.endings import REFUSED, read_payload
from rules.yearzero.roll import push
from tests.bot.embeds import field
from tests.cogs.yearzero.test_cog import (
    ALREADY_PUSHED,
    GUILD,
    NOT_YOURS,
    YZ,
    Constant,
    private_answer,
    roll,
    use_faces,
)
from tests.fakediscord import ALICE, BOB, message_text

UPDATE = 7


def told_privately(reply) -> str:
    """What a player was told privately: the answer itself, or (after an acknowledgement) its follow-up."""
    if reply.type == 4:
        return private_answer(reply)
    [followup] = reply.followups
    assert followup["flags"] & 64, reply.describe()
    return message_text(followup)


@pytest.fixture
def fake_guilds():
    """The same two-channel server as tests/cogs/yearzero/test_cog.py."""
    return (GUILD,)


async def test_the_bot_on_postgresql_stores_the_roll_and_the_roller_pushes_it(postgres_url, start_bot, fake_discord):
    bot = await start_bot(extensions=YZ, DATABASE_URL=postgres_url)
    assert isinstance(bot.db, PostgresDatabase)
    reply = await roll(fake_discord, bot, [6, 1, 3, 4, 2, 5], attribute=3, skill=2, gear=1)
    [button] = [item for row in reply.message["components"] for item in row["components"] if item["label"] == "Push"]
    roll_id = int(button["custom_id"].rsplit(":", 1)[1])
    await bot.db.rolls.messages.flush()
    stored = await bot.db.rolls.get(roll_id)
    assert (stored.state, stored.user_id, stored.message_id) == (RollState.PENDING, ALICE.id, int(reply.message["id"]))
    use_faces(bot, 1)
    assert told_privately(await fake_discord.click(reply, label="Push", user=BOB)) == NOT_YOURS
    dice = use_faces(bot, 1, 1, 6, 1)
    pushed = await fake_discord.click(reply, label="Push")
    dice.finish()
    assert pushed.type == UPDATE and reply.components == []
    assert pushed.embed["title"] == "✅ Pushed: 1 → 2 successes"
    assert field(pushed.embed, PUSHED_DICE) == "Base: `6`⚔ `1`☠ ↻ `1`☠ `1`☠ `6`⚔\nGear: ↻ `1`☠"
    assert "Willpower +3 (now 3)" in pushed.embed["description"]
    stored = await bot.db.rolls.get(roll_id)
    assert stored.state is RollState.PUSHED and json.loads(stored.pushed_payload)["faces"] == [6, 1, 1, 1, 6, 1]
    assert await bot.db.willpower.get(GUILD.id, ALICE.id) == 3


async def test_fifty_clicks_and_a_push_command_push_once_on_postgresql(postgres_url, start_bot, fake_discord):
    bot = await start_bot(extensions=YZ, DATABASE_URL=postgres_url)
    reply = await roll(fake_discord, bot, [2, 3, 4], attribute=3, skill=0)
    bot.get_cog("YearZero").dice = Constant(1)  # every push rerolls three 1s: 3 Willpower
    answers = await asyncio.gather(
        *(fake_discord.click(reply, label="Push") for _ in range(50)), fake_discord.slash("push")
    )
    clicks, command = answers[:50], answers[50]
    assert all(click.type == UPDATE for click in clicks)  # each shown the push that won
    assert "Willpower +3 (now 3)" in reply.embed["description"] and reply.components == []
    if not command.embeds:  # /push lost: refused at once, or after its acknowledgement
        assert told_privately(command) in (ALREADY_PUSHED, NO_ROLL_TO_PUSH)
    assert await bot.db.willpower.get(GUILD.id, ALICE.id) == 3


async def test_another_pool_racing_the_bot_claims_once(postgres_url, start_bot, fake_discord):
    """Two processes on one PostgreSQL: a second pool claims while the bot is clicked."""
    bot = await start_bot(extensions=YZ, DATABASE_URL=postgres_url)
    other = await PostgresDatabase.open(postgres_url)
    try:
        for round_number in range(1, 4):
            reply = await roll(fake_discord, bot, [2, 3], attribute=1, skill=1)
            bot.get_cog("YearZero").dice = Constant(1)
            now, lifetime = datetime.now(UTC), timedelta(hours=1)
            stored = await other.rolls.latest_pending(GUILD.id, GUILD.channel.id, ALICE.id, now, lifetime)
            pushed = push(read_payload(stored)[0], Constant(1))
            text = json.dumps(pushed.as_dict())
            claims = [
                other.rolls.claim_push(stored.id, ALICE.id, text, pushed.willpower_gained, now, lifetime)
                for _ in range(10)
            ]
            results = await asyncio.gather(*(fake_discord.click(reply, label="Push") for _ in range(10)), *claims)
            clicks, claimed = results[:10], results[10:]
            assert len([c for c in claimed if c.refusal is None]) <= 1 and all(c.type in (4, UPDATE) for c in clicks)
            assert await bot.db.willpower.get(GUILD.id, ALICE.id) == 2 * round_number  # one push a round
            assert (await other.rolls.get(stored.id)).state is RollState.PUSHED
    finally:
        await other.close()


async def test_the_button_works_after_a_restart_on_postgresql(postgres_url, start_bot, fake_discord):
    bot = await start_bot(extensions=YZ, DATABASE_URL=postgres_url)
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    restarted = await start_bot(extensions=YZ, DATABASE_URL=postgres_url)
    assert restarted is not bot and bot.is_closed()
    use_faces(restarted, 1, 6)
    pushed = await fake_discord.click(reply, label="Push")
    assert pushed.type == UPDATE and field(pushed.embed, PUSHED_DICE) == "Base: ↻ `1`☠ `6`⚔"
    assert await restarted.db.willpower.get(GUILD.id, ALICE.id) == 1


@pytest.fixture(scope="module")
def own_server():
    """A PostgreSQL server of this module's own, which the test below stops and starts again."""
    from tests.postgres import PostgresServer

    server = PostgresServer.start()
    yield server
    server.close()


async def test_while_postgresql_is_away_players_are_told_to_try_again_and_the_bot_carries_on(
    start_bot, fake_discord, own_server
):
    bot = await start_bot(extensions=YZ, DATABASE_URL=own_server.fresh_url())
    reply = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
    await bot.db.rolls.messages.flush()
    await asyncio.to_thread(own_server.stop)
    use_faces(bot, 1, 6)
    assert "try again" in told_privately(await fake_discord.click(reply, label="Push"))
    use_faces(bot, 2, 3, 4)
    assert "try again" in told_privately(await fake_discord.slash("yz", {"attribute": 2, "skill": 1}))
    await asyncio.to_thread(own_server.resume)
    for _ in range(50):  # the pool opens new connections once the server answers again
        use_faces(bot, 1, 6)
        pushed = await fake_discord.click(reply, label="Push")
        if pushed.embeds:
            break
        assert "try again" in told_privately(pushed)
        await asyncio.sleep(0.2)
    assert pushed.type == UPDATE and field(pushed.embed, PUSHED_DICE) == "Base: ↻ `1`☠ `6`⚔"
    assert await bot.db.willpower.get(GUILD.id, ALICE.id) == 1  # the refused attempts wrote nothing


async def test_two_pushes_and_keep_racing_push_clicks_on_postgresql(postgres_url, start_bot, fake_discord):
    bot = await start_bot(extensions=YZ, DATABASE_URL=postgres_url)
    reply = await roll(fake_discord, bot, [1, 3, 4], attribute=2, skill=0, pride=True, pushes=2)
    use_faces(bot, 1, 5)
    assert (await fake_discord.click(reply, label="Push")).type == UPDATE
    assert "Willpower +2 (now 2)" in reply.embed["description"]
    use_faces(bot, 10)
    assert (await fake_discord.click(reply, label="Push")).type == UPDATE and reply.components == []
    ended = {REFUSED[PushRefusal.ALREADY_PUSHED], REFUSED[PushRefusal.NO_PUSHES_LEFT], REFUSED[PushRefusal.KEPT]}
    pushes_won = 0
    for _ in range(3):
        racing = await roll(fake_discord, bot, [2, 3], attribute=2, skill=0)
        bot.get_cog("YearZero").dice = Constant(1)  # a push gains 2 WP
        answers = await asyncio.gather(*(fake_discord.click(racing, label=label) for label in ("Push", "Keep") * 8))
        assert racing.components == []
        assert {told_privately(answer) for answer in answers if not answer.embeds} <= ended
        pushes_won += racing.embed["title"].startswith("❌ Pushed")
    assert await bot.db.willpower.get(GUILD.id, ALICE.id) == 2 + 2 * pushes_won
