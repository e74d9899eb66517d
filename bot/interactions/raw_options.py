"""Server-side checks of a slash command's raw options against the command's own declarations.

Discord's client enforces an option's type, bounds, lengths and choices, but the bot receives whatever an
interaction carries: a crafted payload can send -5 for a 0-10 option, 3.5 or "x" for an integer, a
10,000-character note, a choice that does not exist, or leave out a required option. discord.py passes most of
these on as they are (and a malformed number even fails while it builds the namespace, leaving the player with
"This interaction failed"). ``RollkeeperTree.interaction_check`` calls ``raw_options_problem`` before
discord.py reads the options, so every such interaction gets a clear private answer and nothing runs.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any, TypeGuard

import discord
from discord import AppCommandOptionType, app_commands

from rules.language import Speech

_SUBCOMMAND_TYPES = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)
_SNOWFLAKE_TYPES = {6, 7, 8, 9, 11}


@dataclass(frozen=True, slots=True)
class Declared:
    """What one option of a command must be: read once from discord.py's Parameter (whose attributes are
    properties that look through to the transformer on every access) and kept for every interaction."""

    name: str
    type: AppCommandOptionType
    required: bool
    choices: tuple[Any, ...]
    choice_names: str
    low: Any
    high: Any

    @classmethod
    def of(cls, parameter: app_commands.Parameter) -> Declared:
        choices = tuple(choice.value for choice in parameter.choices or ())
        names = ", ".join(choice.name for choice in parameter.choices or ())
        return cls(
            parameter.display_name, parameter.type, parameter.required, choices, names,
            parameter.min_value, parameter.max_value,  # for a string, discord.py keeps its length bounds here
        )


# Translators: in these refusals, {name} is an option's name (kept in English, as Discord shows it).
def _number_problem(value: Any, declared: Declared, speech: Speech) -> str | None:
    name, integer = declared.name, declared.type is AppCommandOptionType.integer
    kind = type(value)  # JSON gives exactly int or float (a bool is neither, though it is an int subclass)
    if kind is not int and (kind is not float or integer):
        if integer:
            return speech._("`{name}` must be a whole number.", name=name)
        return speech._("`{name}` must be a number.", name=name)
    if kind is float and not math.isfinite(value):
        return speech._("`{name}` must be a number.", name=name)
    low, high = declared.low, declared.high
    if (low is not None and value < low) or (high is not None and value > high):
        return speech._("`{name}` must be from {low} to {high}, not {value}.", name=name, low=low, high=high,
                        value=value)
    return None


def _string_problem(value: Any, declared: Declared, speech: Speech) -> str | None:
    name = declared.name
    if not isinstance(value, str):
        return speech._("`{name}` must be text.", name=name)
    if declared.high is not None and len(value) > declared.high:
        return speech._("`{name}` is too long: at most {high} characters, not {count}.", name=name,
                        high=declared.high, count=len(value))
    if declared.low is not None and len(value) < declared.low:
        return speech._("`{name}` is too short: at least {low} characters.", name=name, low=declared.low)
    return None


_NUMBERS = (AppCommandOptionType.integer, AppCommandOptionType.number)


def option_problem(option_type: Any, value: Any, declared: Declared, speech: Speech) -> str | None:
    """What is wrong with one raw option, or None when it fits its declaration."""
    name, kind = declared.name, declared.type
    if option_type != kind.value:
        return speech._("`{name}` has the wrong type of value.", name=name)
    if declared.choices:
        if value not in declared.choices:
            # Translators: {choices} lists the option's choices as Discord shows them.
            return speech._("`{name}` must be one of: {choices}.", name=name, choices=declared.choice_names)
        return None
    if kind in _NUMBERS:
        return _number_problem(value, declared, speech)
    if kind is AppCommandOptionType.string:
        return _string_problem(value, declared, speech)
    if kind is AppCommandOptionType.boolean and not isinstance(value, bool):
        return speech._("`{name}` must be true or false.", name=name)
    if option_type in _SNOWFLAKE_TYPES and not _snowflake(value):
        return speech._("`{name}` does not name anything I can find.", name=name)
    return None


def _snowflake(value: object) -> TypeGuard[str]:
    """A Discord id as JSON carries it: ASCII digits only ("²" is a digit to str.isdigit, but not to int)."""
    return isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 21


def _resolve(tree: app_commands.CommandTree, data: dict) -> tuple[app_commands.Command | None, list]:
    """The slash command an interaction names (descending into groups) and its own raw options."""
    guild_id = data.get("guild_id")
    guild = discord.Object(int(guild_id)) if _snowflake(guild_id) else None
    found = tree.get_command(str(data.get("name")), guild=guild) or tree.get_command(str(data.get("name")))
    options = data.get("options") or []
    while isinstance(found, app_commands.Group):
        nested = next((o for o in options if isinstance(o, dict) and o.get("type") in _SUBCOMMAND_TYPES), None)
        if nested is None:
            return None, []
        found, options = found.get_command(str(nested.get("name"))), nested.get("options") or []
    return (found if isinstance(found, app_commands.Command) else None), options


_DECLARED: weakref.WeakKeyDictionary[app_commands.Command, dict[str, Declared]] = weakref.WeakKeyDictionary()


def declared_options(command: app_commands.Command) -> dict[str, Declared]:
    """A command's options by the name Discord sends, read once per command (discord.py rebuilds its parameter
    list on every access, and every interaction asks)."""
    found = _DECLARED.get(command)
    if found is None:
        found = {parameter.display_name: Declared.of(parameter) for parameter in command.parameters}
        _DECLARED[command] = found
    return found


def raw_options_problem(tree: app_commands.CommandTree, data: Any, speech: Speech) -> str | None:
    """A player-fit message when the interaction's options do not fit its command's declarations, else None.

    Unknown commands are left to discord.py (which reports them through the tree's error handler).
    """
    if not isinstance(data, dict) or data.get("type", 1) != 1:
        return None
    command, options = _resolve(tree, data)
    if command is None:
        return None
    if not isinstance(options, list) or not all(isinstance(o, dict) and "name" in o for o in options):
        return speech._("This command's options could not be read.")
    declared = declared_options(command)
    given = {str(option["name"]): option for option in options}
    unknown = sorted(given.keys() - declared.keys())
    if unknown or len(given) != len(options):
        if not unknown:
            return speech._("`/{command}` has an option given twice.", command=command.qualified_name)
        return speech._("`/{command}` has no option `{name}`.", command=command.qualified_name, name=unknown[0])
    for name, expected in declared.items():
        option = given.get(name)
        if option is None:
            if expected.required:
                return speech._("`/{command}` needs the option `{name}`.", command=command.qualified_name, name=name)
            continue
        problem = option_problem(option.get("type"), option.get("value"), expected, speech)
        if problem:
            return problem
    return None
