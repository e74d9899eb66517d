"""Errors raised by the rules engine.

Every message is written to be shown to a player exactly as it is: it names the value that was wrong and,
where it helps, what would be right. Nothing else in the engine raises for bad input.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules engine raises for something a player asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidInput(RulesError):
    """A value outside what the rules allow (a bound, a missing or conflicting option)."""


class CannotAttempt(RulesError):
    """The rules forbid the roll itself (a voluntary action with no dice, a rank below the minimum)."""


class CannotPush(RulesError):
    """A Year Zero roll that cannot be pushed (nothing to reroll, already pushed)."""


class FacesError(RulesError):
    """Faces given for a roll made with physical dice that cannot be right (count or value)."""


def check_range(name: str, value: int, low: int, high: int) -> int:
    """Return value when low <= value <= high, else raise InvalidInput naming the bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise InvalidInput(f"{name} {value} is out of range: it must be from {low} to {high}")
    return value
