"""/test clear (its starter or Manage Server, after a confirmation) and the task names offered while typing."""

from __future__ import annotations

from bot.storage.schema import load_migrations
from tests.bot.embeds import give_faces
from tests.cogs.sevenkingdoms.test_cog import GENERAL, TAVERN
from tests.fakediscord import ALICE, BOB, GM, MEMBER_PERMISSIONS, FakeUser
from tests.storage import reading


async def start_task(fake_discord, bot, name: str, needed: int = 5, *, by=ALICE, channel=GENERAL, progress=0):
    guild_id = fake_discord.guild.id
    await reading.start_task(bot.db, guild_id, channel.id, name, needed, started_by=by.id)
    if progress:
        await reading.add_degrees(bot.db, guild_id, channel.id, name, progress)


async def task_names(bot, channel=GENERAL) -> list[str]:
    return [task.name for task in await bot.db.extended.in_channel(bot.guilds[0].id, channel.id)]


def buttons(reply) -> list[tuple[str, int]]:
    return [(button["label"], button["style"]) for row in reply.components for button in row["components"]]


# --- /test clear ----------------------------------------------------------------------------------


async def test_clear_asks_first_and_keep_changes_nothing(fake_discord, bot):
    await start_task(fake_discord, bot, "Siege of Riverrun", 10, progress=4)
    asked = await fake_discord.slash("test clear", {"task": "siege of riverrun"})
    assert asked.ephemeral and asked.embeds == []
    assert asked.content == (
        'Forget the extended test "Siege of Riverrun" (4/10) for everyone in this channel? '
        "Its progress cannot be brought back."
    )
    assert buttons(asked) == [("Clear it", 4), ("Keep it", 2)]  # danger, secondary
    kept = await fake_discord.click(asked, label="Keep it")
    assert kept.type == 7 and kept.content == "Kept: nothing was cleared." and kept.components == []
    assert await task_names(bot) == ["Siege of Riverrun"]


async def test_the_starter_clears_after_confirming_and_the_table_is_told(fake_discord, bot):
    await start_task(fake_discord, bot, "Siege", 10, progress=4)
    asked = await fake_discord.slash("test clear", {"task": "Siege"})
    assert await task_names(bot) == ["Siege"]  # nothing is cleared before the click
    cleared = await fake_discord.click(asked, label="Clear it")
    assert cleared.type == 7 and cleared.content == 'Cleared "Siege".' and cleared.components == []
    notice = cleared.followups[0]
    assert notice["content"] == f'<@{ALICE.id}> cleared the extended test "Siege" (4/10) in this channel.'
    assert not notice["flags"] & 64  # the whole table sees it
    assert await task_names(bot) == []


async def test_only_the_starter_or_a_manage_server_member_may_clear(fake_discord, bot):
    await start_task(fake_discord, bot, "Court intrigue", by=ALICE)
    refused = await fake_discord.slash("test clear", {"task": "Court intrigue"}, user=BOB)
    assert refused.ephemeral and refused.components == []
    assert refused.content == (
        f'Only <@{ALICE.id}>, who started it, or a member with the Manage Server permission can clear '
        '"Court intrigue".'
    )
    asked = await fake_discord.slash("test clear", {"task": "Court intrigue"}, user=GM)
    await fake_discord.click(asked, label="Clear it", user=GM)
    assert await task_names(bot) == []


async def test_a_click_by_someone_else_or_on_a_task_gone_meanwhile_clears_nothing(fake_discord, bot):
    await start_task(fake_discord, bot, "Ambush")
    asked = await fake_discord.slash("test clear", {"task": "Ambush"})
    other = await fake_discord.click(asked, label="Clear it", user=GM)
    assert other.ephemeral and "asked of someone else" in other.content
    assert await task_names(bot) == ["Ambush"]

    second = await fake_discord.slash("test clear", {"task": "Ambush"})
    await fake_discord.click(second, label="Clear it")
    late = await fake_discord.click(asked, label="Clear it")
    assert late.type == 7 and "no longer here" in late.content and late.components == []


async def test_the_confirmation_still_works_after_a_restart(fake_discord, start_bot):
    bot = await start_bot(extensions=("cogs.sevenkingdoms.cog",))
    await start_task(fake_discord, bot, "Long march")
    asked = await fake_discord.slash("test clear", {"task": "Long march"})
    bot = await start_bot(extensions=("cogs.sevenkingdoms.cog",))  # a new process on the same database
    cleared = await fake_discord.click(asked, label="Clear it")
    assert cleared.content == 'Cleared "Long march".'
    assert await task_names(bot) == []


