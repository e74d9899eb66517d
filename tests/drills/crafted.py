"""Hypothesis strategies for hostile interactions: crafted slash commands and crafted clicks.

A crafted command starts as a registered command with valid options, as Discord's client would send it, and
then gets one or more faults written into its options: a value outside the declared bounds or choices (negative,
huge, past 2**63, fractional, NaN, text, JSON of the wrong kind, a 10,000-character string), the wrong option
type, a required option left out, an unknown or repeated option, a subcommand left out. None of them is a
payload the bot may act on (checked once: of 20,000 draws, none passed
`bot.interactions.raw_options.raw_options_problem` but the commands left without their subcommand, which discord.py
itself refuses).
"""

from __future__ import annotations

import math

from hypothesis import event
from hypothesis import strategies as st

from bot.playground.invoke import Place, command_data
from tests.bot.payloads import click_payload as crafted_button_click
from tests.drills.conftest import click_payload
from tests.drills.reading import push_button_roll
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser

APPLICATION_COMMAND = 2
SUBCOMMAND, GROUP, STRING, INTEGER, BOOLEAN, USER, NUMBER = 1, 2, 3, 4, 5, 6, 10
OPTION_TYPES = (STRING, INTEGER, BOOLEAN, USER, 7, 8, 9, NUMBER, 11)
LETTERS = "abcdefghijklmnopqrstuvwxyz"
MOSTLY = st.sampled_from([True, True, True, False])


# -- slash commands ----------------------------------------------------------------------------------------


def leaves(commands: list[dict]) -> list[tuple[dict, list[str], list[dict]]]:
    """Every invocable command: (the registered command, its subcommand path, its option definitions)."""
    found = []
    for command in commands:
        options = command.get("options") or []
        groups = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        if not groups:
            found.append((command, [], options))
        for sub in groups:
            found.append((command, [sub["name"]], sub.get("options") or []))
    return found


def valid_value(definition: dict, user: FakeUser) -> st.SearchStrategy:
    kind = definition["type"]
    if definition.get("choices"):
        return st.sampled_from([choice["value"] for choice in definition["choices"]])
    if kind in (INTEGER, NUMBER):
        return st.integers(definition.get("min_value", -(2**53)), definition.get("max_value", 2**53))
    if kind == BOOLEAN:
        return st.booleans()
    if kind == USER:
        return st.just(user)
    shortest = definition.get("min_length", 1)
    return st.text("abc 3D+", min_size=shortest, max_size=max(shortest, min(definition.get("max_length", 20), 20)))


def huge() -> st.SearchStrategy:
    return st.sampled_from([2**63, 2**63 - 1, -(2**63) - 1, 2**64 + 5, 10**30, -(10**30), 2**53 + 1])


def not_whole() -> st.SearchStrategy:
    """NaN, the infinities and fractions: never an integer option's value (3.0 would pass, to discord.py)."""
    return st.sampled_from([math.nan, math.inf, -math.inf]) | st.integers(-(10**6), 10**6).map(lambda n: n + 0.5)


def bad_value(definition: dict) -> st.SearchStrategy:
    """A value the option's declaration refuses (never one Discord's client would let through)."""
    kind, low, high = definition["type"], definition.get("min_value"), definition.get("max_value")
    wrong_json = st.one_of(
        st.none(), st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=1)
    )
    if definition.get("choices"):
        choices = [choice["value"] for choice in definition["choices"]]
        return st.one_of(st.text(max_size=12).filter(lambda v: v not in choices), st.integers(), wrong_json)
    if kind in (INTEGER, NUMBER):
        outside = []
        if low is not None:
            outside.append(st.integers(max_value=low - 1))
        if high is not None:
            outside.append(st.integers(min_value=high + 1))
        return st.one_of(
            *outside, huge(), not_whole(), st.sampled_from(["3", "abc", "", "1e3"]), st.booleans(),
            wrong_json,
        )
    if kind == BOOLEAN:
        return st.one_of(st.sampled_from(["true", "yes", 1, 0, "false"]), wrong_json)
    if kind == USER:
        return st.one_of(st.sampled_from(["abc", "", "-5", "1" * 25]), st.integers(), wrong_json)
    longest = definition.get("max_length")
    too_long = [st.sampled_from([10_000, longest + 1]).map(lambda n: "x" * n)] if longest else []
    too_short = [st.just("")] if definition.get("min_length", 0) > 0 else []
    return st.one_of(*too_long, *too_short, st.integers(), st.booleans(), wrong_json)


