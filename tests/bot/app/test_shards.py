"""Shards: the fake Discord's /gateway/bot, IDENTIFY and routing, and rollkeeper's bot run as one or several
processes' worth of shards on one store."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.app.client import IDENTIFY_SPACING, RollkeeperBot
from bot.app.sync import CommandSync
from bot.shards import ShardPlan
from cogs.yearzero.cog import PushButton
from tests.bot.embeds import give_faces
from tests.bot.payloads import click_payload
from tests.bot.sharding import FEN, KEEP, MARSH, interactions_seen, shard_bot
from tests.fakediscord import ALICE, FakeDiscord

PUT_GLOBAL = "/applications/{application_id}/commands"
EPHEMERAL = 64


@pytest.fixture
async def fake_discord(discord_spec):
    """A fake Discord recommending two shards, with a server on shard 0 and two on shard 1."""
    async with FakeDiscord(guilds=[KEEP, MARSH, FEN], validator=discord_spec, shard_count=2) as fake:
        yield fake
        await fake.stop()
        fake.assert_clean()


def test_the_servers_sit_on_the_shards_discord_would_give_them(fake_discord):
    assert [fake_discord.backend.shard_of(guild.id) for guild in (KEEP, MARSH, FEN)] == [0, 1, 1]
    assert fake_discord.backend.shard_of(None) == 0  # direct messages come on shard 0


async def test_unset_one_process_runs_discords_recommended_count(fake_discord, make_settings, caplog):
    caplog.set_level(logging.INFO, logger="bot.app.client")
    bot = await fake_discord.run(shard_bot(make_settings, ShardPlan()))
    assert len(fake_discord.requests_to("GET", "/gateway/bot")) == 1
    assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
    assert sorted(session.identify["shard"] for session in fake_discord.gateway.sessions) == [[0, 2], [1, 2]]
    assert {guild.id: guild.shard_id for guild in bot.guilds} == {KEEP.id: 0, MARSH.id: 1, FEN.id: 1}
    assert "Running shards 0, 1 of 2: shard 0 has 1 server, shard 1 has 2 servers" in caplog.messages


async def test_each_process_gets_the_servers_of_its_own_shards(fake_discord, make_settings, caplog):
    caplog.set_level(logging.INFO, logger="bot.app.client")
    first = await fake_discord.run(shard_bot(make_settings, ShardPlan(count=2, ids=(0,))))
    second = await fake_discord.run(shard_bot(make_settings, ShardPlan(count=2, ids=(1,))))
    assert fake_discord.requests_to("GET", "/gateway/bot") == []  # the count was given
    assert [guild.id for guild in first.guilds] == [KEEP.id] and list(first.shards) == [0]
    assert sorted(guild.id for guild in second.guilds) == sorted([MARSH.id, FEN.id]) and list(second.shards) == [1]
    assert "Running shard 0 of 2: shard 0 has 1 server" in caplog.messages
    assert "Running shard 1 of 2: shard 1 has 2 servers" in caplog.messages


async def test_interactions_arrive_on_the_shard_that_owns_their_server(fake_discord, make_settings):
    first = await fake_discord.run(shard_bot(make_settings, ShardPlan(count=2, ids=(0,))))
    second = await fake_discord.run(shard_bot(make_settings, ShardPlan(count=2, ids=(1,))))
    seen_first, seen_second = interactions_seen(first), interactions_seen(second)
    for guild in (MARSH, KEEP, FEN):
        reply = await fake_discord.slash("willpower show", guild=guild)
        assert reply.type == 4 and reply.flags & EPHEMERAL and "0" in reply.content
    assert seen_first == [KEEP.id] and seen_second == [MARSH.id, FEN.id]


async def test_only_the_process_running_shard_zero_syncs_the_commands(fake_discord, make_settings):
    second = await fake_discord.run(shard_bot(make_settings, ShardPlan(count=2, ids=(1,))))
    assert await second.sync_commands() is CommandSync.NOT_THIS_PROCESS
    assert fake_discord.requests_to("PUT", PUT_GLOBAL) == [] and fake_discord.commands() == []
    await fake_discord.run(shard_bot(make_settings, ShardPlan(count=2, ids=(0,))))
    assert len(fake_discord.requests_to("PUT", PUT_GLOBAL)) == 1
    assert {"yz", "push", "willpower"} <= {command["name"] for command in fake_discord.commands()}


async def test_sync_commands_true_makes_another_process_sync(fake_discord, make_settings):
    await fake_discord.run(shard_bot(make_settings, ShardPlan(count=2, ids=(1,), sync_commands=True)))
    assert len(fake_discord.requests_to("PUT", PUT_GLOBAL)) == 1


async def test_sync_commands_false_stops_even_shard_zeros_process(fake_discord, make_settings, caplog):
    caplog.set_level(logging.INFO, logger="bot.app.sync")
    await fake_discord.run(shard_bot(make_settings, ShardPlan(sync_commands=False)))
    assert fake_discord.requests_to("PUT", PUT_GLOBAL) == []
    assert "Not syncing the slash commands: SYNC_COMMANDS is false" in caplog.messages


async def test_a_bot_with_another_shard_count_is_refused_by_the_gateway(fake_discord, make_settings):
    with pytest.raises(discord.ConnectionClosed) as closed:
        await fake_discord.run(shard_bot(make_settings, ShardPlan(count=3, ids=(0, 1, 2))))
    assert closed.value.code == 4010


async def test_shards_identify_spaced_by_discords_rate_limit_unless_told(make_settings):
    bot = shard_bot(make_settings, ShardPlan())
    assert bot._identify_spacing == 0  # noqa: SLF001 - the tests' bot; the default is the product's
    assert RollkeeperBot(make_settings())._identify_spacing == IDENTIFY_SPACING == 5.0  # noqa: SLF001


async def test_any_process_serves_any_rolls_push_button(fake_discord, make_settings):
    """A roll made through shard 0's process is pushed by a click arriving through shard 1's: the roll's state is
    in the shared store, keyed by the button's custom_id, not in the process that posted it."""
    first = await fake_discord.run(shard_bot(make_settings, ShardPlan(count=2, ids=(0,))))
    second = await fake_discord.run(shard_bot(make_settings, ShardPlan(count=2, ids=(1,))))
    give_faces(first, "YearZero", 1, 3, 4)  # base dice: a bane, then 3 and 4 to push
    rolled = await fake_discord.slash("yz", {"attribute": 2, "skill": 1}, guild=KEEP)
    [button] = [item for row in rolled.message["components"] for item in row["components"] if item["label"] == "Push"]
    assert PushButton.pattern.fullmatch(button["custom_id"])  # type: ignore[attr-defined]
    give_faces(second, "YearZero", 1, 6)  # the push: another bane and a success
    seen_first, seen_second = interactions_seen(first), interactions_seen(second)
    pushed = await fake_discord.click(rolled, label="Push", shard=1)
    assert seen_first == [] and seen_second == [KEEP.id]
    assert pushed.type == 7 and not pushed.ephemeral, pushed.describe()  # the card updated in the first callback
    assert pushed.embed["title"] == "✅ Pushed: no success → 1 success"
    assert "Willpower +2 (now 2)" in pushed.embed["description"]
    assert pushed.message["components"] == []
    late = click_payload(fake_discord, rolled, button["custom_id"])  # the roller's screen not yet updated
    give_faces(first, "YearZero", 6, 6)  # in case the cog rolls a push before it claims the roll
    again = await fake_discord.send_interaction(late, shard=0)
    assert seen_first == [KEEP.id]  # shard 0's process shows the push shard 1's process stored: nothing pushed again
    assert again.type == 7 and again.embed["title"] == pushed.embed["title"], again.describe()
    shown = await fake_discord.slash("willpower show", guild=KEEP, user=ALICE)
    assert "2" in shown.content  # the roll's two base banes after the push, counted once
