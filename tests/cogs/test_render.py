"""The renderers: readable dice, the right outcome line, and Discord's embed limits at the extremes."""

import importlib
import inspect
import pkgutil
import typing
from fractions import Fraction

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.render
import cogs
from bot.render.common import EMBED_TOTAL, LEFT_OUT, SUCCESS_MARK, Card, Tones, embed
from cogs.heroic import card as render_heroic
from cogs.hex import card as render_hex
from cogs.sevenkingdoms import card as render_sk
from cogs.yearzero import card as render_yz
from rules.dice import FixedDice, SeededDice
from rules.heroic import roll as heroic
from rules.heroic.odds import odds_for_heroic
from rules.hex import roll as hex
from rules.hex.odds import odds_for_cast, odds_for_contest, odds_for_test
from rules.hex.pool import HexPool
from rules.language import ENGLISH, speak
from rules.sevenkingdoms import roll as sevenkingdoms
from rules.sevenkingdoms.competition import parse_participants, roll_competition
from rules.sevenkingdoms.odds import competition_odds
from rules.sevenkingdoms.odds import odds_for_test as sk_odds
from rules.yearzero import roll as yearzero
from rules.yearzero.odds import odds_after_first, odds_for_roll

EN = speak(ENGLISH)


def text_of(embed) -> str:
    return "\n".join([embed.title or "", embed.description or ""] + [f"{f.name}\n{f.value}" for f in embed.fields])


@pytest.mark.parametrize(
    ("value", "shown"),
    [(Fraction(0), "0%"), (Fraction(1, 1000), "<1%"), (Fraction(42, 100), "42%"), (Fraction(999, 1000), ">99%"),
     (Fraction(1), "100%")],
)
def test_percent_never_rounds_a_possibility_away(value, shown):
    assert EN.percent(value) == shown


def test_hex_mishap_shows_skulls_on_hazard_dice_only():
    result = hex.roll_test(HexPool(attribute=4), FixedDice([1, 1, 1, 2]))
    embed = render_hex.render_result(result, odds_for_test(4), speech=EN)
    assert embed.fields[0].value == "Hazard: `1`☠ `1`☠ · Other dice: `2` `1`"
    assert embed.title == "💀 Mishap · test fails" and "Your Mishap" in embed.description
    assert embed.footer.text == "Odds: success 52% · Mishap 2%"


def test_hex_a_one_on_a_hazard_die_of_a_success_is_no_skull():
    result = hex.roll_test(4, FixedDice([1, 1, 6, 2]))
    assert render_hex.render_result(result, None, speech=EN).fields[0].value == "Hazard: `1` `1` · Other dice: `6`⚔ `2`"
    lost_with_a_six = hex.roll_contest(3, 2, FixedDice([1, 1, 6, 6, 6]))  # you 1 – 2 them: a 6, so no Mishap
    shown = render_hex.render_result(lost_with_a_six, None, speech=EN)
    assert shown.fields[0].value == "Hazard: `1` `1` · Other dice: `6`⚔"


def test_hex_cast_groups_affinity_and_control():
    result = hex.roll_cast(HexPool(attribute=3, skill=1), 2, FixedDice([1, 2, 3, 4]))
    embed = render_hex.render_result(result, odds_for_cast(4, 2), speech=EN)
    assert embed.fields[0].value == "Affinity: `1`☠ · Control: `2` `3` · Other dice: `4`"
    assert embed.title == "❌ Fizzle · cast fails" and "harmless fizzle" in embed.description


def test_hex_success_marks_every_six():
    result = hex.roll_test(HexPool(attribute=6, skill=6), SeededDice(3))
    embed = render_hex.render_result(result, None, speech=EN)
    assert embed.fields[0].value.count(SUCCESS_MARK) == result.successes


def test_hex_contest_reads_acting_side_first_whoever_wins():
    lost = render_hex.render_result(hex.roll_contest(2, 2, FixedDice([2, 3, 6, 6])), odds_for_contest(2, 2), speech=EN)
    assert lost.title == "❌ They win: you 0 – 2 them · MoS 2"
    assert [field.name for field in lost.fields] == ["You · 0 successes", "Them · 2 successes"]
    assert lost.footer.text.startswith("Odds: you win ")
    tie = render_hex.render_result(hex.roll_contest(2, 2, FixedDice([2, 3, 4, 5])), None, speech=EN)
    assert tie.title == "✅ You win: you 0 – 0 them · MoS 0"
    assert tie.description.splitlines() == [
        "HEX contest · your pool 2 vs their pool 2", "A tie: ties go to the acting side."
    ]


