"""Server-side checks of a slash command's raw options against the command's own declarations.

Discord's client enforces an option's type, bounds, lengths and choices, but the bot receives whatever an
interaction carries: a crafted payload can send -5 for a 0-10 option, 3.5 or "x" for an integer, a
10,000-character note, a choice that does not exist, or leave out a required option. discord.py passes most of
these on as they are (and a malformed number even fails while it builds the namespace, leaving the player with
"This interaction failed"). ``RollkeeperTree.interaction_check`` calls ``raw_options_problem`` before
discord.py reads the options, so every such interaction gets a clear private answer and nothing runs.
"""

from __future__ import annotations

import weakref
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

_SUBCOMMAND_TYPES = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)
_SNOWFLAKE_TYPES = {6, 7, 8, 9, 11}


def _number_problem(name: str, value: Any, parameter: app_commands.Parameter) -> str | None:
    integer = parameter.type is AppCommandOptionType.integer
    if isinstance(value, bool) or not isinstance(value, int | float) or (integer and not isinstance(value, int)):
        return f"`{name}` must be a {'whole ' if integer else ''}number."
    if value != value or value in (float("inf"), float("-inf")):
        return f"`{name}` must be a number."
    low, high = parameter.min_value, parameter.max_value
    if (low is not None and value < low) or (high is not None and value > high):
        return f"`{name}` must be from {low} to {high}, not {value}."
    return None


def _string_problem(name: str, value: Any, parameter: app_commands.Parameter) -> str | None:
    if not isinstance(value, str):
        return f"`{name}` must be text."
    low, high = parameter.min_value, parameter.max_value  # discord.py keeps a string's length bounds here
    if high is not None and len(value) > high:
        return f"`{name}` is too long: at most {high} characters, not {len(value)}."
    if low is not None and len(value) < low:
        return f"`{name}` is too short: at least {low} characters."
    return None


def option_problem(name: str, option_type: Any, value: Any, parameter: app_commands.Parameter) -> str | None:
    """What is wrong with one raw option, or None when it fits the parameter's declaration."""
    if option_type != parameter.type.value:
        return f"`{name}` has the wrong type of value."
    if parameter.choices:
        if value not in [choice.value for choice in parameter.choices]:
            return f"`{name}` must be one of: {', '.join(choice.name for choice in parameter.choices)}."
        return None
    if parameter.type in (AppCommandOptionType.integer, AppCommandOptionType.number):
        return _number_problem(name, value, parameter)
    if parameter.type is AppCommandOptionType.string:
        return _string_problem(name, value, parameter)
    if parameter.type is AppCommandOptionType.boolean and not isinstance(value, bool):
        return f"`{name}` must be true or false."
    if option_type in _SNOWFLAKE_TYPES and not (isinstance(value, str) and value.isdigit() and len(value) < 21):
        return f"`{name}` does not name anything I can find."
    return None


def _resolve(tree: app_commands.CommandTree, data: dict) -> tuple[app_commands.Command | None, list]:
    """The slash command an interaction names (descending into groups) and its own raw options."""
    guild_id = data.get("guild_id")
    guild = discord.Object(int(guild_id)) if isinstance(guild_id, str) and guild_id.isdigit() else None
    found = tree.get_command(str(data.get("name")), guild=guild) or tree.get_command(str(data.get("name")))
    options = data.get("options") or []
    while isinstance(found, app_commands.Group):
        nested = next((o for o in options if isinstance(o, dict) and o.get("type") in _SUBCOMMAND_TYPES), None)
        if nested is None:
            return None, []
        found, options = found.get_command(str(nested.get("name"))), nested.get("options") or []
    return (found if isinstance(found, app_commands.Command) else None), options


_PARAMETERS: weakref.WeakKeyDictionary[app_commands.Command, dict[str, app_commands.Parameter]] = (
    weakref.WeakKeyDictionary()
)


def _parameters(command: app_commands.Command) -> dict[str, app_commands.Parameter]:
    """A command's parameters by the name Discord sends; built once per command (discord.py rebuilds the list
    on every access, and every interaction asks)."""
    found = _PARAMETERS.get(command)
    if found is None:
        found = _PARAMETERS[command] = {parameter.display_name: parameter for parameter in command.parameters}
    return found


def raw_options_problem(tree: app_commands.CommandTree, data: Any) -> str | None:
    """A player-fit message when the interaction's options do not fit its command's declarations, else None.

    Unknown commands are left to discord.py (which reports them through the tree's error handler).
    """
    if not isinstance(data, dict) or data.get("type", 1) != 1:
        return None
    command, options = _resolve(tree, data)
    if command is None:
        return None
    if not isinstance(options, list) or not all(isinstance(o, dict) and "name" in o for o in options):
        return "This command's options could not be read."
    parameters = _parameters(command)
    given = {str(option["name"]): option for option in options}
    unknown = sorted(set(given) - set(parameters))
    if unknown or len(given) != len(options):
        return f"`/{command.qualified_name}` has no option `{unknown[0] if unknown else 'repeated'}`."
    for name, parameter in parameters.items():
        option = given.get(name)
        if option is None:
            if parameter.required:
                return f"`/{command.qualified_name}` needs the option `{name}`."
            continue
        problem = option_problem(name, option.get("type"), option.get("value"), parameter)
        if problem:
            return problem
    return None