async def test_a_task_started_by_slash_command_remembers_its_starter_across_a_restart(fake_discord, bot):
    dice = give_faces(bot, "SevenKingdoms", 6, 6)
    await fake_discord.slash("test extended", {"task": "Forge", "needed": 9, "rank": 2, "difficulty": "3"}, user=BOB)
    dice.finish()
    give_faces(bot, "SevenKingdoms", 1, 1)
    await fake_discord.slash("test extended", {"task": "forge", "restart": True, "rank": 2, "difficulty": "3"})
    (task,) = await bot.db.extended.in_channel(fake_discord.guild.id, GENERAL.id)
    assert task.started_by == BOB.id  # Alice's restart does not make the task hers
    refused = await fake_discord.slash("test clear", {"task": "Forge"}, user=ALICE)
    assert "Only <@" in refused.content
    asked = await fake_discord.slash("test clear", {"task": "Forge"}, user=BOB)
    assert buttons(asked)[0][0] == "Clear it"


async def test_a_task_from_before_the_starter_was_kept_is_cleared_by_manage_server_only(fake_discord, bot):
    assert len(load_migrations()) >= 4
    await reading.start_task(bot.db, fake_discord.guild.id, GENERAL.id, "Old task", 3)  # no starter known
    refused = await fake_discord.slash("test clear", {"task": "Old task"})
    assert "Only whoever started it or a member with the Manage Server permission" in refused.content
    asked = await fake_discord.slash("test clear", {"task": "Old task"}, user=GM)
    assert asked.content.startswith('Forget the extended test "Old task"')


# --- autocomplete ---------------------------------------------------------------------------------


async def test_extended_offers_the_channels_tasks_still_going(fake_discord, bot):
    await start_task(fake_discord, bot, "Siege", 10, progress=4)
    await start_task(fake_discord, bot, "Climb the Wall", 3, progress=3)  # complete
    await start_task(fake_discord, bot, "Sieve the grain", 2)
    await start_task(fake_discord, bot, "Elsewhere", 2, channel=TAVERN)
    offered = await fake_discord.autocomplete("test extended", {"task": "sie"}, "task")
    assert offered.type == 8
    assert offered.choices == [
        {"name": "Siege (4/10)", "value": "Siege"},
        {"name": "Sieve the grain (0/2)", "value": "Sieve the grain"},
    ]
    everything = await fake_discord.autocomplete("test extended", {"task": ""}, "task")
    assert [choice["value"] for choice in everything.choices] == ["Siege", "Sieve the grain"]


async def test_clear_offers_every_task_of_the_channel_complete_ones_too(fake_discord, bot):
    await start_task(fake_discord, bot, "Siege", 10, progress=4)
    await start_task(fake_discord, bot, "Climb the Wall", 3, progress=3)
    offered = await fake_discord.autocomplete("test clear", {"task": ""}, "task")
    assert [choice["value"] for choice in offered.choices] == ["Climb the Wall", "Siege"]
    elsewhere = await fake_discord.autocomplete("test clear", {"task": ""}, "task", guild=fake_discord.guild)
    assert elsewhere.choices == offered.choices


async def test_autocomplete_offers_at_most_25_and_shows_long_names_within_discords_limits(fake_discord, bot):
    for number in range(30):
        await start_task(fake_discord, bot, f"Task {number:02d}")
    long_name = ("A " + "very " * 19 + "long task")[:100]
    await start_task(fake_discord, bot, long_name)
    offered = await fake_discord.autocomplete("test clear", {"task": ""}, "task")
    assert len(offered.choices) == 25
    found = await fake_discord.autocomplete("test clear", {"task": "VERY"}, "task")
    (choice,) = found.choices
    assert choice["value"] == long_name and len(choice["name"]) <= 100 and choice["name"].endswith("(0/5)")


async def test_a_game_master_who_lost_manage_server_before_clicking_clears_nothing(fake_discord, bot):
    await start_task(fake_discord, bot, "Siege", by=ALICE)
    asked = await fake_discord.slash("test clear", {"task": "Siege"}, user=GM)
    demoted = FakeUser(GM.name, permissions=MEMBER_PERMISSIONS)  # the same member, without Manage Server now
    assert demoted.id == GM.id
    refused = await fake_discord.click(asked, label="Clear it", user=demoted)
    assert refused.ephemeral and "Manage Server permission can clear" in refused.content
    assert await task_names(bot) == ["Siege"]


async def test_a_crafted_autocomplete_from_a_dm_gets_no_choices_and_logs_nothing(fake_discord, bot):
    from bot.playground.interactions import AUTOCOMPLETE
    from bot.playground.invoke import Place, command_data

    await start_task(fake_discord, bot, "Siege")
    command = fake_discord.backend.commands.find("test", fake_discord.guild.id)
    data = command_data(command, ["clear"], {"task": ""}, Place(ALICE, fake_discord.guild, GENERAL), focused="task")
    reply = await fake_discord.send_interaction(fake_discord.payload(AUTOCOMPLETE, data, dm=True))
    assert reply.type == 8 and reply.choices == [] and reply.errors == []
