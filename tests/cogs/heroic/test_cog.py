"""/heroic end to end through the fake Discord, and the walk over every command of the rules cogs."""

from __future__ import annotations

import pytest

from rules.dice import FixedDice
from tests.bot.embeds import below_title, field, give_faces, odds
from tests.fakediscord import CannotInvoke

EPHEMERAL = 64
STRING, INTEGER, SUBCOMMAND = 3, 4, 1
MY_COGS = ("cogs.hex.cog", "cogs.heroic.cog", "cogs.sevenkingdoms.cog")


@pytest.fixture
async def bot(start_bot):
    return await start_bot(extensions=("cogs.heroic.cog",))


def use_faces(bot, *faces: int) -> FixedDice:
    return give_faces(bot, "Heroic", *faces)


async def test_a_task_against_a_named_difficulty(fake_discord, bot):
    dice = use_faces(bot, 4, 5)
    reply = await fake_discord.slash("heroic difficulty", {"skill": 3, "difficulty": "easy"})
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "✅ Success" and "author" not in embed
    assert embed["description"] == "Heroic · 2d6 + Skill 3 · task · TN 8 (Easy)"
    assert field(embed, "Dice") == "`4` `5` + Skill 3 = **12** vs TN 8"
    # 2d6 + 3 reaches TN 8 with a natural 5 or more: 1 - 6/36 = 30/36 ≈ 83%; a natural 5 ties: 4/36 ≈ 11%
    assert odds(embed) == "Odds: success 83% (incl. crit 3%, complication 11%) · fumble 3%"


async def test_a_tie_with_the_tn_succeeds_with_a_complication(fake_discord, bot):
    use_faces(bot, 3, 2)
    reply = await fake_discord.slash("heroic tn", {"skill": 5, "tn": 10})
    assert reply.embed["title"] == "⚠️ Success, with a complication" and reply.embed["color"] == 0xC27C0E
    assert field(reply.embed, "Dice").endswith("= **10** vs TN 10")


async def test_an_opposed_d20_roll_crits_on_a_natural_twenty(fake_discord, bot):
    dice = use_faces(bot, 20)
    reply = await fake_discord.slash("heroic versus", {"skill": 0, "versus": 25, "dice": "d20", "kind": "dodge"})
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "⭐ Critical success · one free action"
    assert embed["description"] == "Heroic · d20 + Skill 0 · reaction: Dodge (Agility) · TN 34 (9 + opposing Skill 25)"
    assert field(embed, "Dice") == "`20`⭐ + Skill 0 = **20** vs TN 34"


async def test_a_fumbled_attack_rolls_the_combat_fumble_table(fake_discord, bot):
    dice = use_faces(bot, 1, 1, 2)  # double 1, then the Combat Fumble d6: 2 injures an ally
    options = {"skill": 9, "difficulty": "basic", "kind": "attack", "damage": 7}
    reply = await fake_discord.slash("heroic difficulty", options)
    dice.finish()
    assert reply.embed["title"] == "💀 Fumble · injures an ally" and reply.embed["color"] == 0xA855F7
    assert below_title(reply.embed)[1:] == [
        "Combat Fumble table `2`: the Hero accidentally injures an ally nearby for half damage.",
        "Half damage **3.5** (half of 7)",
    ]
    assert field(reply.embed, "Dice").startswith("`1`💀 `1`💀 + Skill 9")


async def test_a_d12_crit_on_an_attack_doubles_the_damage(fake_discord, bot):
    use_faces(bot, 12)
    reply = await fake_discord.slash("heroic difficulty", {"skill": 1, "difficulty": "insane", "dice": "d12",
                                                "kind": "attack", "damage": 6})
    assert reply.embed["title"] == "⭐ Critical success · double damage"
    assert below_title(reply.embed)[1:] == ["Damage dealt **12** (2 × 6)"]


