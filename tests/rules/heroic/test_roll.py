"""Heroic Rolls: the seed's worked examples, every RULES.md ruling, bad input, and properties."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import Die, FixedDice, Role, SeededDice
from rules.errors import FacesError, InvalidInput, RulesError
from rules.heroic.roll import Consequence, Outcome, TargetSource, combat_fumble_entry, consequence_of, roll_heroic
from rules.heroic.tables import Difficulty, Kind, Variant


def roll(skill, faces, **options):
    """Roll with fixed faces and check every face was used."""
    dice = FixedDice(faces)
    result = roll_heroic(skill, dice, **options)
    dice.finish()
    return result


# --- The seed's worked examples -------------------------------------------------------------------------


def test_hawkeye_tracks_the_goblins_easy_8():
    result = roll(7, [4, 6], difficulty="Easy")
    assert (result.total, result.tn, result.outcome) == (17, 8, Outcome.SUCCESS)
    assert result.dice == (Die(6, 4, Role.BASE), Die(6, 6, Role.BASE))
    assert result.natural == 10 and result.succeeded


def test_lenny_misses_the_hidden_door_very_hard_14():
    result = roll(4, [2, 5], difficulty="Very Hard")
    assert (result.total, result.tn, result.outcome) == (11, 14, Outcome.FAILURE)
    assert not result.succeeded


def test_zoltan_deciphers_with_a_complication_heroic_16():
    result = roll(6, [4, 6], difficulty="heroic")
    assert (result.total, result.tn) == (16, 16)
    assert result.outcome is Outcome.SUCCESS_WITH_COMPLICATION and result.succeeded


def test_wolfgar_hits_the_giant_spider_versus_agility_6():
    result = roll(7, [2, 6], versus=6, kind="attack")
    assert (result.total, result.tn, result.outcome) == (15, 13, Outcome.SUCCESS)
    assert result.target.source is TargetSource.VERSUS and result.target.versus == 6


def test_hawkeye_shoots_the_flabby_orc_versus_agility_2():
    result = roll(7, [3, 3], versus=2, kind="attack")
    assert (result.total, result.tn, result.outcome) == (13, 9, Outcome.SUCCESS)


def test_hagrim_fails_to_blind_the_dragon_versus_magic_resistance_9():
    result = roll(4, [2, 3], versus=9, kind="spell")
    assert (result.total, result.tn, result.outcome) == (9, 16, Outcome.FAILURE)
    assert result.consequence is None


@pytest.mark.parametrize(
    ("kind", "versus", "tn", "skill_name"),
    [
        ("parry", 4, 11, "Sword-Play"),  # Shamara parries the Starving Wolf's Brawl 4
        ("shield_block", 6, 13, "Endurance"),  # Sir Balin blocks the Rampaging Ogre's Sword-play 6
        ("resist_magic", 6, 13, "Magic Resistance"),  # Lilith resists the Undead Sorcerer's Magic 6
    ],
)
def test_reaction_target_numbers_of_the_seed(kind, versus, tn, skill_name):
    result = roll(3, [3, 4], versus=versus, kind=kind)
    assert result.tn == tn
    assert result.kind.governing_skill == skill_name
    assert result.kind.is_reaction


def test_hawkeye_double_six_crit_doubles_damage():
    result = roll(7, [6, 6], tn=60, kind="attack", damage=8)
    assert result.outcome is Outcome.CRIT
    assert result.consequence is Consequence.DOUBLE_DAMAGE
    assert result.damage_dealt == 16 and result.damage_taken is None
    assert "16" in result.consequence_text and "double damage" in result.consequence_text


def test_hawkeye_double_one_fumbles_and_drops_the_longbow_on_a_3():
    result = roll(7, [1, 1, 3], versus=0, kind="attack")  # 9 would beat TN 7: the Fumble overrides it
    assert result.outcome is Outcome.FUMBLE
    assert result.fumble_table == Die(6, 3, Role.FUMBLE_TABLE)
    assert result.consequence is Consequence.DROPS_WEAPON
    assert "drops their weapon" in result.consequence_text
    assert result.all_dice == result.dice + (result.fumble_table,)


# --- Rulings --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "faces", "skill", "tn"),
    [("2d6", [3, 4], 3, 10), ("d12", [5], 5, 10), ("d20", [9], 5, 14)],
)
def test_a_tie_is_a_success_with_a_complication_in_every_variant(variant, faces, skill, tn):
    assert roll(skill, faces, tn=tn, variant=variant).outcome is Outcome.SUCCESS_WITH_COMPLICATION
    assert roll(skill, faces, tn=tn + 1, variant=variant).outcome is Outcome.FAILURE
    assert roll(skill, faces, tn=tn - 1, variant=variant).outcome is Outcome.SUCCESS


@pytest.mark.parametrize(
    ("variant", "crit", "fumble"), [("2d6", [6, 6], [1, 1]), ("d12", [12], [1]), ("d20", [20], [1])]
)
def test_crit_and_fumble_beat_the_tn_in_every_variant(variant, crit, fumble):
    assert roll(0, crit, tn=60, variant=variant).outcome is Outcome.CRIT
    assert roll(30, fumble, tn=1, variant=variant).outcome is Outcome.FUMBLE


@pytest.mark.parametrize(
    ("variant", "faces"), [("2d6", [6, 5]), ("2d6", [1, 2]), ("d12", [11]), ("d20", [19])]
)
def test_near_misses_of_crit_and_fumble_are_read_against_the_tn(variant, faces):
    assert roll(0, faces, tn=60, variant=variant).outcome is Outcome.FAILURE
    assert roll(30, faces, tn=1, variant=variant).outcome is Outcome.SUCCESS


TN_TABLE = {  # RULES.md section 3: (2d6 and d12, d20)
    "Basic": (4, 6),
    "Simple": (6, 8),
    "Easy": (8, 10),
    "Moderate": (10, 12),
    "Hard": (12, 14),
    "Very Hard": (14, 16),
    "Heroic": (16, 18),
    "Insane": (18, 20),
}


@pytest.mark.parametrize("name", TN_TABLE)
def test_difficulty_table_for_every_variant(name):
    low, d20 = TN_TABLE[name]
    assert roll(0, [2, 2], difficulty=name).tn == low
    assert roll(0, [2], difficulty=name, variant="d12").tn == low
    result = roll(0, [2], difficulty=name, variant="d20")
    assert result.tn == d20 and result.target.difficulty is Difficulty.parse(name)


@pytest.mark.parametrize("spelling", ["Very Hard", "very_hard", "very-hard", "VERY HARD", "  very   hard "])
def test_difficulty_spellings(spelling):
    assert Difficulty.parse(spelling) is Difficulty.VERY_HARD


@pytest.mark.parametrize(("variant", "base"), [("2d6", 7), ("d12", 7), ("d20", 9), ("D20", 9), ("1d12", 7)])
def test_versus_adds_the_opposing_skill(variant, base):
    sides = 6 if variant == "2d6" else int(variant.lower().split("d")[1])
    faces = [2, 2] if variant == "2d6" else [2]
    for versus in (0, 5, 30):
        assert roll(0, faces, versus=versus, variant=variant).tn == base + versus
    assert Variant.parse(variant).dice[1] == sides


def test_reactions_and_their_governing_skills():
    expected = {
        "block": ("Block", "Brawl"),
        "parry": ("Parry/Fend", "Sword-Play"),
        "shield_block": ("Shield Block", "Endurance"),
        "dodge": ("Dodge", "Agility"),
        "resist_magic": ("Resist Magic", "Magic Resistance"),
    }
    for name, (label, skill) in expected.items():
        kind = Kind.parse(name)
        assert (kind.reaction.name, kind.governing_skill) == (label, skill)
    assert Kind.REACTION.is_reaction and Kind.REACTION.governing_skill is None
    assert not any(k.is_reaction for k in (Kind.TASK, Kind.ATTACK, Kind.SPELL))
    assert Kind.parse("Shield Block") is Kind.SHIELD_BLOCK and Kind.parse("fend") is Kind.PARRY
    assert Kind.parse("Parry/Fend") is Kind.PARRY and Kind.parse("resist-magic") is Kind.RESIST_MAGIC


@pytest.mark.parametrize("kind", ["block", "parry", "shield_block", "dodge", "resist_magic", "reaction"])
def test_reaction_fumble_is_critical_damage_and_crit_a_free_action(kind):
    fumble = roll(30, [1, 1], tn=1, kind=kind, damage=5)
    assert fumble.consequence is Consequence.CRITICAL_DAMAGE and fumble.damage_taken == 10
    assert "10" in fumble.consequence_text
    crit = roll(0, [6, 6], tn=60, kind=kind, damage=5)
    assert crit.consequence is Consequence.FREE_ACTION and crit.damage_taken == 0
    assert "free action" in crit.consequence_text
    assert roll(0, [2, 3], tn=9, kind=kind, damage=5).damage_taken == 5  # the hit lands
    assert roll(4, [2, 3], tn=9, kind=kind, damage=5).damage_taken == 0  # a tie still avoids it
    assert roll(0, [2, 3], tn=9, kind=kind).damage_taken is None


@pytest.mark.parametrize(
    ("face", "entry", "half"),
    [
        (6, Consequence.FALLS_OVER, None),
        (5, Consequence.FALLS_OVER, None),
        (4, Consequence.DROPS_WEAPON, Fraction(7, 2)),
        (3, Consequence.DROPS_WEAPON, Fraction(7, 2)),
        (2, Consequence.INJURES_ALLY, Fraction(7, 2)),
        (1, Consequence.INJURES_SELF, Fraction(7, 2)),
    ],
)
def test_combat_fumble_table(face, entry, half):
    result = roll(5, [1, 1, face], tn=4, kind="attack", damage=7)
    assert result.consequence is entry and combat_fumble_entry(face) is entry
    assert result.half_damage == half and result.damage_dealt == 0
    assert ("3.5" in result.consequence_text) == (half is not None)  # no rounding of the half
    assert result.as_dict()["half_damage"] == (None if half is None else 3.5)


@pytest.mark.parametrize(("variant", "fumble"), [("d12", 1), ("d20", 1)])
def test_combat_fumble_is_rolled_in_the_one_die_variants_too(variant, fumble):
    result = roll(3, [fumble, 2], tn=4, kind="attack", variant=variant)
    assert result.consequence is Consequence.INJURES_ALLY and result.fumble_table.face == 2


def test_even_damage_halves_to_a_whole_number():
    result = roll(5, [1, 1, 1], tn=4, kind="attack", damage=8)
    assert (
        result.half_damage == 4
        and result.as_dict()["half_damage"] == 4
        and "is 4." in result.consequence_text
    )


def test_attack_damage_dealt_on_hit_miss_and_complication():
    assert roll(5, [3, 4], tn=10, kind="attack", damage=6).damage_dealt == 6
    # a tie is a hit, with a complication
    assert roll(5, [2, 3], tn=10, kind="attack", damage=6).damage_dealt == 6
    assert roll(5, [2, 2], tn=10, kind="attack", damage=6).damage_dealt == 0
    assert roll(5, [2, 2], tn=10, kind="attack").damage_dealt is None


def test_spell_fumble_points_to_the_miscast_table_and_no_fumble_die_is_rolled():
    result = roll(30, [1], tn=1, kind="spell", variant="d20")
    assert result.consequence is Consequence.SPELL_MISCAST
    assert "Spell Miscast Table" in result.consequence_text and result.fumble_table is None


def test_task_crit_and_fumble_have_no_consequence_and_roll_no_table():
    assert roll(0, [6, 6], tn=60).consequence is None
    assert roll(9, [1, 1], tn=2).consequence is None
    assert roll(9, [1, 1], tn=2).fumble_table is None


# --- Bad input ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "Give a target"),
        ({"difficulty": "easy", "tn": 8}, "not difficulty and tn"),
        ({"tn": 8, "versus": 2}, "not tn and versus"),
        ({"difficulty": "easy", "tn": 8, "versus": 1}, "not difficulty and tn and versus"),
        ({"difficulty": "tricky"}, "Unknown difficulty 'tricky'"),
        ({"tn": 0}, "TN 0 is out of range"),
        ({"tn": 61}, "TN 61 is out of range"),
        ({"versus": -1}, "Opposing Skill -1 is out of range"),
        ({"versus": 31}, "Opposing Skill 31 is out of range"),
        ({"tn": 8, "variant": "d10"}, "Unknown dice 'd10'"),
        ({"tn": 8, "kind": "sneak"}, "Unknown kind of roll 'sneak'"),
        ({"tn": 8, "kind": "attack", "damage": -1}, "Damage -1 is out of range"),
        ({"tn": 8, "damage": 4}, "Damage counts only for an attack or a reaction"),
        ({"tn": 8, "kind": "spell", "damage": 4}, "Damage counts only"),
    ],
)
def test_bad_input_is_a_clear_error(options, message):
    with pytest.raises(InvalidInput, match=message):
        roll_heroic(3, FixedDice([3, 3]), **options)


@pytest.mark.parametrize("skill", [-1, 31, True, 2.5, "7"])
def test_skill_bounds(skill):
    with pytest.raises(InvalidInput, match="Skill"):
        roll_heroic(skill, FixedDice([3, 3]), tn=8)


def test_bounds_are_inclusive():
    assert roll(0, [3, 3], versus=30).tn == 37
    assert roll(30, [3, 3], tn=60).total == 36 and roll(30, [3, 3], tn=1).tn == 1


def test_impossible_or_missing_faces():
    with pytest.raises(FacesError):
        roll_heroic(3, FixedDice([7, 1]), tn=8)
    with pytest.raises(FacesError, match="Not enough faces"):
        roll_heroic(3, FixedDice([1, 1]), tn=8, kind="attack")  # the Combat Fumble d6 is missing
    with pytest.raises(FacesError, match="used 2"):
        roll(3, [1, 1, 4], tn=8)  # a task Fumble rolls no table
    with pytest.raises(RulesError, match="Combat Fumble roll 7"):
        combat_fumble_entry(7)
    with pytest.raises(InvalidInput, match="needs its Combat Fumble roll"):
        consequence_of(Kind.ATTACK, Outcome.FUMBLE)
    assert consequence_of(Kind.ATTACK, Outcome.FUMBLE, 6) is Consequence.FALLS_OVER
    assert Difficulty.HARD.tn("d20") == 14 and Difficulty.HARD.tn() == 12


# --- Properties -----------------------------------------------------------------------------------------

variants = st.sampled_from(["2d6", "d12", "d20"])
kinds = st.sampled_from([k.value for k in Kind])


@settings(max_examples=200, deadline=None)
@given(skill=st.integers(0, 30), tn=st.integers(1, 60), variant=variants, kind=kinds, data=st.data())
def test_reading_follows_the_rules(skill, tn, variant, kind, data):
    count, sides = {"2d6": (2, 6), "d12": (1, 12), "d20": (1, 20)}[variant]
    faces = data.draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))
    table = data.draw(st.integers(1, 6))
    damage = None if kind in ("task", "spell") else 6
    dice = FixedDice([*faces, table])
    result = roll_heroic(skill, dice, tn=tn, variant=variant, kind=kind, damage=damage)
    assert [die.face for die in result.dice] == faces and result.total == sum(faces) + skill
    if all(f == sides for f in faces):
        assert result.outcome is Outcome.CRIT
    elif all(f == 1 for f in faces):
        assert result.outcome is Outcome.FUMBLE
    else:
        expected = {1: Outcome.SUCCESS, 0: Outcome.SUCCESS_WITH_COMPLICATION, -1: Outcome.FAILURE}
        assert result.outcome is expected[(result.total > tn) - (result.total < tn)]
    rolled_table = kind == "attack" and result.outcome is Outcome.FUMBLE
    assert dice.used == count + rolled_table
    assert result.all_dice == result.dice + ((Die(6, table, Role.FUMBLE_TABLE),) if rolled_table else ())
    assert result.succeeded == (result.outcome not in (Outcome.FAILURE, Outcome.FUMBLE))
    assert (result.consequence is None) == (
        kind == "task"
        or result.outcome not in (Outcome.CRIT, Outcome.FUMBLE)
        or (kind == "spell" and result.outcome is Outcome.CRIT)
    )
    json.dumps(result.as_dict())


@settings(max_examples=100, deadline=None)
@given(skill=st.integers(0, 30), versus=st.integers(0, 30), variant=variants, damage=st.integers(0, 9999))
def test_damage_figures_stay_within_double(skill, versus, variant, damage):
    seed = skill * 31 + versus
    attack = roll_heroic(
        skill, SeededDice(seed), versus=versus, variant=variant, kind="attack", damage=damage
    )
    assert attack.damage_dealt in (0, damage, 2 * damage)
    assert (attack.damage_dealt == 2 * damage and damage > 0) <= (attack.outcome is Outcome.CRIT)
    dodge = roll_heroic(skill, SeededDice(seed), versus=versus, variant=variant, kind="dodge", damage=damage)
    expected = 0 if dodge.succeeded else 2 * damage if dodge.outcome is Outcome.FUMBLE else damage
    assert dodge.damage_taken == expected
