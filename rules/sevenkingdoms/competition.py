"""Seven Kingdoms competitions: two or more named characters roll, the highest wins by a margin in degrees.

RULES.md section 4 (Kinds) and section 5: a participant with no test die ranks last and cannot win; a tie at
the top has margin 0 and no degrees.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice import DiceSource, Die
from rules.errors import InvalidInput
from rules.sevenkingdoms.roll import DEGREE_NAMES, SkPool, degrees_for, parse_pool, roll_pool


@dataclass(frozen=True, slots=True)
class SkCompetitor:
    """One participant's roll; result None when no test die remained (nothing rolled, ranks last)."""

    name: str
    pool: SkPool
    dice: tuple[Die, ...]
    result: int | None
    place: int

    def as_dict(self) -> dict:
        return {"name": self.name, "pool": self.pool.as_dict(), "dice": [d.as_dict() for d in self.dice],
                "result": self.result, "place": self.place}


@dataclass(frozen=True, slots=True)
class SkCompetition:
    """Everyone's roll in input order; the winner, or the names tied at the top, and the winning margin.

    margin and degrees are None when the winner had no one to beat (every other participant had no test die).
    """

    competitors: tuple[SkCompetitor, ...]
    winner: str | None
    tied: tuple[str, ...]
    margin: int | None
    degrees: int | None

    @property
    def tie(self) -> bool:
        return bool(self.tied)

    @property
    def degree_name(self) -> str | None:
        return DEGREE_NAMES[self.degrees - 1] if self.degrees else None

    @property
    def standings(self) -> tuple[SkCompetitor, ...]:
        return tuple(sorted(self.competitors, key=lambda c: c.place))

    def reading(self) -> dict:
        return {"winner": self.winner, "tie": self.tie, "tied": list(self.tied), "margin": self.margin,
                "degrees": self.degrees, "degree_name": self.degree_name,
                "standings": [c.name for c in self.standings]}

    def as_dict(self) -> dict:
        return {"competitors": [c.as_dict() for c in self.competitors], "reading": self.reading()}


MAX_PARTICIPANTS = 25
MAX_NAME = 50


def check_participants(participants: Sequence[tuple[str, SkPool]]) -> list[tuple[str, SkPool]]:
    """Two to 25 participants with unique names of 1 to 50 characters; the names come back stripped."""
    count = len(participants)
    if not 2 <= count <= MAX_PARTICIPANTS:
        raise InvalidInput("A competition needs 2 to {high} participants, not {count}", high=MAX_PARTICIPANTS,
                           count=count)
    seen: set[str] = set()
    checked = []
    for number, (name, pool) in enumerate(participants, start=1):
        name = name.strip() if isinstance(name, str) else ""
        if not name or len(name) > MAX_NAME:
            raise InvalidInput("Participant {number} needs a name of 1 to {high} characters", number=number,
                               high=MAX_NAME)
        if name.casefold() in seen:
            raise InvalidInput("Two participants are named {name!r}: names must be unique", name=name)
        if not isinstance(pool, SkPool):
            raise InvalidInput("Participant {name!r} has no pool", name=name)
        seen.add(name.casefold())
        checked.append((name, pool))
    return checked


def parse_participants(text: str) -> list[tuple[str, SkPool]]:
    """Read ``"Jaime 5D+2B, Brienne 4D+1B"`` (commas or semicolons between participants)."""
    entries = [part for part in re.split(r"[,;\n]", text or "") if part.strip()]
    participants = []
    for entry in entries:
        start = re.search(r"[+＋]?\s*\d+\s*D(?![A-Z])", entry, re.IGNORECASE)
        if start is None:
            raise InvalidInput("Cannot read {entry!r}: write each participant like Jaime 5D + 2B", entry=entry.strip())
        name = entry[: start.start()].strip().rstrip(":").strip()
        participants.append((name, parse_pool(entry[start.start():])))
    return check_participants(participants)


def roll_competition(participants: Sequence[tuple[str, SkPool]], dice: DiceSource) -> SkCompetition:
    """Each participant rolls in order; the highest result wins, a tie at the top is a tie (margin 0)."""
    rolls = []
    for name, pool in check_participants(participants):
        rolled, result = roll_pool(pool, dice) if pool.test_dice else ((), None)
        rolls.append((name, pool, rolled, result))
    results = sorted((r[3] for r in rolls if r[3] is not None), reverse=True)
    competitors = tuple(
        SkCompetitor(name, pool, rolled, result,
                     1 + sum(other > result for other in results) if result is not None else len(results) + 1)
        for name, pool, rolled, result in rolls)
    if not results:
        return SkCompetition(competitors, None, (), None, None)
    top = [c.name for c in competitors if c.result == results[0]]
    if len(top) > 1:
        return SkCompetition(competitors, None, tuple(top), 0, None)
    if len(results) == 1:
        return SkCompetition(competitors, top[0], (), None, None)
    margin = results[0] - results[1]
    return SkCompetition(competitors, top[0], (), margin, degrees_for(margin))
