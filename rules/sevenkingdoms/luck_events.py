"""Which Seven Kingdoms tests are luck events, and their chances (RULES.md section 6, "Luck" and its fine points).

A basic, conflict or extended step rolled is one event; a competition has none.
"""

from __future__ import annotations

from rules.luck import Events, LuckEvent
from rules.sevenkingdoms.odds import SkTestOdds
from rules.sevenkingdoms.roll import SkTest


def sevenkingdoms_events(test: SkTest, odds: SkTestOdds) -> Events:
    """A basic, conflict or extended step: an event only when dice were rolled."""
    if not test.rolled:
        return ()
    return (LuckEvent(odds.success, test.success),)
