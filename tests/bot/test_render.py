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
from bot.render import heroic as render_heroic
from bot.render import hex as render_hex
from bot.render import sevenkingdoms as render_sk
from bot.render import yearzero as render_yz
from bot.render.common import EMBED_TOTAL, LEFT_OUT, SUCCESS_MARK, Card, Colour, embed, percent
from rules import heroic, hex, sevenkingdoms, yearzero
from rules.dice import FixedDice, SeededDice
from rules.heroic_odds import odds_for_heroic
from rules.hex_odds import odds_for_cast, odds_for_contest, odds_for_test
from rules.sevenkingdoms_competition import parse_participants, roll_competition
from rules.sevenkingdoms_odds import odds_for_test as sk_odds
from rules.yearzero_odds import odds_after_first, odds_for_roll


def text_of(embed) -> str:
    return "\n".join([embed.title or "", embed.description or ""] + [f"{f.name}\n{f.value}" for f in embed.fields])


@pytest.mark.parametrize(
    ("value", "shown"),
    [(Fraction(0), "0%"), (Fraction(1, 1000), "<1%"), (Fraction(42, 100), "42%"), (Fraction(999, 1000), ">99%"),
     (Fraction(1), "100%")],
)
def test_percent_never_rounds_a_possibility_away(value, shown):
    assert percent(value) == shown


def test_hex_mishap_shows_skulls_on_hazard_dice_only():
    result = hex.roll_test(hex.HexPool(attribute=4), FixedDice([1, 1, 1, 2]))
    embed = render_hex.render_result(result, odds_for_test(4))
    dice = embed.fields[0].value
    assert dice == "Hazard: `1`☠ `1`☠ · Pool: `1` `2`"
    assert "Mishap" in embed.description and "fails" in embed.description
    assert embed.fields[-1].name == "Odds" and "Chance:" in embed.fields[-1].value


def test_hex_cast_groups_affinity_and_control():
    result = hex.roll_cast(hex.HexPool(attribute=3, skill=1), 2, FixedDice([1, 2, 3, 4]))
    embed = render_hex.render_result(result, odds_for_cast(4, 2))
    assert embed.fields[0].value.startswith("Affinity: `1`☠ · Control: `2` `3`")
    assert "fizzle" in embed.description


def test_hex_success_marks_every_six():
    result = hex.roll_test(hex.HexPool(attribute=6, skill=6), SeededDice(3))
    embed = render_hex.render_result(result, None)
    assert embed.fields[0].value.count(SUCCESS_MARK) == result.successes


def test_yz_pushed_roll_shows_both_rolls_rerolled_dice_and_lost_willpower():
    first = yearzero.roll_yz(2, 1, 1, (), FixedDice([6, 3, 2, 4]))
    pushed = yearzero.push(first, FixedDice([1, 1, 1]))
    embed = render_yz.render_pushed(render_yz.PushedRoll(pushed, 10, 1), odds_for_roll(3, 1))
    names = [field.name for field in embed.fields]
    assert names[:2] == ["First roll", "Pushed"]
    assert "↻`1`☠" in embed.fields[1].value and "↻" not in embed.fields[0].value
    assert "Attribute damage: **2**" in embed.description and "Gear bonus −1" in embed.description
    assert "1 point lost" in embed.description and "(now 10)" in embed.description


def test_yz_first_roll_says_what_a_push_would_reroll():
    roll = yearzero.roll_yz(2, 1, 0, (10,), FixedDice([6, 1, 3, 4]))
    embed = render_yz.render_first(roll, render_yz.FirstRollOdds(odds_for_roll(3, 0, (10,)), odds_after_first(roll)))
    assert "Push to reroll 2 dice" in embed.description
    assert "Pushing this roll:" in embed.fields[-1].value


def test_heroic_fumble_attack_shows_table_entry():
    roll = heroic.roll_heroic(7, FixedDice([1, 1, 3]), difficulty="Easy", kind="attack", damage=7)
    embed = render_heroic.render_roll(roll, odds_for_heroic(7, 8))
    assert embed.description.startswith("**Fumble!**")
    assert "drops their weapon" in embed.description and "Combat Fumble table: `3`" in embed.description


