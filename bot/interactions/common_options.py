"""The slash-command options the cogs share, declared once: the ``note`` text, the ``private`` flag and their
descriptions, and ``Descriptions``, the one way a cog describes its options (``app_commands.describe``, never
docstrings). Every description is English marked for translation (``N_``); a choice label or description made
of a template and values is a ``picker_label``.

raw_options.py beside it checks the raw options an interaction carries against whatever the commands declared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands

from rules.language import N_

NOTE_LENGTH = 200
Note = app_commands.Range[str, 1, NOTE_LENGTH]
"""A note shown on the result, 1 to 200 characters: declare it ``note: Note | None = None``."""

PRIVATE = N_("Show the result only to you")
"""Declare the flag ``private: bool = False``: the answer is then ephemeral."""
NOTE = N_("A note shown on the result, e.g. what the roll is for")
SHARED = {"private": PRIVATE, "note": NOTE}

T = TypeVar("T")


class _ResolvedUser(app_commands.Transformer):
    """A user option as discord.py gives it, refused when Discord sent the id alone (no user data: discord.py then
    gives a bare discord.Object, documented in app_commands.Namespace); the tree says "I cannot find" privately."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.user

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> discord.abc.User:
        if not isinstance(value, discord.abc.User):
            raise app_commands.TransformerError(value, self.type, self)
        return value


Player = app_commands.Transform[discord.abc.User, _ResolvedUser]
"""A player picked in an option (a User, or a Member in a server): declare it ``player: Player | None = None``."""


class Descriptions:
    """The option descriptions of one cog, the shared ones included.

    Calling it is ``app_commands.describe`` for one command: the options named take the cog's text (or the shared
    one), those given as keywords take that text, for an option only one command words that way.
    """

    def __init__(self, own: Mapping[str, str] | None = None) -> None:
        self._known = {**SHARED, **(own or {})}

    def __call__(self, *names: str, **extra: str) -> Callable[[T], T]:
        return app_commands.describe(**{name: self._known[name] for name in names}, **extra)


describe = Descriptions()


def picker_label(template: str, **values: object) -> app_commands.locale_str:
    """A description or choice label made of an English template and values: Discord's default text is the
    template filled in; the Translator (bot/app/translator.py) translates the template, and values that are
    `rules.errors.Term`s, then fills it in."""
    return app_commands.locale_str(template.format(**values), template=template, values=values)
"""For a cog whose options are each described once: the shared ones by name, its own as keywords."""
