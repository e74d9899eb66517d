"""Every Odds field, in one place: the rules' odds objects as the line an embed shows under "Odds".

The renderers call these with the odds the cog asked the rules for; nothing else formats a chance. Each takes
None too, for a card shown without odds, and then gives None: the card has no Odds field.
"""

from __future__ import annotations

from bot.render.common import percent
from rules.heroic_odds import HeroicOdds


def heroic_odds(odds: HeroicOdds | None) -> str | None:
    if odds is None:
        return None
    return (
        f"Chance: {percent(odds.success)} · complication: {percent(odds.complication)}"
        f" · crit: {percent(odds.crit)} · fumble: {percent(odds.fumble)}"
    )