def test_sk_discarded_dice_are_struck_and_bonus_dice_labelled():
    pool = sevenkingdoms.parse_pool("3D+2B-1P")
    test = sevenkingdoms.roll_test(pool, FixedDice([6, 5, 1, 4, 2]), difficulty="Routine")
    embed = render_sk.render_test(test, sk_odds(pool, "Routine"))
    assert "Discarded: ~~`6`~~" in embed.fields[0].value and "`B4`" in embed.fields[0].value


def test_note_is_quoted_and_clipped():
    result = hex.roll_plain(2, FixedDice([6, 2]))
    embed = render_hex.render_plain(result, None, note="x" * 10_000)
    assert embed.description.startswith("> xxx") and len(embed.description) < 400


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), name_length=st.integers(1, 48))
def test_the_largest_competition_fits_discord_limits(seed, name_length):
    text = ", ".join(f"{chr(65 + i % 26) * name_length}{i} 10D+10B-1P" for i in range(25))
    competition = roll_competition(parse_participants(text), SeededDice(seed))
    embed = render_sk.render_competition(competition, None, note="n" * 300)
    assert len(embed) <= EMBED_TOTAL and len(embed.fields) <= 25
    assert all(len(field.value) <= 1024 for field in embed.fields)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_largest_pools_fit_discord_limits(seed):
    dice = SeededDice(seed)
    big = hex.HexPool(attribute=12, skill=12, specialty=12, environment=3, gear=3, ingenuity=3)
    contest = hex.roll_contest(big, big, dice)
    assert len(render_hex.render_result(contest, odds_for_contest(big, big), note="n" * 300)) <= EMBED_TOTAL
    roll = yearzero.roll_yz(10, 10, 10, (12, 12, 12), dice)
    if roll.can_push:
        pushed = yearzero.push(roll, dice)
        card = render_yz.render_pushed(
            render_yz.PushedRoll(pushed, 10, 5), odds_for_roll(20, 10, (12, 12, 12)), note="n" * 300
        )
        assert len(card) <= EMBED_TOTAL


@pytest.mark.parametrize("fields", [1, 4, 5, 6, 24, 40])
@pytest.mark.parametrize("value_length", [10, 640, 700, 1024, 2000])
def test_an_embed_is_shrunk_exactly_when_discord_would_refuse_it(fields, value_length, monkeypatch):
    """embed() counts the characters itself to skip the shrinking pass; its count must match discord.py's."""
    from bot.render import common

    card = Card("T" * 200, "outcome", Colour.NEUTRAL, [(f"f{i}", "v" * value_length) for i in range(fields)],
                odds="o" * 300, details="d" * 1000)
    with monkeypatch.context() as unlimited:
        unlimited.setattr(common, "EMBED_TOTAL", 10**9)
        whole = embed(card, note="n" * 300)  # as it would be without the limit
    shown = embed(card, note="n" * 300)
    assert len(shown) <= EMBED_TOTAL and len(shown.fields) <= 25
    assert (shown.footer.text == LEFT_OUT) == (len(whole) > EMBED_TOTAL or fields > 24)
    if len(whole) <= EMBED_TOTAL:
        assert shown.to_dict() == whole.to_dict()


def public_renderers() -> dict[str, list]:
    """Every public render_* function of bot/render, by module."""
    found: dict[str, list] = {}
    for module_info in pkgutil.iter_modules(bot.render.__path__):
        module = importlib.import_module(f"bot.render.{module_info.name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("render_") and function.__module__ == module.__name__:
                found.setdefault(module_info.name, []).append(function)
    return found


def test_every_renderer_has_the_one_signature():
    """render_x(result, odds, *, roller=None, note=None) -> Embed for every system (STYLE.md practice 14), the
    odds as the rules' object: the renderers format them, never the cogs."""
    renderers = public_renderers()
    assert set(renderers) == {"heroic", "hex", "sevenkingdoms", "yearzero"}
    for function in (function for functions in renderers.values() for function in functions):
        result, odds, roller, note = inspect.signature(function).parameters.values()
        positional, keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY
        assert (result.kind, result.default) == (positional, inspect.Parameter.empty), function
        assert (odds.name, odds.kind, odds.default) == ("odds", positional, inspect.Parameter.empty), function
        assert [(p.name, p.kind, p.default) for p in (roller, note)] == [
            ("roller", keyword, None), ("note", keyword, None)
        ], function
        hints = typing.get_type_hints(function)
        assert hints["return"] is discord.Embed, function
        assert str not in typing.get_args(hints["odds"]) and hints["odds"] is not str, function
