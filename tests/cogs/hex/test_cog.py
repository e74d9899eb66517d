"""/hex end to end: the real discord.py bot on the fake Discord, with fixed dice faces."""

from __future__ import annotations

import pytest

from rules.dice import FixedDice
from tests.bot.embeds import below_title, field, give_faces, odds
from tests.fakediscord import ALICE, BOB, CannotInvoke

EPHEMERAL = 64


@pytest.fixture
async def bot(start_bot):
    return await start_bot(extensions=("cogs.hex.cog",))


def use_faces(bot, *faces: int) -> FixedDice:
    return give_faces(bot, "Hex", *faces)


async def test_a_test_reads_the_hazard_dice_first_and_shows_damage_and_odds(fake_discord, bot):
    dice = use_faces(bot, 6, 2, 6, 1)  # Hazard Dice 6 and 2, then the rest of the pool: 6 and 1
    reply = await fake_discord.slash("hex test", {"attribute": 3, "skill": 1, "dv": 5}, user=BOB)
    dice.finish()
    embed = reply.embed
    assert not reply.ephemeral and "author" not in embed  # Discord shows who used the command
    assert embed["title"] == "✅ Test succeeds · 2 successes · MoS 1"
    assert below_title(embed) == ["HEX test · pool 4", "Damage **6** (DV 5 + MoS 1)"]
    assert field(embed, "Dice") == "Hazard: `6`⚔ `2` · Other dice: `6`⚔ `1`"
    # 4 dice: P(a 6) = 1 - (5/6)^4 = 671/1296 ≈ 52%; Mishap = (1/6)^2 (both Hazard Dice 1) × (5/6)^2 ≈ 2%
    assert odds(embed) == "Odds: success 52% · Mishap 2%"
    assert embed["color"] == 0x1F9D55


async def test_a_mishap_needs_no_six_and_every_hazard_die_on_one(fake_discord, bot):
    use_faces(bot, 1, 1, 2, 3)
    reply = await fake_discord.slash("hex test", {"attribute": 2, "skill": 2})
    assert reply.embed["title"] == "💀 Mishap · test fails"
    assert "💀 Your Mishap: no 6 and every Hazard Die shows 1" in reply.embed["description"]
    assert field(reply.embed, "Dice") == "Hazard: `1`☠ `1`☠ · Other dice: `3` `2`"
    assert reply.embed["color"] == 0xA855F7


async def test_an_advancement_succeeds_without_a_roll(fake_discord, bot):
    dice = use_faces(bot)  # no faces at all: nothing may be rolled
    reply = await fake_discord.slash("hex test", {"attribute": 1, "complications": 3, "advancement": True})
    dice.finish()
    assert reply.embed["title"] == "✅ Test succeeds · Advancement spent"
    assert odds(reply.embed) == "Odds: success 100%" and "fields" not in reply.embed


async def test_a_required_test_with_no_dice_fails_automatically(fake_discord, bot):
    use_faces(bot)
    reply = await fake_discord.slash("hex test", {"attribute": 1, "complications": 2, "required": True})
    assert reply.embed["title"] == "❌ Test fails · no dice remain (required)"
    assert below_title(reply.embed) == ["HEX test · pool -1"] and "fields" not in reply.embed


async def test_a_contest_reads_the_acting_pool_then_the_opposing_pool(fake_discord, bot):
    dice = use_faces(bot, 6, 3, 6, 6, 2, 1)  # acting 3 dice (6 3 6), opposing 3 dice (6 2 1)
    reply = await fake_discord.slash("hex contest", {"attribute": 2, "skill": 1, "opposing": 3, "dv": 2})
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "✅ You win: you 2 – 1 them · MoS 1"
    assert below_title(embed) == ["HEX contest · your pool 3 vs their pool 3", "Damage **3** (DV 2 + MoS 1)"]
    assert field(embed, "You · 2 successes") == "Hazard: `6`⚔ `3` · Other dice: `6`⚔"
    assert field(embed, "Them · 1 success") == "Hazard: `6`⚔ `2` · Other dice: `1`"  # they won nothing: no ☠ to fear
    assert odds(embed).startswith("Odds: you win ") and "their Mishap" in odds(embed)


