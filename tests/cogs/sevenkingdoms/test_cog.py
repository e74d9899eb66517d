"""/test end to end through the fake Discord: basic, conflict, competition, and extended tests in SQLite."""

from __future__ import annotations

import pytest

from rules.dice import FixedDice
from rules.language import ENGLISH, speak
from tests.bot.embeds import below_title, field, give_faces, odds
from tests.fakediscord import BOB, CannotInvoke, FakeChannel, FakeGuild

EN = speak(ENGLISH)


EPHEMERAL = 64
GENERAL, TAVERN = FakeChannel("general"), FakeChannel("tavern")
GUILD = FakeGuild(channels=(GENERAL, TAVERN))
"""The default server, with a second channel."""


def use_faces(bot, *faces: int) -> FixedDice:
    return give_faces(bot, "SevenKingdoms", *faces)


async def stored_tasks(bot) -> list[tuple]:
    """Every extended test in the database, whatever the channel."""
    rows = await bot.db.store.fetch_all(
        "SELECT guild_id, channel_id, name, needed, progress FROM extended_tests ORDER BY channel_id, name"
    )
    return [tuple(row) for row in rows]


async def refused(fake_discord, bot, command: str, options: dict, message: str, **where) -> None:
    """The command is answered privately with the message, rolls nothing and leaves the database as it was."""
    before = await stored_tasks(bot)
    dice = use_faces(bot)
    reply = await fake_discord.slash(command, options, **where)
    assert reply.ephemeral and reply.embeds == [], reply.describe()
    assert message in reply.content
    dice.finish()
    assert await stored_tasks(bot) == before


# Basic, conflict, competition -------------------------------------------------------------------------------


async def test_a_basic_test_in_the_seeds_notation_discards_the_highest_and_keeps_the_best(fake_discord, bot):
    dice = use_faces(bot, 6, 5, 1, 4, 2)  # three test dice, then two bonus dice
    reply = await fake_discord.slash("test basic", {"pool": "3D+2B-1P", "difficulty": "Routine"}, user=BOB)
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "✅ Great success · 2 degrees"
    assert embed["description"] == "Seven Kingdoms · 3D + 2B − 1P vs Routine (6)"
    # the 6 is discarded; the best three left are 5 + 4 + 2 = 11, five above Routine: Great, 2 degrees
    assert field(embed, "Result 11 · margin 5") == "Kept: `5` `4` `2` · Discarded: ~~`6`~~ · Not kept: `1`"
    assert odds(embed).startswith("Odds: success ")
    assert "author" not in embed and not reply.ephemeral


async def test_a_basic_test_from_options_with_penalties_aid_and_injuries(fake_discord, bot):
    dice = use_faces(bot, 4, 3, 6)  # rank 3 less one wound: two test dice, then the aid die
    options = {"rank": 3, "difficulty": "10", "wounds": 1, "aid": True, "injuries": 1}
    reply = await fake_discord.slash("test basic", options)
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "❌ Marginal failure · 1 below"
    # kept: 6 and 4 = 10, less the injury = 9: one below 10, a marginal failure
    assert below_title(embed) == [
        "Seven Kingdoms · 3D (aided, 1 wound, 1 injury) vs difficulty 10", "Injuries: −1 from the result."
    ]
    assert field(embed, "Result 9") == "Kept: `6` `4` · Not kept: `3`"


async def test_a_conflict_against_defense_shows_the_complication_of_a_one(fake_discord, bot):
    dice = use_faces(bot, 1, 6)
    reply = await fake_discord.slash("test conflict", {"rank": 2, "defense": 8, "note": "Sword against Brienne"})
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "❌ Marginal failure · 1 below"
    assert below_title(embed) == [
        "Seven Kingdoms conflict · 2D vs Defense 8", "> Sword against Brienne",
        "⚠ A die shows 1: the Narrator may add a complication.",
    ]
    assert field(embed, "Result 7") == "Kept: `6` `1`⚠"


