"""A whole command line, as typed into Discord's message box (``/yz attribute:4 skill:2 gear:1``), read against
the definitions the bot registered: the command, its subcommands, then each ``name:value`` typed as the option
is. What Discord's client would refuse (an unknown command or option, a value that is not a number, a choice
not offered) is a CannotInvoke; bounds and required options are checked by invoke.command_data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.playground.invoke import (
    BOOLEAN,
    CHANNEL,
    GROUP,
    INTEGER,
    NUMBER,
    STRING,
    SUBCOMMAND,
    USER,
    CannotInvoke,
)
from bot.playground.world import FakeChannel, FakeUser


@dataclass
class CommandLine:
    """What a line names: the registered command, the subcommand path, and the options typed so far."""

    command: dict
    path: list[str] = field(default_factory=list)
    options: dict[str, object] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    """Each option's value as typed (for autocomplete, which gets the text)."""


def read_line(
    line: str, find: dict[str, dict], users: list[FakeUser], channels: list[FakeChannel], *, typed_only: bool = False
) -> CommandLine:
    """Read `line` ("/name sub name:value ...") with `find` mapping command names to their definitions.
    With typed_only, values are kept as text (an autocomplete's partial input)."""
    words = line.strip().removeprefix("/").split()
    if not words:
        raise CannotInvoke("type a command after /")
    command = find.get(words[0].lower())
    if command is None:
        raise CannotInvoke(f"there is no command /{words[0]}")
    read = CommandLine(command)
    definitions, rest = command.get("options") or [], words[1:]
    while any(option["type"] in (SUBCOMMAND, GROUP) for option in definitions):
        if not rest:
            names = ", ".join(option["name"] for option in definitions)
            raise CannotInvoke(f"/{command['name']} needs a subcommand: {names}")
        chosen = next((o for o in definitions if o["name"] == rest[0].lower()), None)
        if chosen is None:
            raise CannotInvoke(f"/{' '.join([command['name'], *read.path])} has no subcommand {rest[0]!r}")
        read.path.append(chosen["name"])
        definitions, rest = chosen.get("options") or [], rest[1:]
    by_name = {option["name"]: option for option in definitions}
    for name, text in _pairs(" ".join(rest), by_name):
        read.texts[name] = text
        if not typed_only:
            read.options[name] = _value(by_name[name], text, users, channels)
    return read


def _pairs(text: str, by_name: dict[str, dict]) -> list[tuple[str, str]]:
    """`name:value` pairs; a value runs until the next known `name:` (so a note may hold spaces)."""
    if not text.strip():
        return []
    names = "|".join(re.escape(name) for name in sorted(by_name, key=len, reverse=True))
    marks = list(re.finditer(rf"(?:^|\s)({names}):", text)) if names else []
    if not marks or text[: marks[0].start()].strip():
        stray = text[: marks[0].start()] if marks else text
        raise CannotInvoke(f"{stray.split()[0]!r} is not an option here; options: {', '.join(by_name) or 'none'}")
    pairs = []
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        pairs.append((mark[1], text[mark.end() : end].strip()))
    return pairs


def _value(definition: dict, text: str, users: list[FakeUser], channels: list[FakeChannel]) -> object:
    name, kind = definition["name"], definition["type"]
    choices = definition.get("choices")
    if choices:
        for choice in choices:
            if text.lower() in (str(choice["value"]).lower(), choice["name"].lower()):
                return choice["value"]
        raise CannotInvoke(f"{name}: pick one of {', '.join(choice['name'] for choice in choices)}")
    if kind == INTEGER:
        if not re.fullmatch(r"-?[0-9]+", text):
            raise CannotInvoke(f"{name}: input a valid integer")
        return int(text)
    if kind == NUMBER:
        try:
            return float(text)
        except ValueError:
            raise CannotInvoke(f"{name}: input a valid number") from None
    if kind == BOOLEAN:
        if text.lower() not in ("true", "false"):
            raise CannotInvoke(f"{name}: pick True or False")
        return text.lower() == "true"
    if kind == USER:
        return _named(name, text.removeprefix("@"), users, "a member of this server")
    if kind == CHANNEL:
        return _named(name, text.removeprefix("#"), channels, "a channel of this server")
    if kind == STRING:
        return text
    raise CannotInvoke(f"{name}: this kind of option (type {kind}) cannot be typed in the playground")


def _named(option: str, text: str, things: list, what: str) -> object:
    for thing in things:
        if text.lower() in (thing.name.lower(), str(thing.id)):
            return thing
    raise CannotInvoke(f"{option}: {text!r} is not {what}")