def test_hex_large_pools_are_summed_by_their_sixes():
    faces = [6] * 7 + [3] * 36
    result = hex.roll_test(45, FixedDice([2, 4, *faces]))
    shown = render_hex.render_result(result, None, speech=EN)
    assert shown.fields[0].value == "Hazard: `2` `4` · 43 other dice: 7 sixes ⚔"
    plain = render_hex.render_plain(hex.roll_plain(45, FixedDice([1, 5, *faces])), None, speech=EN)
    assert plain.fields[0].value == "45 dice: 7 sixes ⚔"
    small = render_hex.render_plain(hex.roll_plain(4, FixedDice([2, 6, 1, 5])), None, speech=EN)
    assert small.fields[0].value == "`6`⚔ `5` `2` `1`"  # sorted, no skull: nothing here can be a Mishap


def test_yz_pushed_roll_shows_before_after_the_rerolled_dice_and_the_cost():
    first = yearzero.roll_yz(2, 1, 1, (), FixedDice([6, 3, 2, 4]))
    pushed = yearzero.push(first, FixedDice([1, 1, 1]))
    embed = render_yz.render_pushed(render_yz.PushedRoll(pushed, 10, 1), odds_for_roll(3, 1), speech=EN)
    assert embed.title == "✅ Pushed: 1 → 1 success"
    [dice] = embed.fields
    assert dice.value == "Base: `6`⚔ ↻ `1`☠ `1`☠\nGear: ↻ `1`☠"
    assert embed.description.splitlines()[1:] == [
        "☠ Attribute damage **2**",
        "☠ Gear bonus −1",
        "Willpower +2 (now 10) — 1 point lost: Willpower never exceeds 10",
    ]


def test_yz_pushed_roll_without_banes_omits_the_lines_that_say_nothing():
    first = yearzero.roll_yz(2, 0, 0, (), FixedDice([3, 2]))
    pushed = yearzero.push(first, FixedDice([6, 4]))
    embed = render_yz.render_pushed(render_yz.PushedRoll(pushed, 4, 0), None, speech=EN)
    assert embed.title == "✅ Pushed: no success → 1 success"
    assert "Willpower" not in embed.description and "damage" not in embed.description
    assert embed.footer.text is None


def test_yz_first_roll_says_what_a_push_would_reroll_and_cost():
    roll = yearzero.roll_yz(2, 1, 0, (10,), FixedDice([6, 1, 3, 4]))
    embed = render_yz.render_first(
        roll, render_yz.FirstRollOdds(odds_for_roll(3, 0, (10,)), odds_after_first(roll)), speech=EN
    )
    assert "Push (only you, once) to reroll 2 dice." in embed.description
    assert "Pushing: 100% to succeed · expected 1.2 banes (Attribute damage and as many WP)" in embed.description
    assert embed.footer.text.startswith("Odds: success ")


def test_heroic_fumble_attack_shows_table_entry_first_and_damage_once():
    roll = heroic.roll_heroic(7, FixedDice([1, 1, 3]), difficulty="Easy", kind="attack", damage=7)
    embed = render_heroic.render_roll(roll, odds_for_heroic(7, 8), speech=EN)
    assert embed.title == "💀 Fumble · drops the weapon"
    assert embed.description.splitlines()[1:] == [
        "Combat Fumble table `3`: the Hero fumbles and drops their weapon "
        "(or inflicts half damage on themself if they are armed).",
        "Half damage **3.5** (half of 7)",
    ]
    assert embed.fields[0].value.startswith("`1`💀 `1`💀 + Skill 7")
    assert "(incl. crit 3%, complication 0%)" in embed.footer.text


def test_sk_dice_are_sorted_unlabelled_and_the_complication_marked():
    pool = sevenkingdoms.parse_pool("3D+2B-1P")
    test = sevenkingdoms.roll_test(pool, FixedDice([6, 5, 1, 4, 2]), difficulty="Routine")
    embed = render_sk.render_test(test, sk_odds(pool, "Routine"), speech=EN)
    assert embed.fields[0].value == "Kept: `5` `4` `2` · Discarded: ~~`6`~~ · Not kept: `1`"  # a success: no ⚠
    failed = sevenkingdoms.roll_test(pool, FixedDice([6, 1, 1, 2, 1]), difficulty="Routine")
    assert render_sk.render_test(failed, None, speech=EN).fields[0].value == (
        "Kept: `2` `1`⚠ `1`⚠ · Discarded: ~~`6`~~ · Not kept: `1`⚠"
    )


def test_sk_competition_of_25_shows_all_25():
    text = ", ".join(f"Knight{i} 3D+1B" for i in range(25))
    participants = parse_participants(text)
    competition = roll_competition(participants, SeededDice(7))
    embed = render_sk.render_competition(competition, competition_odds([pool for _, pool in participants]), speech=EN)
    assert len(embed.fields) == 25 and embed.footer.text.startswith("Odds: tie at the top")
    assert {field.name.split(" · ")[0].split(". ")[1] for field in embed.fields} == {f"Knight{i}" for i in range(25)}
    assert all(field.name.endswith("to win") for field in embed.fields)