async def test_a_conflict_has_no_minimum_rank(fake_discord, bot):
    use_faces(bot, 6)
    reply = await fake_discord.slash("test conflict", {"rank": 1, "defense": 5})
    assert reply.embed["title"] == "✅ Marginal success · 1 degree"
    assert field(reply.embed, "Result 6 · margin 1") == "Kept: `6`"


async def test_a_competition_ranks_everyone_with_their_chances(fake_discord, bot):
    dice = use_faces(bot, 6, 5, 1, 3, 3)  # Jaime: 6 5 and a bonus 1; Brienne: 3 3
    reply = await fake_discord.slash("test competition", {"participants": "Jaime 2D+1B, Brienne 2D"})
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "🏆 Jaime wins · by 5 (Great, 2 degrees)"
    assert embed["description"] == "Seven Kingdoms competition · 2 participants"
    jaime, brienne = embed["fields"]
    assert jaime["name"].startswith("1. Jaime · 2D + 1B · ") and jaime["name"].endswith("% to win")
    assert jaime["value"] == "**11** · Kept: `6` `5` · Not kept: `1`"
    assert brienne["name"].startswith("2. Brienne · 2D · ") and brienne["value"] == "**6** · Kept: `3` `3`"
    assert odds(embed).startswith("Odds: tie at the top ")


async def test_a_tie_at_the_top_is_shown_as_a_tie(fake_discord, bot):
    use_faces(bot, 4, 4, 3, 2, 1)  # Arya 4, Sansa 4, Bran keeps the best of 3 2 1
    reply = await fake_discord.slash("test competition", {"participants": "Arya 1D; Sansa 1D; Bran 1D+2B"})
    assert reply.embed["title"] == "⚖️ Tie at the top · Arya, Sansa" and len(reply.embed["fields"]) == 3


@pytest.mark.parametrize(
    ("participants", "message"),
    [
        ("Jaime 5D+2B", "A competition needs 2 to 25 participants, not 1"),
        ("Jaime, Brienne 4D", "Cannot read 'Jaime': write each participant like Jaime 5D + 2B"),
        ("Jaime 5D, jaime 3D", "Two participants are named 'jaime'"),
        ("Jaime 5D+2X, Brienne 4D", "Cannot read the pool"),
        ("Jaime 11D, Brienne 4D", "Rank 11 is out of range"),
        ("5D, Brienne 4D", "Participant 1 needs a name"),
    ],
)
async def test_competition_text_that_cannot_be_read_is_refused(fake_discord, bot, participants, message):
    await refused(fake_discord, bot, "test competition", {"participants": participants}, message)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rank": 2, "pool": "2D+1B", "difficulty": "5"}, "not both"),
        ({"bonus": 2, "difficulty": "5"}, "Give your ability `rank`, or the whole `pool`"),
        ({"rank": 2, "difficulty": "Trivial"}, "Unknown difficulty 'Trivial': give a number from 0 to 60 or one of"),
        ({"rank": 2, "difficulty": "-5"}, "Difficulty -5 is out of range"),
        ({"rank": 2, "difficulty": "61"}, "Difficulty 61 is out of range"),
        ({"rank": 2, "difficulty": "Hard"}, "Rank 2 is below the minimum rank 3 for a test of difficulty Hard"),
        ({"pool": "2B", "difficulty": "5"}, "has no test dice (D)"),
    ],
)
async def test_bad_test_options_are_refused_privately(fake_discord, bot, options, message):
    await refused(fake_discord, bot, "test basic", options, message)


async def test_discord_refuses_out_of_range_values_and_dms(fake_discord, bot):
    with pytest.raises(CannotInvoke, match="outside"):
        await fake_discord.slash("test basic", {"rank": 11, "difficulty": "5"})
    with pytest.raises(CannotInvoke, match=r"needs option\(s\) \['difficulty'\]"):
        await fake_discord.slash("test basic", {"rank": 2})  # required: Discord's client asks for it
    in_a_dm = await fake_discord.slash("test progress", dm=True)  # played anywhere (issue 22)
    assert in_a_dm.type == 4 and in_a_dm.errors == [], in_a_dm.describe()


