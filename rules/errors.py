"""Errors raised by the rules engine.

Every message is written to be shown to a player exactly as it is: it names the value that was wrong and,
where it helps, what would be right. Nothing else in the engine raises for bad input. An error keeps its English
template and values apart, so that ``Speech.error`` (rules/language.py) can say it in the player's language; a
value that is itself a word to translate (an option's name) is a ``Term``.
"""

from __future__ import annotations


class Term(str):
    """A value of an error's template that is itself a word to translate (an option's name, a game term)."""


class Terms(tuple[str, ...]):
    """A value of an error's template that is a list of words to translate, shown joined by commas."""

    def __str__(self) -> str:
        return ", ".join(self)


class RulesError(ValueError):
    """Base of every error the rules engine raises for something a player asked."""

    def __init__(self, template: str, **values: object) -> None:
        self.template = template
        self.values = values
        self.message = template.format(**values) if values else template
        super().__init__(self.message)

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
        # Translators: {name} is what the player gave (e.g. Attribute), {value} the value refused.
        raise InvalidInput("{name} must be a whole number, not {value!r}", name=Term(name), value=value)
    if not low <= value <= high:
        # Translators: {name} is what the player gave (e.g. Attribute); {low} to {high} the bounds.
        raise InvalidInput("{name} {value} is out of range: it must be from {low} to {high}", name=Term(name),
                           value=value, low=low, high=high)
    return value
