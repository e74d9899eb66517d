"""Limits Discord enforces on what a bot sends, checked by the fake itself (components: components.py).

Some the OpenAPI description cannot express (6000 characters in all embeds, an empty message, command names);
the others it does express and are repeated here so that they hold where the description is absent (spec.py).
"""

from __future__ import annotations

import re

from bot.playground.components import component_problems, modal_problems

EMBED_TOTAL = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
FIELD_LIMITS = {"name": 256, "value": 1024}
MAX_FIELDS = 25
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
MAX_EMBEDS = 10
CONTENT = 2000
MAX_OPTIONS = 25
"""Options of a command or subcommand, choices of an option, choices an autocomplete answers with."""
CHOICE_NAME = 100
CHOICE_STRING = 100
SUBCOMMAND, GROUP = 1, 2
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
MESSAGE_ROUTES = {
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
}
COMMAND_ROUTES = {
    "/applications/{application_id}/commands",
    "/applications/{application_id}/guilds/{guild_id}/commands",
    "/applications/{application_id}/commands/{command_id}",
    "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
}
CHAT_INPUT_NAME = re.compile(r"[-_\w]{1,32}")
CREATES = {("POST", "/webhooks/{webhook_id}/{webhook_token}"), ("POST", "/channels/{channel_id}/messages")}


def check_limits(method: str, template: str | None, body: object, files: int = 0) -> list[str]:
    """Problems Discord would reject although the schema accepts them."""
    if method in ("PUT", "POST", "PATCH") and template in COMMAND_ROUTES:
        return check_command_limits(template, body)
    if not isinstance(body, dict):
        return []
    if template == CALLBACK:
        data = body.get("data") or {}
        if body.get("type") == 4:
            return message_problems(data, "$.data", creates=True, files=files)
        if body.get("type") == 7:
            return message_problems(data, "$.data", creates=False, files=files)
        if body.get("type") == 8:
            return choices_problems(data.get("choices") or [], "$.data.choices")
        if body.get("type") == 9:
            return modal_problems(data, "$.data")
        return []
    if (method, template) in MESSAGE_ROUTES:
        return message_problems(body, "$", creates=(method, template) in CREATES, files=files)
    return []


def check_command_limits(template: str | None, body: object) -> list[str]:
    """Chat-input commands: names lowercase `[-_\\w]{1,32}`, descriptions (and their localizations) 1-100
    characters, options as Discord takes them (at most 25 a level, names unique, required ones first, choices and
    bounds that fit)."""
    if template not in COMMAND_ROUTES:
        return []
    commands = body if isinstance(body, list) else [body]
    return [
        problem
        for index, command in enumerate(commands)
        if isinstance(command, dict) and command.get("type", 1) == 1
        for problem in _named_problems(command, f"$[{index}]")
    ]


def _named_problems(item: dict, where: str) -> list[str]:
    problems = []
    name = item.get("name")
    if not isinstance(name, str) or not CHAT_INPUT_NAME.fullmatch(name) or name != name.lower():
        problems.append(f"{where}.name: {name!r} is not a lowercase chat-input name ([-_\\w]{{1,32}})")
    description = item.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= 100:
        problems.append(f"{where}.description: chat-input descriptions need 1-100 characters")
    for locale, text in (item.get("description_localizations") or {}).items():
        if not isinstance(text, str) or not 1 <= len(text) <= 100:
            problems.append(f"{where}.description_localizations[{locale}]: descriptions need 1-100 characters")
    options = [option for option in item.get("options") or [] if isinstance(option, dict)]
    problems += _options_problems(options, f"{where}.options")
    for index, option in enumerate(options):
        problems += _named_problems(option, f"{where}.options[{index}]")
        problems += _option_value_problems(option, f"{where}.options[{index}]")
    return problems