@st.composite
def crafted_command(draw, fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> dict:
    """A registered command with valid required options, then one or more faults written into its options."""
    command, path, definitions = draw(st.sampled_from(leaves(fake.commands())))
    options = {d["name"]: draw(valid_value(d, user)) for d in definitions if d.get("required") or draw(st.booleans())}
    data = command_data(command, path, options, Place(user, fake.guild, channel))
    leaf = data["options"][0]["options"] if path else data["options"]
    by_name = {d["name"]: d for d in definitions}
    faults = draw(st.lists(st.sampled_from(FAULTS), min_size=1, max_size=3))
    applied = [fault(draw, leaf, by_name) for fault in faults]
    if not any(applied):  # none of the drawn faults fits this command: leave out a subcommand or add an option
        fallback = draw(st.sampled_from([unknown_option, missing_subcommand if path else unknown_option]))
        fallback(draw, leaf, by_name, data)
        faults.append(fallback)
    for fault, fitted in zip(faults, [*applied, True], strict=False):
        if fitted:
            event(f"fault: {fault.__name__}")
    return fake.payload(APPLICATION_COMMAND, data, user=user, channel=channel)


def bad_option_value(draw, leaf: list[dict], definitions: dict, data: dict | None = None) -> bool:
    if not definitions:
        return False
    name = draw(st.sampled_from(sorted(definitions)))
    value = draw(bad_value(definitions[name]))
    given = next((option for option in leaf if option["name"] == name), None)
    if given is None:
        leaf.append(given := {"name": name, "type": definitions[name]["type"]})
    given["value"] = value
    return True


def wrong_option_type(draw, leaf: list[dict], definitions: dict, data: dict | None = None) -> bool:
    if not leaf:
        return False
    option = draw(st.sampled_from(leaf))
    declared = definitions.get(option["name"], {}).get("type")
    option["type"] = draw(st.sampled_from([kind for kind in OPTION_TYPES if kind != declared]))
    return True


def missing_required(draw, leaf: list[dict], definitions: dict, data: dict | None = None) -> bool:
    required = [option for option in leaf if definitions.get(option["name"], {}).get("required")]
    if not required:
        return False
    name = draw(st.sampled_from(required))["name"]
    leaf[:] = [option for option in leaf if option["name"] != name]  # every copy, if another fault repeated it
    return True


def unknown_option(draw, leaf: list[dict], definitions: dict, data: dict | None = None) -> bool:
    name = draw(st.text(LETTERS + "_", min_size=1, max_size=32).filter(lambda n: n not in definitions))
    value = draw(st.integers() | st.text(max_size=5))
    leaf.append({"name": name, "type": draw(st.sampled_from(OPTION_TYPES)), "value": value})
    return True


def repeated_option(draw, leaf: list[dict], definitions: dict, data: dict | None = None) -> bool:
    if not leaf:
        return False
    leaf.append(dict(draw(st.sampled_from(leaf))))
    return True


def missing_subcommand(draw, leaf: list[dict], definitions: dict, data: dict | None = None) -> bool:
    if data is None or not data["options"] or data["options"][0]["type"] not in (SUBCOMMAND, GROUP):
        return False
    data["options"] = draw(st.sampled_from([[], leaf]))  # no subcommand, or its options without it
    return True


FAULTS = (bad_option_value, bad_option_value, wrong_option_type, missing_required, unknown_option, repeated_option)


@st.composite
def unknown_command(draw, fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> dict:
    """A command name (and id) the bot never registered, or a registered group's unknown subcommand."""
    registered = {command["name"]: command for command in fake.commands()}
    groups = [c for c in registered.values() if any(o["type"] == SUBCOMMAND for o in c.get("options") or [])]
    if draw(st.booleans()):
        event("an unknown command")
        name = draw(st.text(LETTERS + "-_", min_size=1, max_size=32).filter(lambda n: n not in registered))
        data = {"id": str(draw(st.integers(1, 2**63 - 1))), "name": name, "type": 1, "options": []}
    else:
        event("an unknown subcommand")
        command = draw(st.sampled_from(groups))
        known = {o["name"] for o in command["options"]}
        sub = draw(st.text(LETTERS, min_size=1, max_size=20).filter(lambda n: n not in known))
        options = [{"name": sub, "type": SUBCOMMAND, "options": []}]
        data = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
    return fake.payload(APPLICATION_COMMAND, data, user=user, channel=channel)


# -- clicks ------------------------------------------------------------------------------------------------


def custom_ids(owners: list[int]) -> st.SearchStrategy:
    """Push buttons naming the owners' rolls (someone else's), rolls that never were, and malformed ids."""
    named = st.one_of(
        st.sampled_from(owners), st.integers(0, 10**6), st.integers(2**63 - 5, 10**19 - 1), st.integers(10**19, 10**30)
    ).map(lambda number: f"rk:yz:push:{number}")
    malformed = st.one_of(
        st.text(max_size=120), st.sampled_from(["rk:yz:push:", "rk:yz:push:-1", "rk:yz:push:1:2", " rk:yz:push:1",
                                                "rk:yz:push:0x10", "rk:yz:push:١٢", "RK:YZ:PUSH:1", "rk:yz:pull:1"]),
        st.from_regex(r"rk:yz:push:[0-9]{1,3}[^0-9]", fullmatch=True),
    )
    return st.one_of(named, malformed)


@st.composite
def crafted_click(draw, fake: FakeDiscord, messages: list[dict], user: FakeUser) -> tuple[dict, bool]:
    """(payload, whether Discord could deliver it): `user` clicking any custom_id on one of these messages.

    Discord builds a click from the message's own components: it always sends the message, its component_type
    is the clicked component's, and the custom_id is one the message carries. A crafted click may break each.
    """
    custom_id = draw(custom_ids([push_button_roll(message) for message in messages]), label="custom_id")
    message = draw(st.sampled_from(messages))
    carried = draw(MOSTLY, label="the message carries this custom_id")
    if carried:
        payload = crafted_button_click(fake, message, custom_id, user=user)
    else:
        payload = click_payload(fake, message, user)
        payload["data"]["custom_id"] = custom_id
    component_type = draw(st.sampled_from([2, 2, 2, 3]), label="component_type")
    payload["data"]["component_type"] = component_type
    if component_type == 3:
        payload["data"]["values"] = draw(st.lists(st.text(max_size=5), max_size=2))
    with_message = draw(MOSTLY, label="with its message")
    if not with_message:
        del payload["message"]
    deliverable = carried and component_type == 2 and with_message
    event("deliverable" if deliverable else "Discord would not deliver it")
    return payload, deliverable
