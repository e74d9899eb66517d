"""The one way a chance is written, for the bot's cards and ``python -m rules`` alike.

Every odds line starts with ``Odds:`` (a Year Zero push's cost with ``Pushing:``) and names whose chance it
is: "your Mishap" is the acting side's, "their Mishap" the opposing side's; a Heroic success says which
readings it includes. Whole percent, never rounding a possible outcome to 0% nor an uncertain one to 100%.
Pure text: the JSON output keeps its own exact figures.
"""

from __future__ import annotations

from fractions import Fraction

from rules.heroic.odds import HeroicOdds
from rules.hex.odds import HexCastOdds, HexContestOdds, HexPlainOdds, HexTestOdds
from rules.sevenkingdoms.odds import SkTestOdds
from rules.yearzero.odds import PushOdds, YzOdds

HexOdds = HexTestOdds | HexContestOdds | HexCastOdds | HexPlainOdds
SEP = " · "


def percent(value: Fraction) -> str:
    """A chance in whole percent: "<1%" and ">99%" rather than a rounded 0% or 100%."""
    if value <= 0:
        return "0%"
    if value >= 1:
        return "100%"
    shown = round(float(value) * 100)
    if shown == 0:
        return "<1%"
    if shown == 100:
        return ">99%"
    return f"{shown}%"


def _line(*parts: str) -> str:
    return "Odds: " + SEP.join(part for part in parts if part)


def _if_possible(label: str, value: Fraction) -> str:
    """A hazard's chance, left out when it cannot happen."""
    return f"{label} {percent(value)}" if value else ""


def heroic_line(odds: HeroicOdds) -> str:
    """Success counts crits and complications (a total equal to the TN); the line says so."""
    return _line(
        f"success {percent(odds.success)} (incl. crit {percent(odds.crit)},"
        f" complication {percent(odds.complication)})",
        f"fumble {percent(odds.fumble)}",
    )


def hex_line(odds: HexOdds) -> str:
    if isinstance(odds, HexPlainOdds):
        return _line(f"at least one 6 {percent(odds.at_least_one)}",
                     f"expected 6s {float(odds.expected_successes):.1f}")
    if isinstance(odds, HexContestOdds):
        return _line(f"you win {percent(odds.acting_wins)}", _if_possible("your Mishap", odds.acting_mishap),
                     _if_possible("their Mishap", odds.opposing_mishap))
    if isinstance(odds, HexCastOdds):
        return _line(f"cast succeeds {percent(odds.success)}",
                     _if_possible("loss of control", odds.loss_of_control), _if_possible("fizzle", odds.fizzle),
                     _if_possible("their Mishap", odds.opposing_mishap))
    return _line(f"success {percent(odds.success)}", _if_possible("Mishap", odds.mishap))


def sk_test_line(odds: SkTestOdds) -> str:
    """A test's chance; the expected degrees only when it is rolled (Automatic and no test die are certain)."""
    degrees = f"expected degrees {float(odds.expected_degrees):.1f}" if odds.expected_degrees is not None else ""
    complication = _if_possible("failure with a complication", odds.complication)
    return _line(f"success {percent(odds.success)}", degrees, complication)


def sk_win_line(names: tuple[str, ...], wins: tuple[Fraction, ...], tie: Fraction) -> str:
    """Each participant's chance to win outright, in the order given, then a tie at the top."""
    return _line(*(f"{name} {percent(win)}" for name, win in zip(names, wins, strict=True)),
                 f"tie at the top {percent(tie)}")


def sk_tie_line(tie: Fraction) -> str:
    return _line(f"tie at the top {percent(tie)}")


def yz_pool_line(pool: YzOdds) -> str:
    """A pool's chance on the first roll, with a push whenever one is possible, and, when the roll allows more than
    one push, with every push it allows; a roll allowing none has only its first roll's."""
    if pool.pushes == 0:
        return _line(f"success {percent(pool.success_first_roll)}", "no push allowed")
    every = f"with {pool.pushes} pushes {percent(pool.success_after_all_pushes)}" if pool.pushes > 1 else ""
    return _line(f"success {percent(pool.success_first_roll)}",
                 f"with a push {percent(pool.success_after_push)}", every)


def yz_push_cost(push: PushOdds) -> str:
    """What pushing this roll would bring and cost: base banes are Attribute damage and as many Willpower."""
    banes = f"expected {float(push.expected_willpower):.1f} banes (Attribute damage and as many WP)"
    gear = push.expected_gear_damage
    if gear:
        banes += f", {float(gear):.1f} gear banes"
    return f"Pushing: {percent(push.success_after_push)} to succeed{SEP}{banes}"
