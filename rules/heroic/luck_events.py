"""Which Heroic Rolls are luck events, and their chances (RULES.md section 6, "Luck" and its fine points).

Every Heroic Roll is one event, with the chance the cog already computed.
"""

from __future__ import annotations

from rules.heroic.odds import HeroicOdds
from rules.heroic.roll import HeroicRoll
from rules.luck import Events, LuckEvent


def heroic_events(roll: HeroicRoll, odds: HeroicOdds) -> Events:
    """A Heroic Roll always rolls: success includes a crit and a tie with its complication."""
    return (LuckEvent(odds.success, roll.succeeded),)