async def test_basic_offers_the_named_difficulties_and_a_number_typed_while_typing(fake_discord, bot):
    hard = await fake_discord.autocomplete("test basic", {"difficulty": "har"}, "difficulty")
    assert hard.choices == [
        {"name": "Hard (15, minimum rank 3)", "value": "Hard"},
        {"name": "Very Hard (18, minimum rank 3)", "value": "Very Hard"},
    ]
    number = await fake_discord.autocomplete("test basic", {"difficulty": "12"}, "difficulty")
    assert number.choices[0] == {"name": "12 (minimum rank 2)", "value": "12"}
    every = await fake_discord.autocomplete("test basic", {"difficulty": ""}, "difficulty")
    assert [choice["value"] for choice in every.choices][:2] == ["Automatic", "Easy"] and len(every.choices) == 8


async def test_automatic_and_no_test_die_roll_nothing(fake_discord, bot):
    dice = use_faces(bot)
    automatic = await fake_discord.slash("test basic", {"rank": 1, "difficulty": "Automatic", "private": True})
    assert automatic.embed["title"] == "✅ Automatic success · no roll needed" and automatic.ephemeral
    assert "fields" not in automatic.embed and "footer" not in automatic.embed
    assert automatic.callback["data"]["flags"] == EPHEMERAL
    wounded = await fake_discord.slash("test basic", {"rank": 2, "wounds": 2, "difficulty": "Easy"})
    assert wounded.embed["title"] == "❌ Fails · no test die remains, nothing rolled"
    dice.finish()


# Extended tests ---------------------------------------------------------------------------------------------


async def extended(fake_discord, bot, faces: list[int], **options):
    dice = use_faces(bot, *faces)
    reply = await fake_discord.slash("test extended", options)
    assert reply.embeds, reply.describe()
    dice.finish()
    return reply.embed


async def test_extended_progress_adds_degrees_survives_a_restart_and_announces_completion(
    fake_discord, start_bot
):
    bot = await start_bot(extensions=("cogs.sevenkingdoms.cog",))
    first = await extended(fake_discord, bot, [2, 2, 1], task="Forge a blade", needed=5, rank=3,
                           difficulty="Easy", note="At the smithy")
    assert first["title"] == "✅ Marginal success · 1 degree"
    assert below_title(first) == [
        "Seven Kingdoms extended · 3D vs Easy (3)", "> At the smithy", "Progress +1 degree."
    ]
    assert field(first, "Progress") == "**Forge a blade**: ▰▱▱▱▱ 1/5 — 4 to go"

    bot = await start_bot(extensions=("cogs.sevenkingdoms.cog",))  # a new process on the same database
    second = await extended(fake_discord, bot, [6, 5, 4], task="forge a BLADE", rank=3, difficulty="Easy")
    assert field(second, "Progress") == "**Forge a blade**: ▰▰▰▰▱ 4/5 — 1 to go"  # 15 vs 3: 3 degrees

    failed = await extended(fake_discord, bot, [1, 2, 3], task="Forge a blade", rank=3, difficulty="15")
    assert "No progress this time." in failed["description"]
    assert field(failed, "Progress") == "**Forge a blade**: ▰▰▰▰▱ 4/5 — 1 to go"

    done = await extended(fake_discord, bot, [4, 4, 4], task="Forge a blade", needed=5, rank=3,
                          difficulty="Easy")
    assert "🏁 **Forge a blade is complete!**" in done["description"]
    assert field(done, "Progress") == "**Forge a blade**: ▰▰▰▰▰ 6/5 — complete!"
    assert await stored_tasks(bot) == [(fake_discord.guild.id, fake_discord.channel.id, "Forge a blade", 5, 6)]

    await refused(fake_discord, bot, "test extended", {"task": "Forge a blade", "rank": 3, "difficulty": "3"},
                  "is already complete (6/5): set `restart` to start it over")

    listing = await fake_discord.slash("test progress")
    assert listing.embed["title"] == "📋 1 task, 1 complete"
    assert below_title(listing.embed) == [
        "Seven Kingdoms · extended tests in this channel", "**Forge a blade**: ▰▰▰▰▰ 6/5 — complete!"
    ]