async def test_private_and_note(fake_discord, bot):
    use_faces(bot, 6, 6)
    reply = await fake_discord.slash("heroic tn", {"skill": 2, "tn": 9, "private": True, "note": "Climb the wall"})
    assert reply.callback["data"]["flags"] == EPHEMERAL and reply.ephemeral
    assert reply.embed["title"].startswith("⭐ Critical success")
    assert below_title(reply.embed)[1] == "> Climb the wall"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"skill": 4, "tn": 12, "damage": 5}, "Damage counts only for an attack or a reaction"),
        ({"skill": 4, "tn": 12, "kind": "spell", "damage": 5}, "Damage counts only for an attack or a reaction"),
    ],
)
async def test_bad_inputs_are_answered_privately_and_roll_nothing(fake_discord, bot, options, message):
    dice = use_faces(bot)
    reply = await fake_discord.slash("heroic tn", options)
    assert reply.ephemeral and message in reply.content and reply.embeds == []
    dice.finish()


async def test_discord_refuses_what_the_options_do_not_offer(fake_discord, bot):
    with pytest.raises(CannotInvoke, match="outside"):
        await fake_discord.slash("heroic tn", {"skill": 31, "tn": 10})
    with pytest.raises(CannotInvoke, match="not one of the choices"):
        await fake_discord.slash("heroic tn", {"skill": 3, "tn": 10, "dice": "d8"})
    with pytest.raises(CannotInvoke, match="not one of the choices"):
        await fake_discord.slash("heroic tn", {"skill": 3, "tn": 10, "kind": "reaction"})
    in_a_dm = await fake_discord.slash("heroic tn", {"skill": 3, "tn": 10}, dm=True)  # played anywhere (issue 22)
    assert in_a_dm.type == 4 and in_a_dm.embed is not None, in_a_dm.describe()


async def test_each_way_of_giving_the_target_is_a_sub_command_whose_target_is_required(fake_discord, bot):
    (heroic,) = [command for command in fake_discord.commands() if command["name"] == "heroic"]
    required = {
        sub["name"]: sorted(o["name"] for o in sub["options"] if o.get("required")) for sub in heroic["options"]
    }
    assert required == {"difficulty": ["difficulty", "skill"], "tn": ["skill", "tn"], "versus": ["skill", "versus"]}
    with pytest.raises(CannotInvoke, match=r"needs option\(s\) \['tn'\]"):
        await fake_discord.slash("heroic tn", {"skill": 4})  # Discord's client does not send it without a TN


def leaf_options(command: dict):
    """(path, option) for every option of a command, through its subcommands."""
    for option in command.get("options") or []:
        if option["type"] == SUBCOMMAND:
            for inner in option.get("options") or []:
                yield f"/{command['name']} {option['name']}", inner
        else:
            yield f"/{command['name']}", option


async def test_every_command_and_option_is_described_and_bounded(fake_discord, start_bot):
    await start_bot(extensions=MY_COGS)
    commands = {command["name"]: command for command in fake_discord.commands()}
    assert set(commands) == {"hex", "heroic", "test"}
    subcommands = {name: {o["name"] for o in c.get("options") or [] if o["type"] == SUBCOMMAND}
                   for name, c in commands.items()}
    assert subcommands == {
        "hex": {"test", "contest", "cast", "plain"},
        "heroic": {"difficulty", "tn", "versus"},
        "test": {"basic", "conflict", "competition", "extended", "progress", "clear"},
    }
    walked = 0
    for command in commands.values():
        assert command["contexts"] == [0, 1, 2] and command["integration_types"] == [0, 1], command["name"]
        assert command["description"] and command["description"] != "…"
        for option in command.get("options") or []:
            assert option["description"] and option["description"] != "…"
        for path, option in leaf_options(command):
            walked += 1
            assert option["description"] and option["description"] != "…", f"{path} {option['name']}"
            if option["type"] == INTEGER and not option.get("choices"):
                assert "min_value" in option and "max_value" in option, f"{path} {option['name']}"
            if option["type"] == STRING and not option.get("choices"):
                assert "max_length" in option, f"{path} {option['name']}"
    assert walked > 60
    options_of: dict[str, set[str]] = {}
    for command in commands.values():
        for path, option in leaf_options(command):
            options_of.setdefault(path, set()).add(option["name"])
    rolls = set(options_of) - {"/test progress", "/test clear"}
    assert len(rolls) == 11  # /heroic has a sub-command per way of giving the target
    for path in rolls:
        assert {"private", "note"} <= options_of[path], path
