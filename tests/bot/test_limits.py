"""The fake Discord's own checks (limits.py, components.py): each passes what Discord takes and names what it
refuses. They run with and without Discord's OpenAPI description, so these tests need neither."""

from __future__ import annotations

import discord
import pytest

from bot.playground.components import modal_problems
from bot.playground.limits import check_limits

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
CHANNEL_MESSAGES = "/channels/{channel_id}/messages"
COMMANDS = "/applications/{application_id}/commands"


def button(custom_id: str = "push", **fields) -> dict:
    return {"type": 2, "style": 1, "label": "Push", "custom_id": custom_id} | fields


def row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def select(custom_id: str = "pick", **fields) -> dict:
    options = [{"label": name, "value": name} for name in ("hex", "yz", "heroic")]
    return {"type": 3, "custom_id": custom_id, "options": options} | fields


def answer(**data) -> list[str]:
    """Problems with an interaction answered by a message (callback type 4) holding `data`."""
    return check_limits("POST", CALLBACK, {"type": 4, "data": {"content": "rolled"} | data})


def components(*rows: dict) -> list[str]:
    return answer(components=list(rows))


def test_what_discord_py_builds_passes():
    view = discord.ui.View()
    for index in range(5):
        view.add_item(discord.ui.Button(label=f"b{index}", custom_id=f"b{index}", row=0))
    view.add_item(discord.ui.Select(custom_id="pick", options=[discord.SelectOption(label="hex")], row=1))
    view.add_item(discord.ui.Button(label="Docs", url="https://example.org", row=2))
    assert components(*view.to_components()) == []


def test_message_content_and_embed_count():
    assert answer(content="x" * 2000) == []
    assert answer(content="x" * 2001) == ["$.data.content: 2001 characters (limit 2000)"]
    assert answer(embeds=[{"title": "t"}] * 11) == ["$.data.embeds: 11 embeds (limit 10)"]
    assert check_limits("POST", CHANNEL_MESSAGES, {"content": "x" * 2001}) == [
        "$.content: 2001 characters (limit 2000)"
    ]


def test_at_most_five_action_rows_and_only_rows_at_the_top():
    rows = [row(button(f"b{index}")) for index in range(6)]
    assert components(*rows[:5]) == []
    assert components(*rows) == ["$.data.components: 6 top-level components (limit 5)"]
    assert components(button()) == [
        "$.data.components[0]: component type 2 cannot be at the top level (allowed [1])"
    ]


def test_an_action_row_holds_one_to_five_buttons_or_one_select():
    assert components(row(*(button(f"b{index}") for index in range(6)))) == [
        "$.data.components[0].components: 6 components in an action row (it holds 1-5)"
    ]
    assert components(row()) == ["$.data.components[0].components: 0 components in an action row (it holds 1-5)"]
    assert components(row(select(), button())) == [
        "$.data.components[0].components: a select menu or text input fills its action row alone (2 components)"
    ]
    assert components(row(row(button()))) == [
        "$.data.components[0].components: component type(s) [1] cannot be in this action row "
        "(allowed [2, 3, 5, 6, 7, 8])"
    ]


def test_custom_ids_take_1_to_100_characters_and_are_unique_in_a_message():
    assert components(row(button("x" * 100))) == []
    assert components(row(button("x" * 101))) == [
        "$.data.components[0].components[0].custom_id: 101 characters (limit 100)"
    ]
    assert "$.data.components[0].components[0].custom_id: 0 characters (at least 1)" in components(row(button("")))
    assert components(row(button("same")), row(button("same"))) == [
        "$.data.components[1].components[0].custom_id: 'same' is used twice in one message or modal"
    ]


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"label": "x" * 81}, ".label: 81 characters (limit 80)"),
        ({"label": None}, ": a button needs a label or an emoji"),
        ({"style": 9}, ".style: 9 is not a button style (1-6)"),
        ({"url": "https://example.org"}, ": only link buttons may carry a url"),
        ({"style": 5}, ": a link button needs a url and no custom_id"),
        ({"style": 6}, ": a premium button needs a sku_id"),
    ],
)
def test_button_rules(fields, problem):
    assert components(row(button(**fields))) == [f"$.data.components[0].components[0]{problem}"]


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"placeholder": "x" * 151}, ".placeholder: 151 characters (limit 150)"),
        ({"min_values": 3, "max_values": 2}, ": min_values 3 is above max_values 2"),
        ({"min_values": -1}, ".min_values: -1 is outside 0-25"),
        ({"max_values": 4}, ".max_values: 4 is more than its 3 options"),
        ({"options": []}, ".options: 0 options (a string select takes 1-25)"),
        ({"options": [{"label": "x" * 101, "value": "x"}]}, ".options[0].label: 101 characters (limit 100)"),
        ({"options": [{"label": name, "value": "v"} for name in "ab"]}, ".options: two options share a value"),
        ({"custom_id": None}, ": a select menu needs a custom_id"),
    ],
)
def test_select_menu_rules(fields, problem):
    assert components(row(select(**fields))) == [f"$.data.components[0].components[0]{problem}"]