async def test_restart_starts_over_and_a_different_needed_asks_for_it(fake_discord, bot):
    await extended(fake_discord, bot, [6, 6, 6], task="Siege", needed=10, rank=3, difficulty="3")  # 4 degrees
    await refused(fake_discord, bot, "test extended", {"task": "Siege", "needed": 8, "rank": 3, "difficulty": "3"},
                  '"Siege" already needs 10 degrees (4 so far): set `restart` to start it over needing 8')
    again = await extended(fake_discord, bot, [1, 1, 1], task="Siege", restart=True, rank=3, difficulty="4")
    assert field(again, "Progress") == "**Siege**: ▱▱▱▱▱▱▱▱▱▱ 0/10 — 10 to go"  # 3 vs 4: no progress
    smaller = await extended(fake_discord, bot, [1, 1, 2], task="Siege", needed=2, restart=True, rank=3,
                             difficulty="4")
    assert field(smaller, "Progress") == "**Siege**: ▰▱ 1/2 — 1 to go"


async def test_bad_extended_input_creates_and_changes_nothing(fake_discord, bot):
    new = {"task": "Climb the Wall", "rank": 2, "difficulty": "6"}
    await refused(fake_discord, bot, "test extended", new,
                  'There is no extended test "Climb the Wall" in this channel yet: start it by giving `needed`')
    hard = {"task": "Climb the Wall", "needed": 3, "rank": 1, "difficulty": "Hard"}
    await refused(fake_discord, bot, "test extended", hard,
                  "Rank 1 is below the minimum rank 3 for a test of difficulty Hard")
    await refused(fake_discord, bot, "test extended", new | {"needed": 3, "difficulty": "0"},
                  "An Automatic test adds no degrees")
    await refused(fake_discord, bot, "test extended", new | {"needed": 3, "pool": "2D"}, "not both")
    await refused(fake_discord, bot, "test extended", {"task": "   ", "needed": 3, "rank": 2, "difficulty": "6"},
                  "An extended test needs a name.")
    assert await stored_tasks(bot) == []

    await extended(fake_discord, bot, [6, 6], task="Climb the Wall", needed=4, rank=2, difficulty="6")  # 12: 2 deg.
    kept = await stored_tasks(bot)
    assert kept == [(fake_discord.guild.id, fake_discord.channel.id, "Climb the Wall", 4, 2)]
    await refused(fake_discord, bot, "test extended", new | {"restart": True, "rank": 1, "difficulty": "15"},
                  "below the minimum rank")
    assert await stored_tasks(bot) == kept


async def test_extended_declares_its_difficulty_required_as_basic_does(fake_discord, bot):
    (group,) = [command for command in fake_discord.commands() if command["name"] == "test"]
    shown = {sub["name"]: {o["name"]: o for o in sub["options"]} for sub in group["options"]}
    extended_options, basic_options = shown["extended"], shown["basic"]
    assert sorted(name for name, o in extended_options.items() if o.get("required")) == ["difficulty", "task"]
    assert "target" not in extended_options and "choices" not in extended_options["difficulty"]
    same = ("type", "required", "autocomplete", "description", "min_length", "max_length")
    assert {key: extended_options["difficulty"].get(key) for key in same} == {
        key: basic_options["difficulty"].get(key) for key in same
    }
    with pytest.raises(CannotInvoke, match=r"needs option\(s\) \['difficulty'\]"):
        await fake_discord.slash("test extended", {"task": "Siege", "needed": 3, "rank": 2})
    hard = await fake_discord.autocomplete("test extended", {"task": "Siege", "difficulty": "har"}, "difficulty")
    assert [choice["value"] for choice in hard.choices] == ["Hard", "Very Hard"]
    number = await fake_discord.autocomplete("test extended", {"task": "Siege", "difficulty": "12"}, "difficulty")
    assert number.choices[0] == {"name": "12 (minimum rank 2)", "value": "12"}


