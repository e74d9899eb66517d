"""Seven Kingdoms extended tests: a named task needing N degrees, each successful roll adding its degrees.

Pure steps only: the bot keeps the progress per channel in SQLite.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import InvalidInput, check_range
from rules.sevenkingdoms.roll import DEGREE_NAMES, SkTest

MAX_TASK_NAME = 100
"""The longest name an extended test may have (the bot's option and its storage use this too)."""


def is_complete(needed: int, gained: int) -> bool:
    """An extended test is complete once its successes reach what it needs."""
    return gained >= needed


def still_needed(needed: int, gained: int) -> int:
    """The successes an extended test still needs (0 once complete: extra degrees carry nothing over)."""
    return max(needed - gained, 0)


@dataclass(frozen=True, slots=True)
class ExtendedProgress:
    """An extended test: a named task needing `needed` successes (1–50), with `gained` so far."""

    name: str
    needed: int
    gained: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not 1 <= len(self.name.strip()) <= MAX_TASK_NAME:
            raise InvalidInput("An extended test needs a name of 1 to {high} characters", high=MAX_TASK_NAME)
        check_range("Successes needed", self.needed, 1, 50)
        check_range("Successes gained", self.gained, 0, self.needed + len(DEGREE_NAMES) - 1)

    @property
    def complete(self) -> bool:
        return is_complete(self.needed, self.gained)

    @property
    def remaining(self) -> int:
        return still_needed(self.needed, self.gained)

    def as_dict(self) -> dict:
        return {"name": self.name, "needed": self.needed, "gained": self.gained,
                "remaining": self.remaining, "complete": self.complete}


def advance(progress: ExtendedProgress, test: SkTest) -> ExtendedProgress:
    """The progress after one more basic test: a success adds its degrees, a failure adds nothing."""
    if progress.complete:
        raise InvalidInput("The extended test {name!r} is already complete", name=progress.name)
    if test.kind != "basic":
        raise InvalidInput("An extended test is made of basic tests, not conflict tests")
    if test.status == "automatic":
        raise InvalidInput("An Automatic test adds no degrees: give the extended test a difficulty above 0")
    if not test.success or test.degrees is None:  # a rolled success always has its degrees
        return progress
    return replace(progress, gained=progress.gained + test.degrees)
