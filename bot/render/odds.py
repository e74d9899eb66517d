"""Every odds line a card shows, in one place: the rules' odds objects as the footer line.

The wording itself lives in ``rules.odds_text``, which ``python -m rules`` prints too, so the bot and the command
line say a chance the same way. Each function takes None too, for a card shown without odds, and then gives None.
"""

from __future__ import annotations

from rules import odds_text
from rules.heroic.odds import HeroicOdds
from rules.odds_text import HexOdds
from rules.sevenkingdoms.odds import SkCompetitionOdds, SkTestOdds
from rules.yearzero.odds import PushOdds, YzOdds


def heroic_odds(odds: HeroicOdds | None) -> str | None:
    return None if odds is None else odds_text.heroic_line(odds)


def hex_odds(odds: HexOdds | None) -> str | None:
    """The exact odds of the roll as it was asked, before the dice fell."""
    return None if odds is None else odds_text.hex_line(odds)


def sk_test_odds(odds: SkTestOdds | None) -> str | None:
    """None also when nothing is rolled (an Automatic test, or no test die): the card already says why."""
    if odds is None or odds.status != "rolled":
        return None
    return odds_text.sk_test_line(odds)


def sk_win_chances(odds: SkCompetitionOdds | None) -> tuple[str, ...] | None:
    """Each participant's chance to win outright, in input order, for their own line of the standings."""
    return None if odds is None else tuple(f"{odds_text.percent(win)} to win" for win in odds.win)


def sk_tie_odds(odds: SkCompetitionOdds | None) -> str | None:
    """The footer of a competition: the chance of a tie at the top (each win chance is on its own line)."""
    return None if odds is None else odds_text.sk_tie_line(odds.tie)


def yz_odds(pool: YzOdds | None) -> str | None:
    """The pool's chance before rolling and with a push."""
    return None if pool is None else odds_text.yz_pool_line(pool)


def yz_push_cost(this_roll: PushOdds | None) -> str | None:
    """What pushing this roll would bring and cost; None when it cannot be pushed."""
    if this_roll is None or not this_roll.can_push:
        return None
    return odds_text.yz_push_cost(this_roll)