async def test_extended_takes_a_difficulty_by_name_or_number_and_refuses_a_bad_one(fake_discord, bot):
    siege = {"task": "Siege", "needed": 9, "rank": 2}
    for bad, message in (("Trivial", "Unknown difficulty 'Trivial'"), ("61", "Difficulty 61 is out of range")):
        await refused(fake_discord, bot, "test extended", siege | {"difficulty": bad}, message)
    assert await stored_tasks(bot) == []
    by_name = await extended(fake_discord, bot, [6, 6], task="Siege", needed=9, rank=2, difficulty="routine")
    assert below_title(by_name)[0] == "Seven Kingdoms extended · 2D vs Routine (6)"  # 12 vs 6: 2 degrees
    by_number = await extended(fake_discord, bot, [6, 6], task="Siege", rank=2, difficulty="9")
    assert below_title(by_number)[0] == "Seven Kingdoms extended · 2D vs Challenging (9)"
    assert field(by_number, "Progress") == "**Siege**: ▰▰▰▱▱▱▱▱▱ 3/9 — 6 to go"  # 12 vs 9: 1 degree


async def test_tasks_are_kept_per_channel_and_can_be_cleared(fake_discord, bot):
    await extended(fake_discord, bot, [6], task="Court intrigue", needed=3, rank=1, difficulty="3")  # 1 degree
    elsewhere = await fake_discord.slash("test progress", channel=TAVERN)
    assert elsewhere.embed["title"] == "📋 No extended tests here"
    await refused(fake_discord, bot, "test extended", {"task": "Court intrigue", "rank": 1, "difficulty": "3"},
                  "There is no extended test", channel=TAVERN)
    here = await fake_discord.slash("test progress", {"private": True})
    assert here.ephemeral and "**Court intrigue**: ▰▱▱ 1/3 — 2 to go" in here.embed["description"]

    asked = await fake_discord.slash("test clear", {"task": "court INTRIGUE"})
    cleared = await fake_discord.click(asked, label="Clear it")
    assert cleared.type == 7 and cleared.content == 'Cleared "Court intrigue".'
    assert cleared.followups[0]["content"].endswith('cleared the extended test "Court intrigue" (1/3) in this channel.')
    assert await stored_tasks(bot) == []
    again = await fake_discord.slash("test clear", {"task": "Court intrigue"})
    assert again.ephemeral and 'There is no extended test named "Court intrigue"' in again.content


def test_the_progress_bar_scales_to_twenty_marks_and_is_full_only_when_complete():
    from cogs.sevenkingdoms.card import progress_line, render_tasks

    assert progress_line("Siege", 30, 50, speak("en")) == "**Siege**: " + "▰" * 12 + "▱" * 8 + " 30/50 — 20 to go"
    assert progress_line("Siege", 49, 50, speak("en")).count("▰") == 19
    assert progress_line("Siege", 53, 50, speak("en")) == "**Siege**: " + "▰" * 20 + " 53/50 — complete!"
    many = render_tasks([(f"Task {'x' * 90} {i}", i, 50) for i in range(60)], None, speech=EN)
    assert len(many) <= 6000 and many.description.endswith("more")


async def test_task_and_character_names_are_shown_as_typed(fake_discord, bot):
    """A task or a participant named with Markdown or a link is shown as typed, never as formatting."""
    dice = use_faces(bot, 6, 6, 6)
    options = {"task": "**Won** [here](https://evil.example)", "needed": 5, "rank": 3, "difficulty": "3"}
    reply = await fake_discord.slash("test extended", options)
    dice.finish()
    escaped = "\\*\\*Won\\*\\* \\[here](https://evil.example)"
    assert escaped not in reply.embed["title"] + reply.embed["description"]  # the task is named under Progress
    assert field(reply.embed, "Progress").startswith(f"**{escaped}**:")
    dice = use_faces(bot, 6, 1)
    reply = await fake_discord.slash("test competition", {"participants": "**Ned** 1D, Cat_ 1D"})
    dice.finish()
    assert "\\*\\*Ned\\*\\*" in reply.embed["title"] + "".join(f["name"] for f in reply.embed["fields"])
    assert all("**Ned**" not in f["name"] for f in reply.embed["fields"])