def test_note_is_quoted_and_clipped():
    result = hex.roll_plain(2, FixedDice([6, 2]))
    embed = render_hex.render_plain(result, None, note="x" * 10_000, speech=EN)
    assert embed.description.splitlines()[1].startswith("> xxx") and len(embed.description) < 400


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), name_length=st.integers(1, 48))
def test_the_largest_competition_fits_discord_limits(seed, name_length):
    text = ", ".join(f"{chr(65 + i % 26) * name_length}{i} 10D+10B-1P" for i in range(25))
    participants = parse_participants(text)
    competition = roll_competition(participants, SeededDice(seed))
    odds = competition_odds([pool for _, pool in participants])
    embed = render_sk.render_competition(competition, odds, note="n" * 300, speech=EN)
    assert len(embed) <= EMBED_TOTAL and len(embed.fields) == 25  # everyone shown, even at the longest
    assert all(len(field.value) <= 1024 for field in embed.fields)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_largest_pools_fit_discord_limits(seed):
    dice = SeededDice(seed)
    big = HexPool(attribute=12, skill=12, specialty=12, environment=3, gear=3, ingenuity=3)
    contest = hex.roll_contest(big, big, dice)
    assert len(render_hex.render_result(contest, odds_for_contest(big, big), note="n" * 300, speech=EN)) <= EMBED_TOTAL
    roll = yearzero.roll_yz(10, 10, 10, (12, 12, 12), dice)
    if roll.can_push:
        pushed = yearzero.push(roll, dice)
        card = render_yz.render_pushed(
            render_yz.PushedRoll(pushed, 10, 5), odds_for_roll(20, 10, (12, 12, 12)), note="n" * 300
        , speech=EN)
        assert len(card) <= EMBED_TOTAL


@pytest.mark.parametrize("fields", [1, 4, 5, 6, 24, 40])
@pytest.mark.parametrize("value_length", [10, 640, 700, 1024, 2000])
def test_an_embed_is_shrunk_exactly_when_discord_would_refuse_it(fields, value_length, monkeypatch):
    """embed() counts the characters itself to skip the shrinking pass; its count must match discord.py's."""
    from bot.render import common

    card = Card("T" * 200, Tones.NEUTRAL, "pool", [(f"f{i}", "v" * value_length) for i in range(fields)],
                odds="o" * 300, details="d" * 1000)
    with monkeypatch.context() as unlimited:
        unlimited.setattr(common, "EMBED_TOTAL", 10**9)
        whole = embed(card, EN, note="n" * 300)  # as it would be without the limit
    shown = embed(card, EN, note="n" * 300)
    assert len(shown) <= EMBED_TOTAL and len(shown.fields) <= 25
    assert shown.footer.text.startswith("o" * 300)
    assert shown.footer.text.endswith(LEFT_OUT) == (len(whole) > EMBED_TOTAL or fields > 25)
    if len(whole) <= EMBED_TOTAL:
        assert shown.to_dict() == whole.to_dict()


def public_renderers() -> dict[str, list]:
    """Every public render_* function of bot/render and of each feature's cards (cogs/<feature>/card.py), by
    module (a feature's card by the feature's name)."""
    found: dict[str, list] = {}
    places = [(f"bot.render.{info.name}", info.name) for info in pkgutil.iter_modules(bot.render.__path__)]
    places += [(f"cogs.{info.name}.card", info.name) for info in pkgutil.iter_modules(cogs.__path__) if info.ispkg]
    for module_name, key in places:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as missing:  # a feature without cards of its own
            if missing.name != module_name:
                raise
            continue
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("render_") and function.__module__ == module.__name__:
                found.setdefault(key, []).append(function)
    return found


def test_every_renderer_has_the_one_signature():
    """render_x(result, odds, *, speech, roller=None, note=None) -> Embed for every system (STYLE.md practice 14),
    the odds as the rules' object: the renderers format them, never the cogs; the language is the Speech given."""
    renderers = public_renderers()
    assert set(renderers) == {"heroic", "hex", "resources", "sevenkingdoms", "yearzero"}
    for function in (function for functions in renderers.values() for function in functions):
        result, odds, speech, roller, note = inspect.signature(function).parameters.values()
        positional, keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY
        assert (result.kind, result.default) == (positional, inspect.Parameter.empty), function
        assert (odds.name, odds.kind, odds.default) == ("odds", positional, inspect.Parameter.empty), function
        assert [(p.name, p.kind, p.default) for p in (speech, roller, note)] == [
            ("speech", keyword, inspect.Parameter.empty), ("roller", keyword, None), ("note", keyword, None)
        ], function
        hints = typing.get_type_hints(function)
        assert hints["return"] is discord.Embed, function
        assert str not in typing.get_args(hints["odds"]) and hints["odds"] is not str, function