async def test_the_opposition_needs_strictly_more_sixes(fake_discord, bot):
    use_faces(bot, 2, 3, 6, 6)
    reply = await fake_discord.slash("hex contest", {"attribute": 2, "opposing": 2})
    assert reply.embed["title"] == "❌ They win: you 0 – 2 them · MoS 2"


async def test_a_cast_designates_affinity_and_control_dice_and_loses_control(fake_discord, bot):
    dice = use_faces(bot, 2, 1, 3, 4, 5)  # Affinity 2, Control 1 and 3 (Risk 2), then 4 and 5
    reply = await fake_discord.slash("hex cast", {"attribute": 3, "skill": 2, "risk": 2})
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "💀 Loss of control · cast fails"
    assert below_title(embed)[0] == "HEX cast · pool 5 · Risk 2"
    assert field(embed, "Dice") == "Affinity: `2` · Control: `1`☠ `3` · Other dice: `5` `4`"
    assert "loss of control " in odds(embed)


async def test_a_resisted_cast_rolls_the_opposing_pool_after_the_caster(fake_discord, bot):
    dice = use_faces(bot, 6, 2, 3, 3)  # caster: Affinity 6, Control 2; resistance: 3 3
    reply = await fake_discord.slash("hex cast", {"attribute": 2, "risk": 1, "opposing": 2})
    dice.finish()
    assert reply.embed["title"] == "✅ You win: you 1 – 0 them · MoS 1"
    assert field(reply.embed, "Them · 0 successes") == "Hazard: `3` `3`"


async def test_a_plain_roll_counts_sixes_and_has_odds(fake_discord, bot):
    dice = use_faces(bot, 6, 1, 6)
    reply = await fake_discord.slash("hex plain", {"dice": 3})
    dice.finish()
    assert reply.embed["title"] == "🎲 2 successes"
    assert field(reply.embed, "Dice") == "`6`⚔ `6`⚔ `1`"
    # 3 dice: P(at least one 6) = 1 - (5/6)^3 = 91/216 ≈ 42%; expected 6s = 3/6
    assert odds(reply.embed) == "Odds: at least one 6 42% · expected 6s 0.5"


async def test_private_rolls_are_ephemeral_and_notes_are_shown(fake_discord, bot):
    use_faces(bot, 6, 6)
    reply = await fake_discord.slash("hex plain", {"dice": 2, "private": True, "note": "Initiative"})
    assert reply.callback["data"]["flags"] == EPHEMERAL and reply.ephemeral
    assert below_title(reply.embed)[1] == "> Initiative"
    use_faces(bot, 6, 6)
    public = await fake_discord.slash("hex test", {"attribute": 2, "note": "Pick the lock"})
    assert not public.ephemeral and "> Pick the lock" in public.embed["description"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"attribute": 3, "skill": 1, "specialty": 2}, "Specialty 2 cannot exceed Skill 1"),
        ({"attribute": 3, "specialty": 1}, "a Specialty needs its parent Skill rated at least 1"),
        ({"attribute": 1, "complications": 1}, "a voluntary action cannot be attempted"),
    ],
)
async def test_bad_inputs_get_a_private_message_and_roll_nothing(fake_discord, bot, options, message):
    dice = use_faces(bot)  # any die rolled would raise and show the generic message instead
    reply = await fake_discord.slash("hex test", options)
    assert reply.ephemeral and message in reply.content and reply.embeds == []
    dice.finish()


async def test_discord_itself_refuses_values_outside_the_bounds_and_dms(fake_discord, bot):
    for options in ({"attribute": 13}, {"attribute": 2, "gear": 4}, {"attribute": 2, "complications": 21}):
        with pytest.raises(CannotInvoke, match="outside"):
            await fake_discord.slash("hex test", options)
    with pytest.raises(CannotInvoke, match="outside"):
        await fake_discord.slash("hex cast", {"attribute": 2, "risk": 6})
    with pytest.raises(CannotInvoke, match=r"needs option\(s\) \['opposing'\]"):
        await fake_discord.slash("hex contest", {"attribute": 2})
    in_a_dm = await fake_discord.slash("hex plain", {"dice": 2}, user=ALICE, dm=True)  # played anywhere (issue 22)
    assert in_a_dm.type == 4 and in_a_dm.embed is not None, in_a_dm.describe()
