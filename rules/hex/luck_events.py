"""Which HEX rolls are luck events, and their chances (RULES.md section 6, "Luck" and its fine points).

A Test, Contest or casting takes the result and the odds the cog already computed; a plain roll has no event.
"""

from __future__ import annotations

from rules.hex.odds import HexCastOdds, HexContestOdds, HexTestOdds
from rules.hex.roll import HexResult
from rules.luck import Events, LuckEvent


def hex_events(result: HexResult, odds: HexTestOdds | HexContestOdds | HexCastOdds) -> Events:
    """A HEX Test, Contest or casting: one event when the acting side rolled (a nullified opposition counts,
    with p = 1); none for an Advancement or a nullified acting side."""
    if result.automatic or result.acting.nullified:
        return ()
    chance = odds.acting_wins if isinstance(odds, HexContestOdds) else odds.success
    return (LuckEvent(chance, result.success),)
