"""Which throws are luck events, and their chances (RULES.md section 6, "Luck" and its fine points).

One function per kind of roll, each taking the result and the odds the cog already computed, and returning
the roll's events: none when nothing was rolled (Advancement, Automatic, a nullified pool, no test die), for
HEX plain rolls and Seven Kingdoms competitions (they have no function here: they have no event).
"""

from __future__ import annotations

from fractions import Fraction

from rules.heroic import HeroicRoll
from rules.heroic_odds import HeroicOdds
from rules.hex import HexResult
from rules.hex_odds import HexCastOdds, HexContestOdds, HexTestOdds
from rules.luck import LuckEvent
from rules.sevenkingdoms import SkTest
from rules.sevenkingdoms_odds import SkTestOdds
from rules.yearzero import YzRoll
from rules.yearzero_odds import D6_BLANK_FIRST, YzOdds, artifact_blank

Events = tuple[LuckEvent, ...]


def hex_events(result: HexResult, odds: HexTestOdds | HexContestOdds | HexCastOdds) -> Events:
    """A HEX Test, Contest or casting: one event when the acting side rolled (a nullified opposition counts,
    with p = 1); none for an Advancement or a nullified acting side."""
    if result.automatic or result.acting.nullified:
        return ()
    chance = odds.acting_wins if isinstance(odds, HexContestOdds) else odds.success
    return (LuckEvent(chance, result.success),)


def heroic_events(roll: HeroicRoll, odds: HeroicOdds) -> Events:
    """A Heroic Roll always rolls: success includes a crit and a tie with its complication."""
    return (LuckEvent(odds.success, roll.succeeded),)


def sevenkingdoms_events(test: SkTest, odds: SkTestOdds) -> Events:
    """A basic, conflict or extended step: an event only when dice were rolled."""
    if not test.rolled:
        return ()
    return (LuckEvent(odds.success, test.success),)


def yearzero_first_events(roll: YzRoll, odds: YzOdds) -> Events:
    """A Year Zero first roll: its own success, with the chance before it was rolled."""
    return (LuckEvent(odds.success_first_roll, roll.success),)


def yearzero_push_events(before: YzRoll, after: YzRoll) -> Events:
    """A push: an event only when the roll had no success yet, with p for this one push given the dice as they
    lay: with none kept, it succeeds unless every rerolled die scores nothing again."""
    if before.success:
        return ()
    blank = Fraction(1)
    for position in after.rerolled:
        sides = before.dice[position].sides
        blank *= D6_BLANK_FIRST if sides == 6 else artifact_blank(sides)
    return (LuckEvent(1 - blank, after.success),)
