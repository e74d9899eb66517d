"""Every kind of card the bot sends, built from fixed dice: what the shape tests walk (and what a look at the
cards as a player sees them starts from).

Each entry names the card kind, the tone its outcome must have, the embed, and the names of its fields.
A test checks that every public renderer appears here at least once and every tone is used.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.render.common import Tone, Tones
from cogs.heroic import card as render_heroic
from cogs.hex import card as render_hex
from cogs.resources import card as render_resources
from cogs.sevenkingdoms import card as render_sk
from cogs.yearzero import card as render_yz
from cogs.yearzero.endings import Ending, ending_line
from rules.dice import FixedDice
from rules.heroic import roll as heroic
from rules.heroic.odds import odds_for_heroic
from rules.hex import roll as hex
from rules.hex.odds import odds_for_cast, odds_for_contest, odds_for_plain, odds_for_test
from rules.language import ENGLISH, Speech, speak
from rules.sevenkingdoms import roll as sevenkingdoms
from rules.sevenkingdoms.competition import parse_participants, roll_competition
from rules.sevenkingdoms.odds import competition_odds
from rules.sevenkingdoms.odds import odds_for_test as sk_odds
from rules.yearzero import roll as yearzero
from rules.yearzero.odds import odds_after_first, odds_for_roll
from rules.yearzero.resources import Resource, roll_resource

EN = speak(ENGLISH)


@dataclass(frozen=True)
class CardKind:
    name: str
    tone: Tone
    build: Callable[..., discord.Embed]
    """Builds the card, in English or in the Speech given as ``speech``."""
    fields: tuple[str, ...]
    renderer: Callable


def _hex_test(faces, size=4, dv=None, speech: Speech = EN, **options) -> discord.Embed:
    result = hex.roll_test(size, FixedDice(faces), dv=dv, **options)
    return render_hex.render_result(result, odds_for_test(size, **options), note="Pick the lock", speech=speech)


def _hex_contest(faces, acting=3, opposing=3, speech: Speech = EN) -> discord.Embed:
    result = hex.roll_contest(acting, opposing, FixedDice(faces), dv=2)
    return render_hex.render_result(result, odds_for_contest(acting, opposing), speech=speech)


def _hex_cast(faces, size=4, risk=2, opposing=None, speech: Speech = EN) -> discord.Embed:
    result = hex.roll_cast(size, risk, FixedDice(faces), opposing=opposing)
    return render_hex.render_result(result, odds_for_cast(size, risk, opposing=opposing), speech=speech)


def _hex_plain(faces, speech: Speech = EN) -> discord.Embed:
    result = hex.roll_plain(len(faces), FixedDice(faces))
    return render_hex.render_plain(result, odds_for_plain(len(faces)), speech=speech)


def _yz_first(faces, attribute=3, skill=2, gear=1, speech: Speech = EN) -> discord.Embed:
    roll = yearzero.roll_yz(attribute, skill, gear, (), FixedDice(faces))
    odds = render_yz.FirstRollOdds(odds_for_roll(attribute + skill, gear), odds_after_first(roll))
    return render_yz.render_first(roll, odds, note="Climb the wall", speech=speech)


def _yz_pushed(faces, again, willpower=(3, 0), speech: Speech = EN) -> discord.Embed:
    first = yearzero.roll_yz(3, 2, 1, (), FixedDice(faces))
    pushed = yearzero.push(first, FixedDice(again))
    return render_yz.render_pushed(render_yz.PushedRoll(pushed, *willpower), odds_for_roll(5, 1), speech=speech)


def _yz_pride(faces, pushes_made=(), willpower=(2, 0), speech: Speech = EN) -> discord.Embed:
    """Attribute 2 + Pride, three pushes allowed, pushed once for each list of faces in pushes_made."""
    roll = yearzero.roll_yz(2, 0, 0, (), FixedDice(faces), pride=True, pushes=3)
    pool = odds_for_roll(2, pride=True, pushes=3)
    if not pushes_made:
        return render_yz.render_first(roll, render_yz.FirstRollOdds(pool, odds_after_first(roll)), speech=speech)
    for again in pushes_made:
        roll = yearzero.push(roll, FixedDice(again))
    return render_yz.render_pushed(render_yz.PushedRoll(roll, *willpower), pool, speech=speech)


def _yz_ended(faces, again=(), ending=Ending.SUPERSEDED, url=None, speech: Speech = EN) -> discord.Embed:
    """Attribute 3 + Skill 2 + Gear 1 rolled (and pushed with `again`), then ended: superseded, kept, expired or
    pushed with /push (the result's link in `url`)."""
    roll = yearzero.roll_yz(3, 2, 1, (), FixedDice(faces), pushes=2)
    if again:
        roll = yearzero.push(roll, FixedDice(again))
    ended = render_yz.EndedRoll(roll, ending_line(ending, speech, url))
    return render_yz.render_ended(ended, odds_for_roll(5, 1, pushes=2), note="Climb the wall", speech=speech)


def _heroic(faces, speech: Speech = EN, **options) -> discord.Embed:
    roll = heroic.roll_heroic(3, FixedDice(faces), difficulty="Easy", **options)
    return render_heroic.render_roll(roll, odds_for_heroic(3, 8, options.get("variant", "2d6")), speech=speech)


def _sk_test(notation, faces, difficulty="Routine", speech: Speech = EN, **options) -> discord.Embed:
    pool = sevenkingdoms.parse_pool(notation, **options)
    test = sevenkingdoms.roll_test(pool, FixedDice(faces), difficulty=difficulty)
    return render_sk.render_test(test, sk_odds(pool, difficulty), speech=speech)


def _sk_extended(faces, gained, added, speech: Speech = EN) -> discord.Embed:
    pool = sevenkingdoms.parse_pool("3D")
    test = sevenkingdoms.roll_test(pool, FixedDice(faces), difficulty="Easy")
    roll = render_sk.ExtendedRoll(test, "Forge a blade", gained, 5, added)
    return render_sk.render_extended(roll, sk_odds(pool, "Easy"), speech=speech)


def _sk_competition(text, faces, speech: Speech = EN) -> discord.Embed:
    participants = parse_participants(text)
    competition = roll_competition(participants, FixedDice(faces))
    odds = competition_odds([pool for _, pool in participants])
    return render_sk.render_competition(competition, odds, speech=speech)


def _sk_tasks(tasks, speech: Speech = EN) -> discord.Embed:
    return render_sk.render_tasks(tasks, None, speech=speech)


def _resource(face, rating=8, resource=Resource.FOOD, speech: Speech = EN) -> discord.Embed:
    roll = roll_resource(resource, rating, FixedDice([face]))
    return render_resources.render_resource(roll, roll.chance_to_step_down, speech=speech)


HEX = ("Dice",)
T, H, Y, S = render_hex.render_result, render_hex.render_plain, render_yz, render_sk

CARD_KINDS: tuple[CardKind, ...] = (
    CardKind("hex test success", Tones.SUCCESS, lambda s=EN: _hex_test([6, 2, 6, 3], dv=5, speech=s), HEX, T),
    CardKind("hex test failure", Tones.FAILURE, lambda s=EN: _hex_test([1, 2, 3, 4], speech=s), HEX, T),
    CardKind("hex test Mishap", Tones.DISASTER, lambda s=EN: _hex_test([1, 1, 3, 4], speech=s), HEX, T),
    CardKind("hex Advancement", Tones.SUCCESS, lambda s=EN: _hex_test([], advancement=True, speech=s), (), T),
    CardKind("hex required, nullified", Tones.FAILURE,
             lambda s=EN: _hex_test([], size=0, required=True, speech=s), (), T),
    CardKind("hex contest won", Tones.SUCCESS,
             lambda s=EN: _hex_contest([6, 2, 6, 6, 3, 4], speech=s), ("You · 2 successes",
             "Them · 1 success"), T),
    CardKind("hex contest lost with Mishap", Tones.DISASTER, lambda s=EN: _hex_contest([1, 1, 2, 6, 6, 1], speech=s),
             ("You · 0 successes", "Them · 2 successes"), T),
    CardKind("hex contest 0-0", Tones.SUCCESS, lambda s=EN: _hex_contest([2, 3, 4, 2, 3, 4], speech=s),
             ("You · 0 successes", "Them · 0 successes"), T),
    CardKind("hex contest, both nullified", Tones.FAILURE, lambda s=EN: _hex_contest([], 0, 0, speech=s),
             ("You · 0 successes", "Them · 0 successes"), T),
    CardKind("hex cast success", Tones.SUCCESS, lambda s=EN: _hex_cast([2, 3, 6, 4], speech=s), HEX, T),
    CardKind("hex cast loss of control", Tones.DISASTER, lambda s=EN: _hex_cast([2, 1, 3, 4], speech=s), HEX, T),
    CardKind("hex cast fizzle", Tones.FAILURE, lambda s=EN: _hex_cast([1, 2, 3, 4], speech=s), HEX, T),
    CardKind("hex cast resisted", Tones.SUCCESS, lambda s=EN: _hex_cast([2, 3, 6, 4, 2, 3], opposing=2, speech=s),
             ("You · 1 success", "Them · 0 successes"), T),
    CardKind("hex plain roll", Tones.NEUTRAL, lambda s=EN: _hex_plain([6, 2, 5, 6], speech=s), HEX, H),
    CardKind("hex plain roll, large", Tones.NEUTRAL, lambda s=EN: _hex_plain([6] * 7 + [3] * 38, speech=s), HEX, H),
    CardKind("yz first roll, success", Tones.SUCCESS, lambda s=EN: _yz_first([6, 1, 3, 4, 2, 5], speech=s), ("Dice",),
             Y.render_first),
    CardKind("yz first roll, no success", Tones.FAILURE,
             lambda s=EN: _yz_first([1, 2, 3, 4, 2, 5], speech=s), ("Dice",),
             Y.render_first),
    CardKind("yz first roll, nothing to push", Tones.SUCCESS,
             lambda s=EN: _yz_first([6, 6, 1, 6, 1, 6], speech=s), ("Dice",),
             Y.render_first),
    CardKind("yz pushed, success", Tones.SUCCESS, lambda s=EN: _yz_pushed([6, 1, 3, 4, 2, 5], [6, 6, 1, 1], speech=s),
             (Y.PUSHED_DICE,), Y.render_pushed),
    CardKind("yz pushed, no success, Willpower lost", Tones.FAILURE,
             lambda s=EN: _yz_pushed([1, 2, 3, 4, 2, 5], [1, 1, 2, 3, 1], (10, 2), speech=s),
             (Y.PUSHED_DICE,), Y.render_pushed),
    CardKind("yz first roll with Pride, 3 pushes allowed", Tones.FAILURE,
             lambda s=EN: _yz_pride([1, 3, 4], speech=s), ("Dice",),
             Y.render_first),
    CardKind("yz pushed twice with Pride, a push left", Tones.SUCCESS,
             lambda s=EN: _yz_pride([1, 3, 4], [[2, 5], [3, 8]], (1, 0), speech=s), (Y.PUSHED_DICE,), Y.render_pushed),
    CardKind("yz superseded", Tones.FAILURE,
             lambda s=EN: _yz_ended([1, 2, 3, 4, 2, 5], speech=s), ("Dice",), Y.render_ended),
    CardKind("yz kept", Tones.SUCCESS,
             lambda s=EN: _yz_ended([6, 1, 3, 4, 2, 5], ending=Ending.KEPT, speech=s), ("Dice",),
             Y.render_ended),
    CardKind("yz expired after a push", Tones.SUCCESS, lambda s=EN: _yz_ended([6, 1, 3, 4, 2, 5], [6, 6, 1, 1],
             Ending.EXPIRED, speech=s), (Y.PUSHED_DICE,), Y.render_ended),
    CardKind("yz pushed with /push, linked", Tones.FAILURE,
             lambda s=EN: _yz_ended([1, 2, 3, 4, 2, 5], (), Ending.PUSHED,
             "https://discord.com/channels/1/2/3", speech=s), ("Dice",), Y.render_ended),
    CardKind("heroic success", Tones.SUCCESS,
             lambda s=EN: _heroic([3, 4], speech=s), ("Dice",), render_heroic.render_roll),
    CardKind("heroic complication", Tones.PARTIAL,
             lambda s=EN: _heroic([2, 3], speech=s), ("Dice",), render_heroic.render_roll),
    CardKind("heroic failure", Tones.FAILURE,
             lambda s=EN: _heroic([1, 2], speech=s), ("Dice",), render_heroic.render_roll),
    CardKind("heroic crit attack", Tones.CRIT,
             lambda s=EN: _heroic([6, 6], kind="attack", damage=7, speech=s), ("Dice",),
             render_heroic.render_roll),
    CardKind("heroic crit reaction", Tones.CRIT,
             lambda s=EN: _heroic([20], variant="d20", kind="dodge", speech=s), ("Dice",),
             render_heroic.render_roll),
    CardKind("heroic fumble attack", Tones.DISASTER, lambda s=EN: _heroic([1, 1, 2], kind="attack", damage=7, speech=s),
             ("Dice",), render_heroic.render_roll),
    CardKind("heroic fumble reaction", Tones.DISASTER, lambda s=EN: _heroic([1, 1], kind="parry", damage=5, speech=s),
             ("Dice",), render_heroic.render_roll),
    CardKind("heroic fumble spell", Tones.DISASTER,
             lambda s=EN: _heroic([1], variant="d12", kind="spell", speech=s), ("Dice",),
             render_heroic.render_roll),
    CardKind("sk success", Tones.SUCCESS, lambda s=EN: _sk_test("3D+2B-1P", [6, 5, 1, 4, 2], speech=s),
             ("Result 11 · margin 5",), S.render_test),
    CardKind("sk marginal failure with complication", Tones.FAILURE, lambda s=EN: _sk_test("2D", [1, 4], speech=s),
             ("Result 5",), S.render_test),
    CardKind("sk critical failure", Tones.DISASTER,
             lambda s=EN: _sk_test("2D", [1, 2], difficulty="Challenging", speech=s),
             ("Result 3",), S.render_test),
    CardKind("sk automatic", Tones.SUCCESS, lambda s=EN: _sk_test("1D", [], difficulty="Automatic", speech=s), (),
             S.render_test),
    CardKind("sk no test die", Tones.FAILURE, lambda s=EN: _sk_test("1D", [], wounds=1, speech=s), (), S.render_test),
    CardKind("sk extended progress", Tones.SUCCESS, lambda s=EN: _sk_extended([3, 2, 1], 1, 1, speech=s),
             ("Result 6 · margin 3", "Progress"), S.render_extended),
    CardKind("sk extended complete", Tones.SUCCESS, lambda s=EN: _sk_extended([6, 6, 6], 6, 4, speech=s),
             ("Result 18 · margin 15", "Progress"), S.render_extended),
    CardKind("sk competition won", Tones.WINNER,
             lambda s=EN: _sk_competition("Jaime 3D, Brienne 2D", [6, 6, 4, 2, 1], speech=s),
             ("1. Jaime · 3D · ", "2. Brienne · 2D · "), S.render_competition),
    CardKind("sk competition tie", Tones.TIE, lambda s=EN: _sk_competition("Arya 1D, Sansa 1D", [4, 4], speech=s),
             ("1. Arya · 1D · ", "1. Sansa · 1D · "), S.render_competition),
    CardKind("sk competition, no winner", Tones.FAILURE,
             lambda s=EN: _sk_competition("Arya 0D+1B, Sansa 0D+1B", [], speech=s),
             ("1. Arya · 0D + 1B · ", "1. Sansa · 0D + 1B · "),
             S.render_competition),
    CardKind("sk task list", Tones.PROGRESS,
             lambda s=EN: _sk_tasks([("Forge a blade", 2, 5), ("Court", 3, 3)], speech=s), (),
             S.render_tasks),
    CardKind("sk task list, empty", Tones.PROGRESS, lambda s=EN: _sk_tasks([], speech=s), (), S.render_tasks),
    CardKind("resource kept", Tones.SUCCESS, lambda s=EN: _resource(5, speech=s), ("Dice",),
             render_resources.render_resource),
    CardKind("resource stepped down", Tones.FAILURE, lambda s=EN: _resource(2, 12, Resource.TORCHES, speech=s),
             ("Dice",), render_resources.render_resource),
    CardKind("resource ran out", Tones.DISASTER, lambda s=EN: _resource(1, 6, Resource.ARROWS, speech=s), ("Dice",),
             render_resources.render_resource),
)
