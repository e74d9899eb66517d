"""What the roll log keeps of a Seven Kingdoms test besides its card: its luck event, and its degrees against the
degrees its odds expected."""

from __future__ import annotations

from typing import Any

from bot.interactions.logbook import Rolled
from rules.sevenkingdoms.luck_events import sevenkingdoms_events
from rules.sevenkingdoms.odds import SkTestOdds
from rules.sevenkingdoms.roll import SkTest


def sevenkingdoms_rolled(test: SkTest, odds: SkTestOdds, *, kind: str | None = None) -> Rolled:
    """A Seven Kingdoms basic, conflict or extended roll: its event, and degrees against the expected ones."""
    extras: dict[str, Any] = {}
    if test.rolled and odds.expected_degrees is not None:
        extras = {"degrees": test.degrees, "expected_degrees": str(odds.expected_degrees)}
    return Rolled("sevenkingdoms", kind or test.kind, sevenkingdoms_events(test, odds), extras)
