"""Limits Discord enforces that its OpenAPI description cannot express, and the plainest ones it can (so that
they still hold where the description is not found: tests/fakediscord/spec.py's WithoutSpec)."""

from __future__ import annotations

import re
from collections.abc import Iterator

EMBED_TOTAL = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
FIELD_LIMITS = {"name": 256, "value": 1024}
MAX_FIELDS = 25
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
CUSTOM_ID = 100
CONTENT = 2000
MAX_EMBEDS = 10
MAX_ROWS, ROW_WIDTH = 5, 5
BUTTON_LABEL = 80
ACTION_ROW, BUTTON = 1, 2
LINK_STYLE, PREMIUM_STYLE = 5, 6
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
        if body.get("type") in (7, 9):
            return message_problems(data, "$.data", creates=False, files=files)
        return []
    if (method, template) in MESSAGE_ROUTES:
        return message_problems(body, "$", creates=(method, template) in CREATES, files=files)
    return []


def check_command_limits(template: str | None, body: object) -> list[str]:
    """Chat-input names are lowercase `[-_\\w]{1,32}` and descriptions 1-100 characters, options included."""
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
    for index, option in enumerate(item.get("options") or []):
        if isinstance(option, dict):
            problems.extend(_named_problems(option, f"{where}.options[{index}]"))
    return problems


def message_problems(message: dict, where: str, *, creates: bool, files: int = 0) -> list[str]:
    """Embed and component limits of one message body."""
    problems = [
        problem
        for index, embed in enumerate(message.get("embeds") or [])
        for problem in embed_problems(embed, f"{where}.embeds[{index}]")
    ]
    total = sum(embed_length(embed) for embed in message.get("embeds") or [])
    if total > EMBED_TOTAL:
        problems.append(f"{where}.embeds: {total} characters in all embeds together (limit {EMBED_TOTAL})")
    embeds = message.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"{where}.embeds: {len(embeds)} embeds (limit {MAX_EMBEDS})")
    content = message.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        problems.append(f"{where}.content: {len(content)} characters (limit {CONTENT})")
    problems.extend(component_problems(message.get("components") or [], f"{where}.components"))
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


def walk_components(components: list, where: str) -> Iterator[tuple[dict, str]]:
    """Every component, nested ones included (rows, containers, sections, labels, accessories)."""
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        here = f"{where}[{index}]"
        yield component, here
        yield from walk_components(component.get("components") or [], f"{here}.components")
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]], f"{here}.{key}")


def _layout_problems(components: list, where: str) -> list[str]:
    """Classic layout: at most 5 action rows of at most 5 buttons each (Components V2 messages aside)."""
    rows = [component for component in components if isinstance(component, dict)]
    if not rows or any(row.get("type") != ACTION_ROW for row in rows):
        return []
    problems = [f"{where}: {len(rows)} action rows (limit {MAX_ROWS})"] if len(rows) > MAX_ROWS else []
    for index, row in enumerate(rows):
        buttons = [item for item in row.get("components") or [] if isinstance(item, dict)]
        if not buttons:
            problems.append(f"{where}[{index}]: an action row needs at least one component")
        elif sum(item.get("type") == BUTTON for item in buttons) > ROW_WIDTH:
            problems.append(f"{where}[{index}]: {len(buttons)} buttons in one row (limit {ROW_WIDTH})")
    return problems


def component_problems(components: list, where: str) -> list[str]:
    problems, seen = _layout_problems(components, where), set()
    for component, here in walk_components(components, where):
        custom_id = component.get("custom_id")
        if component.get("type") == 2:
            problems.extend(_button_problems(component, here))
        if isinstance(custom_id, str):
            if len(custom_id) > CUSTOM_ID:
                problems.append(f"{here}.custom_id: {len(custom_id)} characters (limit {CUSTOM_ID})")
            if custom_id in seen:
                problems.append(f"{here}.custom_id: {custom_id!r} is used twice in one message")
            seen.add(custom_id)
    return problems


def _button_problems(button: dict, where: str) -> list[str]:
    label = button.get("label")
    if isinstance(label, str) and len(label) > BUTTON_LABEL:
        return [f"{where}.label: {len(label)} characters (limit {BUTTON_LABEL})"]
    style = button.get("style")
    if style == LINK_STYLE:
        ok = button.get("url") and not button.get("custom_id")
        return [] if ok else [f"{where}: a link button needs a url and no custom_id"]
    if style == PREMIUM_STYLE:
        return [] if button.get("sku_id") else [f"{where}: a premium button needs a sku_id"]
    if not button.get("custom_id"):
        return [f"{where}: a button needs a custom_id (or a url with the link style)"]
    if button.get("url"):
        return [f"{where}: only link buttons may carry a url"]
    return []
