"""Which Year Zero rolls are luck events, and their chances (RULES.md section 6, "Luck" and its fine points).

A first roll is one event; a push is one when the roll had no success yet.
"""

from __future__ import annotations

from fractions import Fraction

from rules.luck import Events, LuckEvent
from rules.yearzero.odds import D6_BLANK_FIRST, YzOdds, artifact_blank
from rules.yearzero.roll import YzRoll


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