def test_components_v2_messages_are_counted_not_laid_out_in_rows():
    texts = [{"type": 10, "content": f"line {index}"} for index in range(40)]
    assert answer(flags=1 << 15, components=texts) == []
    assert answer(flags=1 << 15, components=[*texts, texts[0]]) == ["$.data.components: 41 components (limit 40)"]


def modal(*rows: dict, **fields) -> dict:
    text_input = {"type": 4, "custom_id": "note", "style": 1, "label": "Note"}
    return {"custom_id": "notes", "title": "Notes", "components": list(rows) or [row(text_input)]} | fields


def test_modals():
    text_input = {"type": 4, "custom_id": "note", "style": 1, "label": "Note"}
    assert check_limits("POST", CALLBACK, {"type": 9, "data": modal()}) == []
    assert modal_problems(modal(title="x" * 46), "$") == ["$.title: 46 characters (limit 45)"]
    assert modal_problems(modal(components=[]), "$") == ["$.components: a modal needs 1-5 components"]
    six = [row(text_input | {"custom_id": f"n{index}"}) for index in range(6)]
    assert modal_problems(modal(*six), "$") == ["$.components: 6 top-level components (limit 5)"]
    assert modal_problems(modal(row(text_input, text_input | {"custom_id": "other"})), "$") == [
        "$.components[0].components: a select menu or text input fills its action row alone (2 components)"
    ]
    assert modal_problems(modal(row(button())), "$") == [
        "$.components[0].components: component type(s) [2] cannot be in this action row (allowed [4])"
    ]
    for fields, problem in [
        ({"label": "x" * 46}, ".label: 46 characters (limit 45)"),
        ({"style": 3}, ".style: 3 is not a text input style (1 or 2)"),
        ({"value": "x" * 4001}, ".value: 4001 characters (limit 4000)"),
        ({"min_length": 10, "max_length": 5}, ": min_length 10 is above max_length 5"),
    ]:
        assert modal_problems(modal(row(text_input | fields)), "$") == [f"$.components[0].components[0]{problem}"]


def test_autocomplete_choices():
    choices = [{"name": f"c{index}", "value": f"v{index}"} for index in range(26)]
    assert check_limits("POST", CALLBACK, {"type": 8, "data": {"choices": choices[:25]}}) == []
    assert check_limits("POST", CALLBACK, {"type": 8, "data": {"choices": choices}}) == [
        "$.data.choices: 26 choices (limit 25)"
    ]
    long_value = [{"name": "n", "value": "v" * 101}]
    assert check_limits("POST", CALLBACK, {"type": 8, "data": {"choices": long_value}}) == [
        "$.data.choices[0].value: 101 characters (limit 100)"
    ]


def command(*options: dict) -> list[dict]:
    return [{"name": "yz", "description": "Year Zero", "type": 1, "options": list(options)}]


def option(name: str, kind: int = 4, **fields) -> dict:
    return {"name": name, "description": f"the {name}", "type": kind} | fields


def test_command_options():
    assert check_limits("PUT", COMMANDS, command(option("base", required=True), option("gear"))) == []
    many = [option(f"o{index}") for index in range(26)]
    assert check_limits("PUT", COMMANDS, command(*many)) == ["$[0].options: 26 options (limit 25)"]
    assert check_limits("PUT", COMMANDS, command(option("gear"), option("base", required=True))) == [
        "$[0].options: required options must come before optional ones"
    ]
    assert check_limits("PUT", COMMANDS, command(option("base"), option("base"))) == [
        "$[0].options: two options share a name"
    ]
    assert check_limits("PUT", COMMANDS, command(option("roll", kind=1), option("base"))) == [
        "$[0].options: subcommands (or groups) cannot sit beside other options"
    ]
    assert check_limits("PUT", COMMANDS, command(option("base", min_value=5, max_value=1))) == [
        "$[0].options[0]: min_value 5 is above max_value 1"
    ]


def test_command_option_choices():
    choices = [{"name": f"d{index}", "value": index} for index in range(26)]
    assert check_limits("PUT", COMMANDS, command(option("die", choices=choices[:25]))) == []
    assert check_limits("PUT", COMMANDS, command(option("die", choices=choices))) == [
        "$[0].options[0].choices: 26 choices (limit 25)"
    ]
    assert check_limits("PUT", COMMANDS, command(option("die", choices=[{"name": "", "value": 1}]))) == [
        "$[0].options[0].choices[0].name: a choice's name needs 1-100 characters"
    ]
    assert check_limits("PUT", COMMANDS, command(option("die", choices=choices[:2], autocomplete=True))) == [
        "$[0].options[0]: an option with choices cannot autocomplete"
    ]

