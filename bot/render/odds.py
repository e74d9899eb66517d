"""Every Odds field, in one place: the rules' odds objects as the line an embed shows under "Odds".

The renderers call these with the odds the cog asked the rules for; nothing else formats a chance. Each takes
None too, for a card shown without odds, and then gives None: the card has no Odds field.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from bot.render.common import percent
from rules.heroic_odds import HeroicOdds
from rules.hex_odds import HexCastOdds, HexContestOdds, HexPlainOdds, HexTestOdds
from rules.sevenkingdoms_competition import SkCompetition
from rules.sevenkingdoms_odds import SkCompetitionOdds, SkTestOdds
from rules.yearzero_odds import PushOdds, YzOdds

HexOdds = HexTestOdds | HexContestOdds | HexCastOdds | HexPlainOdds


def heroic_odds(odds: HeroicOdds | None) -> str | None:
    if odds is None:
        return None
    return (
        f"Chance: {percent(odds.success)} · complication: {percent(odds.complication)}"
        f" · crit: {percent(odds.crit)} · fumble: {percent(odds.fumble)}"
    )


def hex_odds(odds: HexOdds | None) -> str | None:
    """The exact odds of the roll as it was asked, before the dice fell."""
    if odds is None:
        return None
    if isinstance(odds, HexPlainOdds):
        expected = float(odds.expected_successes)
        return f"At least one 6: {percent(odds.at_least_one)} · expected 6s: {expected:.2f}"
    if isinstance(odds, HexContestOdds):
        return f"Chance to win: {percent(odds.acting_wins)} · Mishap: {percent(odds.acting_mishap)}"
    if isinstance(odds, HexCastOdds):
        return (
            f"Chance: {percent(odds.success)} · loss of control: {percent(odds.loss_of_control)}"
            f" · fizzle: {percent(odds.fizzle)}"
        )
    return f"Chance: {percent(odds.success)} · Mishap: {percent(odds.mishap)}"


def sk_test_odds(odds: SkTestOdds | None) -> str | None:
    """None also when nothing is rolled (an Automatic test, or no test die)."""
    if odds is None or odds.status != "rolled" or odds.expected_degrees is None:
        return None
    return f"Chance: {percent(odds.success)} · expected degrees: {float(odds.expected_degrees):.2f}"


def sk_competition_odds(competition: SkCompetition, odds: SkCompetitionOdds | None) -> str | None:
    """Each participant's chance to win outright (input order), then the chance of a tie at the top."""
    if odds is None:
        return None
    chances = [
        f"{competitor.name} {percent(chance)}"
        for competitor, chance in zip(competition.competitors, odds.win, strict=True)
    ]
    return " · ".join([*chances, f"tie {percent(odds.tie)}"])


def yz_odds(pool: YzOdds | None, this_roll: PushOdds | None = None) -> str | None:
    """The pool's chance before rolling and after a push; with this_roll, the odds of pushing it."""
    if pool is None:
        return None
    pushing = None
    if this_roll is not None and this_roll.can_push:
        pushing = (this_roll.success_after_push.as_integer_ratio(), this_roll.expected_willpower.as_integer_ratio())
    return _yz_odds_text(
        pool.success_first_roll.as_integer_ratio(), pool.success_after_push.as_integer_ratio(), pushing
    )


Ratio = tuple[int, int]


@lru_cache(maxsize=4096)
def _yz_odds_text(first: Ratio, after_push: Ratio, pushing: tuple[Ratio, Ratio] | None) -> str:
    """The odds line from its figures as (numerator, denominator): kept, since few of them come up again and
    again, and hashing whole numbers is fast where hashing a Fraction or the odds holding them is not."""
    text = f"Chance: {percent(Fraction(*first))} · after a push: {percent(Fraction(*after_push))}"
    if pushing is not None:
        success, willpower = (Fraction(*ratio) for ratio in pushing)
        text += f"\nPushing this roll: {percent(success)} to succeed, {float(willpower):.1f} WP expected"
    return text
