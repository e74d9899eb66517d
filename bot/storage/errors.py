"""Errors from the storage layer: `StorageUnavailable` names the database for its host; the rest are `PlayerError`s."""

from __future__ import annotations

from pathlib import Path

from bot.errors import PlayerError
from bot.text import inert
from rules.errors import Term
from rules.language import N_


class StorageError(Exception):
    """Base of every error raised by bot.storage."""


class StorageUnavailable(StorageError):
    """The database cannot be opened or used; the message names the file, or PostgreSQL's host (never a password)."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"Cannot use the database at {path}: {reason}")
        self.reason = reason


class StorageBusy(StorageError, PlayerError):
    """The database stayed locked by someone else for longer than the busy timeout; nothing was written."""

    def __init__(self) -> None:
        super().__init__(N_("The dice table is busy - try again in a moment."))


class StorageOffline(StorageBusy):
    """The database server could not be reached, or went away during the statement; nothing was written."""


class InvalidValue(StorageError, PlayerError):
    """A value the storage refuses before touching the database (a negative amount, an empty name)."""


class NotEnoughWillpower(StorageError, PlayerError):
    """A spend larger than the Willpower the player has; nothing changed."""

    def __init__(self, have: int, wanted: int) -> None:
        super().__init__(N_("You have {have} Willpower; you cannot spend {wanted}."), have=have, wanted=wanted)


class NoSuchExtendedTest(StorageError, PlayerError):
    """An extended test named in a channel where it was never started (or was cleared)."""

    def __init__(self, name: str) -> None:
        super().__init__(N_('There is no extended test named "{name}" in this channel; start it first.'),
                         name=inert(name))


class TaskComplete(StorageError, PlayerError):
    """A roll for an extended test that was completed (perhaps by a roll that landed a moment earlier)."""

    def __init__(self, name: str) -> None:
        super().__init__(N_('The extended test "{name}" is already complete; start it over with restart.'),
                         name=inert(name))


def check_whole(name: str, value: int, *, low: int, high: int | None = None) -> None:
    """Refuse anything but a whole number in [low, high] with a message a player can read."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue("{name} must be a whole number, not {value!r}", name=Term(name), value=value)
    if high is not None and not low <= value <= high:
        raise InvalidValue("{name} must be from {low} to {high}, not {value}", name=Term(name), low=low, high=high,
                           value=value)
    if value < low:
        raise InvalidValue("{name} must be at least {low}, not {value}", name=Term(name), low=low, value=value)
