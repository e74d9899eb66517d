"""The one way a chance is written, for the bot's cards and ``python -m rules`` alike, in the Speech given.

Every odds line starts with ``Odds:`` (a Year Zero push's cost with ``Pushing:``) and names whose chance it
is: "your Mishap" is the acting side's, "their Mishap" the opposing side's; a Heroic success says which
readings it includes. Whole percent, never rounding a possible outcome to 0% nor an uncertain one to 100%
(``Speech.percent``). Pure text: the JSON output keeps its own exact figures.
"""

from __future__ import annotations

from fractions import Fraction

from rules.heroic.odds import HeroicOdds
from rules.hex.odds import HexCastOdds, HexContestOdds, HexPlainOdds, HexTestOdds
from rules.language import Speech
from rules.sevenkingdoms.odds import SkTestOdds
from rules.yearzero.odds import PushOdds, YzOdds

HexOdds = HexTestOdds | HexContestOdds | HexCastOdds | HexPlainOdds
SEP = " · "


def _line(speech: Speech, *parts: str) -> str:
    # Translators: the start of every odds line of a card's footer; {chances} are the chances, joined by " · ".
    return speech._("Odds: {chances}", chances=SEP.join(part for part in parts if part))


def _if_possible(text: str, value: Fraction) -> str:
    """A hazard's chance (text already filled with it), left out when it cannot happen."""
    return text if value else ""


def heroic_line(odds: HeroicOdds, speech: Speech) -> str:
    """Success counts crits and complications (a total equal to the TN); the line says so."""
    pc = speech.percent
    return _line(
        speech,
        # Translators: {success}, {crit} and {complication} are percentages (Heroic Rolls).
        speech._("success {success} (incl. crit {crit}, complication {complication})", success=pc(odds.success),
                 crit=pc(odds.crit), complication=pc(odds.complication)),
        speech._("fumble {chance}", chance=pc(odds.fumble)),
    )


def hex_line(odds: HexOdds, speech: Speech) -> str:
    pc = speech.percent
    if isinstance(odds, HexPlainOdds):
        return _line(speech, speech._("at least one 6 {chance}", chance=pc(odds.at_least_one)),
                     speech._("expected 6s {count}", count=speech.decimal(odds.expected_successes)))
    if isinstance(odds, HexContestOdds):
        return _line(speech, speech._("you win {chance}", chance=pc(odds.acting_wins)),
                     _if_possible(speech._("your Mishap {chance}", chance=pc(odds.acting_mishap)), odds.acting_mishap),
                     _if_possible(speech._("their Mishap {chance}", chance=pc(odds.opposing_mishap)),
                                  odds.opposing_mishap))
    if isinstance(odds, HexCastOdds):
        return _line(speech, speech._("cast succeeds {chance}", chance=pc(odds.success)),
                     _if_possible(speech._("loss of control {chance}", chance=pc(odds.loss_of_control)),
                                  odds.loss_of_control),
                     _if_possible(speech._("fizzle {chance}", chance=pc(odds.fizzle)), odds.fizzle),
                     _if_possible(speech._("their Mishap {chance}", chance=pc(odds.opposing_mishap)),
                                  odds.opposing_mishap))
    return _line(speech, speech._("success {chance}", chance=pc(odds.success)),
                 _if_possible(speech._("Mishap {chance}", chance=pc(odds.mishap)), odds.mishap))


def sk_test_line(odds: SkTestOdds, speech: Speech) -> str:
    """A test's chance; the expected degrees only when it is rolled (Automatic and no test die are certain)."""
    degrees = ("" if odds.expected_degrees is None
               else speech._("expected degrees {degrees}", degrees=speech.decimal(odds.expected_degrees)))
    complication = _if_possible(
        speech._("failure with a complication {chance}", chance=speech.percent(odds.complication)), odds.complication)
    return _line(speech, speech._("success {chance}", chance=speech.percent(odds.success)), degrees, complication)


def sk_win_line(names: tuple[str, ...], wins: tuple[Fraction, ...], tie: Fraction, speech: Speech) -> str:
    """Each participant's chance to win outright, in the order given, then a tie at the top."""
    return _line(speech, *(f"{name} {speech.percent(win)}" for name, win in zip(names, wins, strict=True)),
                 speech._("tie at the top {chance}", chance=speech.percent(tie)))


def sk_tie_line(tie: Fraction, speech: Speech) -> str:
    return _line(speech, speech._("tie at the top {chance}", chance=speech.percent(tie)))


def yz_pool_line(pool: YzOdds, speech: Speech) -> str:
    """A pool's chance on the first roll, with a push whenever one is possible, and, when the roll allows more than
    one push, with every push it allows; a roll allowing none has only its first roll's."""
    success = speech._("success {chance}", chance=speech.percent(pool.success_first_roll))
    if pool.pushes == 0:
        return _line(speech, success, speech._("no push allowed"))
    every = "" if pool.pushes <= 1 else speech.ngettext(
        "with {count} push {chance}", "with {count} pushes {chance}", pool.pushes,
        chance=speech.percent(pool.success_after_all_pushes))
    return _line(speech, success, speech._("with a push {chance}", chance=speech.percent(pool.success_after_push)),
                 every)


def yz_push_cost(push: PushOdds, speech: Speech) -> str:
    """What pushing this roll would bring and cost: base banes are Attribute damage and as many Willpower."""
    # Translators: {count} is a decimal (e.g. 1.3) of expected banes; WP is Willpower.
    banes = speech._("expected {count} banes (Attribute damage and as many WP)",
                     count=speech.decimal(push.expected_willpower))
    gear = push.expected_gear_damage
    if gear:
        banes += ", " + speech._("{count} gear banes", count=speech.decimal(gear))
    # Translators: {chance} is a percentage; {banes} is "expected 1.3 banes (...)", translated.
    return speech._("Pushing: {chance} to succeed", chance=speech.percent(push.success_after_push)) + SEP + banes


def resource_line(chance: Fraction, sides: int, rolls_left: Fraction, speech: Speech) -> str:
    """A resource die's chance of stepping down, exactly as the ruling writes it (2/n) and in percent, then the
    rolls expected before the resource runs out from its rating after this roll (RULES.md section 7)."""
    exact = f"{chance * sides}/{sides}"
    left = speech.number(int(rolls_left)) if rolls_left.denominator == 1 else speech.decimal(rolls_left)
    # Translators: {exact} is a fraction such as 2/8, {chance} the same as a percentage (a resource die's).
    return _line(speech, speech._("step down {exact} = {chance}", exact=exact, chance=speech.percent(chance)),
                 # Translators: how many more rolls of the resource are expected before it runs out.
                 speech._("expected rolls left {count}", count=left))
