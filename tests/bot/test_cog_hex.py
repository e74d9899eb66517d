"""/hex end to end: the real discord.py bot on the fake Discord, with fixed dice faces."""

from __future__ import annotations

import pytest

from rules.dice import FixedDice
from tests.bot.embeds import field, give_faces
from tests.fakediscord import ALICE, BOB, CannotInvoke

EPHEMERAL = 64


@pytest.fixture
async def bot(start_bot):
    return await start_bot(extensions=("cogs.hex",))


def use_faces(bot, *faces: int) -> FixedDice:
    return give_faces(bot, "Hex", *faces)


async def test_a_test_reads_the_hazard_dice_first_and_shows_damage_and_odds(fake_discord, bot):
    dice = use_faces(bot, 6, 2, 6, 1)  # Hazard Dice 6 and 2, then the rest of the pool: 6 and 1
    reply = await fake_discord.slash("hex test", {"attribute": 3, "skill": 1, "dv": 5}, user=BOB)
    dice.finish()
    embed = reply.embed
    assert not reply.ephemeral and embed["author"]["name"] == "Bob"
    assert embed["title"] == "HEX test · Pool 4"
    assert embed["description"].startswith("**Test succeeds — 2 successes, MoS 1**")
    assert "Damage **6** (DV 5 + MoS 1)" in embed["description"]
    assert field(embed, "Dice") == "Hazard: `6`⚔ `2` · Pool: `6`⚔ `1`"
    # 4 dice: P(a 6) = 1 - (5/6)^4 = 671/1296 ≈ 52%; Mishap = (1/6)^2 (both Hazard Dice 1) × (5/6)^2 ≈ 2%
    assert field(embed, "Odds") == "Chance: 52% · Mishap: 2%"


async def test_a_mishap_needs_no_six_and_every_hazard_die_on_one(fake_discord, bot):
    use_faces(bot, 1, 1, 2, 3)
    reply = await fake_discord.slash("hex test", {"attribute": 2, "skill": 2})
    assert reply.embed["description"].startswith("**Test fails — no 6**")
    assert "**Mishap**" in reply.embed["description"]
    assert field(reply.embed, "Dice") == "Hazard: `1`☠ `1`☠ · Pool: `2` `3`"


async def test_an_advancement_succeeds_without_a_roll(fake_discord, bot):
    dice = use_faces(bot)  # no faces at all: nothing may be rolled
    reply = await fake_discord.slash("hex test", {"attribute": 1, "complications": 3, "advancement": True})
    dice.finish()
    assert reply.embed["description"].startswith("**Automatic success (Advancement spent)")
    assert field(reply.embed, "Odds").startswith("Chance: 100%")


async def test_a_required_test_with_no_dice_fails_automatically(fake_discord, bot):
    use_faces(bot)
    reply = await fake_discord.slash("hex test", {"attribute": 1, "complications": 2, "required": True})
    assert "fails automatically — no dice remain (required)" in reply.embed["description"]
    assert field(reply.embed, "Dice") == "Nullified: pool -1, nothing rolled"


async def test_a_contest_reads_the_acting_pool_then_the_opposing_pool(fake_discord, bot):
    dice = use_faces(bot, 6, 3, 6, 6, 2, 1)  # acting 3 dice (6 3 6), opposing 3 dice (6 2 1)
    reply = await fake_discord.slash("hex contest", {"attribute": 2, "skill": 1, "opposing": 3, "dv": 2})
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "HEX contest · Pool 3 vs opposing pool 3"
    assert embed["description"].startswith("**Test succeeds — 2 vs 1, MoS 1**")
    assert field(embed, "Acting side") == "Hazard: `6`⚔ `3` · Pool: `6`⚔"
    assert field(embed, "Opposing side") == "Hazard: `6`⚔ `2` · Pool: `1`"
    assert "Damage **3**" in embed["description"]
    assert field(embed, "Odds").startswith("Chance to win: ")


async def test_the_opposition_needs_strictly_more_sixes(fake_discord, bot):
    use_faces(bot, 2, 3, 6, 6)
    reply = await fake_discord.slash("hex contest", {"attribute": 2, "opposing": 2})
    assert reply.embed["description"].startswith("**The opposition wins — 2 vs 0, MoS 2**")


async def test_a_cast_designates_affinity_and_control_dice_and_loses_control(fake_discord, bot):
    dice = use_faces(bot, 2, 1, 3, 4, 5)  # Affinity 2, Control 1 and 3 (Risk 2), then 4 and 5
    reply = await fake_discord.slash("hex cast", {"attribute": 3, "skill": 2, "risk": 2})
    dice.finish()
    embed = reply.embed
    assert embed["title"] == "HEX cast · Pool 5, Risk 2"
    assert field(embed, "Dice") == "Affinity: `2` · Control: `1`☠ `3` · Pool: `4` `5`"
    assert "**Loss of control**" in embed["description"]
    assert "loss of control:" in field(embed, "Odds")


async def test_a_resisted_cast_rolls_the_opposing_pool_after_the_caster(fake_discord, bot):
    dice = use_faces(bot, 6, 2, 3, 3)  # caster: Affinity 6, Control 2; resistance: 3 3
    reply = await fake_discord.slash("hex cast", {"attribute": 2, "risk": 1, "opposing": 2})
    dice.finish()
    assert reply.embed["description"].startswith("**Cast succeeds — 1 vs 0, MoS 1**")
    assert field(reply.embed, "Opposing side") == "Hazard: `3` `3`"


async def test_a_plain_roll_counts_sixes_and_has_odds(fake_discord, bot):
    dice = use_faces(bot, 6, 1, 6)
    reply = await fake_discord.slash("hex plain", {"dice": 3})
    dice.finish()
    assert reply.embed["description"].startswith("**2 successes**")
    assert field(reply.embed, "Dice") == "`6`⚔ `1` `6`⚔"
    # 3 dice: P(at least one 6) = 1 - (5/6)^3 = 91/216 ≈ 42%; expected 6s = 3/6
    assert field(reply.embed, "Odds") == "At least one 6: 42% · expected 6s: 0.50"


async def test_private_rolls_are_ephemeral_and_notes_are_shown(fake_discord, bot):
    use_faces(bot, 6, 6)
    reply = await fake_discord.slash("hex plain", {"dice": 2, "private": True, "note": "Initiative"})
    assert reply.callback["data"]["flags"] == EPHEMERAL and reply.ephemeral
    assert reply.embed["description"].startswith("> Initiative\n")
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
    with pytest.raises(CannotInvoke, match="cannot be used in DMs"):
        await fake_discord.slash("hex plain", {"dice": 2}, user=ALICE, dm=True)
