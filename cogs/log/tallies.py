"""What /stats tells: the roll log's entries summed per system and in total, with exact luck from rules.luck.

The luck itself (expected successes, percentile, "at least this good") is `rules.luck.luck_of` over the stored
luck events; this module only groups the entries and adds the per-system extras the log keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.storage.roll_log import LogEntry
from rules.language import N_
from rules.luck import Luck, LuckEvent, luck_of

# Translators: the game systems' names (HEX is a proper name; Year Zero is the engine of Forbidden Lands).
SYSTEM_NAMES = {"hex": N_("HEX"), "yearzero": N_("Year Zero"), "heroic": N_("Heroic Rolls"),
                "sevenkingdoms": N_("Seven Kingdoms"), "resources": N_("Resource dice")}
IN_TOTAL = N_("In total")
BARS = "▁▂▃▄▅▆▇█"
SPARK_LENGTH = 40
"""Events shown in the sparkline (the latest): one line on a phone."""


@dataclass(frozen=True, slots=True)
class Degrees:
    """Seven Kingdoms: the average degrees of the rolled tests, and the average the odds expected."""

    tests: int
    average: Fraction
    expected: Fraction


@dataclass(frozen=True, slots=True)
class Tally:
    """The figures of one system (or of all): rolls, their luck, and the extras the system has."""

    name: str
    rolls: int
    luck: Luck | None
    pushes: int = 0
    willpower: int = 0
    banes: int = 0
    degrees: Degrees | None = None


def events_of(entries: Sequence[LogEntry]) -> list[LuckEvent]:
    """Every luck event of these entries, in the order they were rolled."""
    return [LuckEvent.from_text(text) for entry in entries for text in entry.events]


def _degrees(entries: Sequence[LogEntry]) -> Degrees | None:
    rolled = [entry.extras for entry in entries if "expected_degrees" in entry.extras]
    if not rolled:
        return None
    average = Fraction(sum(int(extras["degrees"]) for extras in rolled), len(rolled))
    expected = sum((Fraction(extras["expected_degrees"]) for extras in rolled), Fraction(0)) / len(rolled)
    return Degrees(len(rolled), average, expected)


def _extra(entries: Sequence[LogEntry], name: str) -> int:
    return sum(int(entry.extras.get(name, 0)) for entry in entries)


def tally(name: str, entries: Sequence[LogEntry]) -> Tally:
    """The figures of these entries under one name."""
    return Tally(
        name=name, rolls=len(entries), luck=luck_of(events_of(entries)), pushes=_extra(entries, "pushes"),
        willpower=_extra(entries, "willpower"), banes=_extra(entries, "banes"), degrees=_degrees(entries),
    )


def per_system(entries: Sequence[LogEntry]) -> list[Tally]:
    """One tally per system that has rolls, in the order of SYSTEM_NAMES."""
    return [
        tally(label, chosen)
        for system, label in SYSTEM_NAMES.items()
        if (chosen := [entry for entry in entries if entry.system == system])
    ]


def sparkline(events: Sequence[LuckEvent], length: int = SPARK_LENGTH) -> str:
    """The latest events as bars: a success is high (the less likely, the higher), a failure low (the likelier
    it was to succeed, the lower). A middling evening wobbles around the middle."""
    bars = []
    for event in events[-length:]:
        if event.success:
            bars.append(BARS[4 + min(3, int((1 - event.p) * 4))])
        else:
            bars.append(BARS[3 - min(3, int(event.p * 4))])
    return "".join(bars)
