"""What the Discord stand-in remembers: messages (with their uploaded files) and registered application commands.

Whoever wants to know when a message changes (the playground's page) adds a callable to `MessageStore.listeners`:
it is called with ("create" | "update" | "delete", message) after each change."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

from bot.playground.components import walk_components
from bot.playground.world import FakeUser, now_iso

EPHEMERAL = 1 << 6
LOADING = 1 << 7
EDITABLE = ("content", "embeds", "components", "poll")


class MessageStore:
    """Messages by id, stored as full message objects that discord.py can parse."""

    def __init__(self, new_id: Callable[[], int], bot_user: FakeUser, application_id: int) -> None:
        self._new_id = new_id
        self._bot_user = bot_user
        self._application_id = application_id
        self.messages: dict[int, dict] = {}
        self.files: dict[int, dict] = {}
        """Uploaded files by attachment id: filename, content_type and data (the playground serves them)."""
        self.listeners: list[Callable[[str, dict], None]] = []

    def _tell(self, change: str, message: dict) -> None:
        for listener in self.listeners:
            listener(change, message)

    def __getitem__(self, message_id: int) -> dict:
        return self.messages[message_id]

    def get(self, message_id: int) -> dict | None:
        return self.messages.get(message_id)

    def create(
        self,
        body: dict,
        *,
        channel_id: int,
        guild_id: int | None,
        files: Sequence[dict] = (),
        interaction: dict | None = None,
        trigger: dict | None = None,
        flags: int = 0,
    ) -> dict:
        """Store a new message written by the bot from a request body and return it."""
        message_id = self._new_id()
        message = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self._bot_user.payload(),
            "content": "",
            "embeds": [],
            "components": [],
            "attachments": [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": bool(body.get("tts")),
            "type": 0,
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "flags": flags | (body.get("flags") or 0),
        }
        if guild_id is not None:
            message["guild_id"] = str(guild_id)
        if interaction is not None:
            message.update(_interaction_fields(interaction, self._application_id, trigger))
        self.messages[message_id] = message
        self._apply(message, body, files=files, edit=False)
        self._tell("create", message)
        return message

    def apply(self, message: dict, body: dict, *, files: Sequence[dict] = (), edit: bool = True) -> dict:
        """Apply the fields of a create/edit body to a stored message."""
        self._apply(message, body, files=files, edit=edit)
        self._tell("update", message)
        return message

    def _apply(self, message: dict, body: dict, *, files: Sequence[dict], edit: bool) -> dict:
        for key in EDITABLE:
            if key in body:
                message[key] = copy.deepcopy(body[key]) if body[key] is not None else _empty(key)
        for embed in message["embeds"]:
            embed.setdefault("type", "rich")
        message["components"] = _without_nulls(message["components"])
        _number_components(message["components"])
        if files or "attachments" in body:
            message["attachments"] = _attachments(body.get("attachments") or [], files, self._new_id, self.files)
        if edit:
            message["flags"] = (message["flags"] & ~LOADING) | ((body.get("flags") or 0) & ~EPHEMERAL)
            message["edited_timestamp"] = now_iso()
        return message

    def fill_loading(self, message: dict, body: dict, files: Sequence[dict] = ()) -> dict:
        """The first answer after a deferral replaces the 'thinking' message (no edited mark)."""
        self._apply(message, body, files=files, edit=False)
        message["flags"] &= ~LOADING
        self._tell("update", message)
        return message

    def delete(self, message_id: int) -> dict | None:
        message = self.messages.pop(message_id, None)
        if message is not None:
            self._tell("delete", message)
        return message


def _empty(key: str) -> object:
    return "" if key == "content" else [] if key in ("embeds", "components") else None


def _metadata(interaction: dict) -> dict:
    user = interaction.get("member", {}).get("user") or interaction.get("user")
    metadata = {
        "id": interaction["id"],
        "type": interaction["type"],
        "user": user,
        "authorizing_integration_owners": interaction.get("authorizing_integration_owners", {}),
    }
    name = (interaction.get("data") or {}).get("name")
    if name:
        metadata["name"] = name
    if interaction["type"] == 3 and "message" in interaction:  # a crafted click may come without its message
        metadata["interacted_message_id"] = interaction["message"]["id"]
    return metadata


def _interaction_fields(interaction: dict, application_id: int, trigger: dict | None) -> dict:
    """The fields Discord adds to a message sent in answer to an interaction."""
    metadata = _metadata(interaction)
    if trigger is not None:
        metadata["triggering_interaction_metadata"] = _metadata(trigger)
    return {
        "type": 20 if interaction["type"] == 2 else 0,
        "webhook_id": str(application_id),
        "application_id": str(application_id),
        "interaction_metadata": metadata,
    }


def _without_nulls(value: object) -> object:
    """Discord leaves unset component fields out of the messages it returns (no `"id": null` emoji)."""
    if isinstance(value, dict):
        return {key: _without_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_without_nulls(item) for item in value]
    return value


def _number_components(components: list) -> None:
    """Discord gives every component a numeric id in the message it stores."""
    used = {c["id"] for c, _ in walk_components(components, "") if isinstance(c.get("id"), int)}
    next_id = 1
    for component, _ in walk_components(components, ""):
        if not isinstance(component.get("id"), int):
            while next_id in used:
                next_id += 1
            component["id"] = next_id
            used.add(next_id)


def _attachments(
    declared: list[dict], files: Sequence[dict], new_id: Callable[[], int], kept: dict[int, dict]
) -> list[dict]:
    uploaded = {file["index"]: file for file in files}
    result = []
    for entry in declared:
        upload = uploaded.get(int(entry.get("id", -1)))
        filename = entry.get("filename") or (upload or {}).get("filename", "file")
        attachment_id = new_id()
        attachment = {
            "id": str(attachment_id),
            "filename": filename,
            "size": (upload or {}).get("size", 0),
            "url": f"https://cdn.example.invalid/attachments/{attachment_id}/{filename}",
            "proxy_url": f"https://media.example.invalid/attachments/{attachment_id}/{filename}",
            "content_type": (upload or {}).get("content_type"),
            "description": entry.get("description"),
        }
        result.append({key: value for key, value in attachment.items() if value is not None})
        if upload is not None:
            kept[attachment_id] = {"filename": filename, "type": upload.get("content_type"), "data": upload["data"]}
    return result


class CommandRegistry:
    """Application commands as Discord keeps them: global (scope None) or per guild. Ids stay stable."""

    def __init__(self, new_id: Callable[[], int], application_id: int) -> None:
        self._new_id = new_id
        self._application_id = application_id
        self.scopes: dict[int | None, list[dict]] = {}
        self._ids: dict[tuple[int | None, str, int], int] = {}

    def overwrite(self, scope: int | None, commands: list[dict]) -> list[dict]:
        """Bulk overwrite (PUT): the given list replaces the scope's commands."""
        self.scopes[scope] = [self._stored(scope, command) for command in commands]
        return copy.deepcopy(self.scopes[scope])

    def upsert(self, scope: int | None, command: dict) -> dict:
        """Create or replace one command (POST)."""
        stored = self._stored(scope, command)
        kept = [
            c
            for c in self.scopes.get(scope, [])
            if (c["name"], c["type"]) != (stored["name"], stored["type"])
        ]
        self.scopes[scope] = [*kept, stored]
        return copy.deepcopy(stored)

    def list(self, scope: int | None) -> list[dict]:
        return copy.deepcopy(self.scopes.get(scope, []))

    def find(self, name: str, guild_id: int | None, command_type: int = 1) -> dict | None:
        """The command a user in this guild would see: guild commands first, then global ones."""
        scopes = ([guild_id] if guild_id is not None else []) + [None]
        for scope in scopes:
            for command in self.scopes.get(scope, []):
                if command["name"] == name and command["type"] == command_type:
                    return command
        return None

    def _stored(self, scope: int | None, command: dict) -> dict:
        stored = copy.deepcopy(command)
        stored.setdefault("type", 1)
        stored.setdefault("description", "")
        key = (scope, stored["name"], stored["type"])
        if key not in self._ids:
            self._ids[key] = self._new_id()
        stored.update(
            id=str(self._ids[key]), application_id=str(self._application_id), version=str(self._new_id())
        )
        if scope is not None:
            stored["guild_id"] = str(scope)
        if stored.get("default_member_permissions") is not None:
            stored["default_member_permissions"] = str(stored["default_member_permissions"])
        stored.setdefault("default_member_permissions", None)
        if stored.get("integration_types") is None:
            stored["integration_types"] = [0]
        return stored