def _options_problems(options: list[dict], where: str) -> list[str]:
    """One level of options: how many, names unique, required before optional, subcommands not mixed in."""
    problems = [f"{where}: {len(options)} options (limit {MAX_OPTIONS})"] if len(options) > MAX_OPTIONS else []
    names = [option.get("name") for option in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: two options share a name")
    nested = [option.get("type") in (SUBCOMMAND, GROUP) for option in options]
    if any(nested) and not all(nested):
        problems.append(f"{where}: subcommands (or groups) cannot sit beside other options")
    required = [bool(option.get("required")) for option in options]
    if required != sorted(required, reverse=True):
        problems.append(f"{where}: required options must come before optional ones")
    return problems


def _option_value_problems(option: dict, where: str) -> list[str]:
    """The choices of an option (at most 25, and not with autocomplete) and its bounds, in order."""
    choices = option.get("choices") or []
    problems = choices_problems(choices, f"{where}.choices")
    if choices and option.get("autocomplete"):
        problems.append(f"{where}: an option with choices cannot autocomplete")
    for low, high in (("min_value", "max_value"), ("min_length", "max_length")):
        lowest, highest = option.get(low), option.get(high)
        if isinstance(lowest, int | float) and isinstance(highest, int | float) and lowest > highest:
            problems.append(f"{where}: {low} {lowest} is above {high} {highest}")
    return problems


def choices_problems(choices: list, where: str) -> list[str]:
    """An option's choices, or an autocomplete's answer: at most 25, names 1-100 characters, strings <= 100."""
    problems = [f"{where}: {len(choices)} choices (limit {MAX_OPTIONS})"] if len(choices) > MAX_OPTIONS else []
    for index, choice in enumerate(choices):
        if not isinstance(choice, dict):
            continue
        name, value = choice.get("name"), choice.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= CHOICE_NAME:
            problems.append(f"{where}[{index}].name: a choice's name needs 1-{CHOICE_NAME} characters")
        for locale, text in (choice.get("name_localizations") or {}).items():
            if not isinstance(text, str) or not 1 <= len(text) <= CHOICE_NAME:
                problems.append(f"{where}[{index}].name_localizations[{locale}]: 1-{CHOICE_NAME} characters")
        if isinstance(value, str) and len(value) > CHOICE_STRING:
            problems.append(f"{where}[{index}].value: {len(value)} characters (limit {CHOICE_STRING})")
    return problems


def message_problems(message: dict, where: str, *, creates: bool, files: int = 0) -> list[str]:
    """Content, embed and component limits of one message body."""
    content, embeds = message.get("content"), message.get("embeds") or []
    problems = []
    if isinstance(content, str) and len(content) > CONTENT:
        problems.append(f"{where}.content: {len(content)} characters (limit {CONTENT})")
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"{where}.embeds: {len(embeds)} embeds (limit {MAX_EMBEDS})")
    problems += [
        problem for index, embed in enumerate(embeds) for problem in embed_problems(embed, f"{where}.embeds[{index}]")
    ]
    total = sum(embed_length(embed) for embed in embeds)
    if total > EMBED_TOTAL:
        problems.append(f"{where}.embeds: {total} characters in all embeds together (limit {EMBED_TOTAL})")
    components, flags = message.get("components") or [], message.get("flags") or 0
    problems.extend(component_problems(components, f"{where}.components", flags=flags))
    keys = ("content", "embeds", "components", "attachments", "poll", "sticker_ids")
    if creates and not files and not any(message.get(key) for key in keys):
        problems.append(f"{where}: cannot send an empty message (no content, embeds, components or files)")
    return problems


def embed_length(embed: dict) -> int:
    """Characters Discord counts toward the 6000 total."""
    fields = embed.get("fields") or []
    parts = [
        embed.get("title"),
        embed.get("description"),
        (embed.get("footer") or {}).get("text"),
        (embed.get("author") or {}).get("name"),
    ]
    parts += [field.get(key) for field in fields for key in ("name", "value")]
    return sum(len(part) for part in parts if isinstance(part, str))


def embed_problems(embed: dict, where: str) -> list[str]:
    problems = [
        f"{where}.{key}: {len(embed[key])} characters (limit {limit})"
        for key, limit in EMBED_LIMITS.items()
        if isinstance(embed.get(key), str) and len(embed[key]) > limit
    ]
    fields = embed.get("fields") or []
    if len(fields) > MAX_FIELDS:
        problems.append(f"{where}.fields: {len(fields)} fields (limit {MAX_FIELDS})")
    for index, field in enumerate(fields):
        for key, limit in FIELD_LIMITS.items():
            text = field.get(key)
            if not isinstance(text, str) or not text.strip():
                problems.append(f"{where}.fields[{index}].{key}: must be a non-empty string")
            elif len(text) > limit:
                problems.append(f"{where}.fields[{index}].{key}: {len(text)} characters (limit {limit})")
    footer = (embed.get("footer") or {}).get("text")
    if isinstance(footer, str) and len(footer) > FOOTER_TEXT:
        problems.append(f"{where}.footer.text: {len(footer)} characters (limit {FOOTER_TEXT})")
    author = (embed.get("author") or {}).get("name")
    if isinstance(author, str) and len(author) > AUTHOR_NAME:
        problems.append(f"{where}.author.name: {len(author)} characters (limit {AUTHOR_NAME})")
    return problems
