"""Building INTERACTION_CREATE payloads the way Discord's client would: only what a user could send."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from bot.playground.components import walk_components
from bot.playground.world import (
    ADMINISTRATOR,
    MEMBER_PERMISSIONS,
    USE_EXTERNAL_APPS,
    FakeChannel,
    FakeGroupDM,
    FakeGuild,
    FakeUser,
)

SUBCOMMAND, GROUP = 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1
"""An app's installs (a command's ``integration_types``; the keys of ``authorizing_integration_owners``)."""
IN_GUILD, IN_BOT_DM, IN_PRIVATE_CHANNEL = 0, 1, 2
"""An interaction's ``context`` (a command's ``contexts``): a server, the bot's DM, a group DM."""
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
MAX_SAFE_INTEGER = 2**53


class CannotInvoke(ValueError):
    """Discord's client would not let the user send this (unknown command or option, bad value, no access)."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where an interaction happens: a guild channel; a group DM when group is given; else the bot's DM."""

    user: FakeUser
    guild: FakeGuild | None
    channel: FakeChannel | None
    group: FakeGroupDM | None = None

    @property
    def context(self) -> int:
        if self.guild is not None:
            return IN_GUILD
        return IN_PRIVATE_CHANNEL if self.group is not None else IN_BOT_DM

    @property
    def install(self) -> int:
        """The install that brings the app here: the server's, or else the player's own account."""
        return GUILD_INSTALL if self.guild is not None and self.guild.has_app else USER_INSTALL


def base_payload(
    kind: int, data: dict, place: Place, *, interaction_id: int, application_id: int, app_permissions: int
) -> dict:
    """The fields every INTERACTION_CREATE carries."""
    payload = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": kind,
        "data": data,
        "token": f"fake-{interaction_id}-{secrets.token_urlsafe(12)}",
        "version": 1,
        "app_permissions": str(app_permissions),
        "locale": place.user.locale,
        "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    guild, user = place.guild, place.user
    if guild is None:  # no member there, only the user; the app came with their account
        private = {"id": str(user.dm_channel_id), "type": 1, "recipients": [user.payload()], "flags": 0}
        channel_payload = place.group.payload() if place.group is not None else private
        payload.update(
            user=user.payload(),
            channel_id=channel_payload["id"],
            context=place.context,
            channel=channel_payload,
            authorizing_integration_owners={str(USER_INSTALL): str(user.id)},
        )
        return payload
    channel = place.channel or guild.channel
    payload.update(
        guild_id=str(guild.id),
        guild_locale=guild.locale,
        context=IN_GUILD,
        guild={"id": str(guild.id), "locale": guild.locale, "features": []},
        channel_id=str(channel.id),
        channel=channel.payload(guild.id, permissions=user.permissions),
        member=user.member_payload(),
        authorizing_integration_owners={str(GUILD_INSTALL): str(guild.id)},
    )
    if not guild.has_app:  # a user install: what the app may do there is what its members let external apps do
        external = USE_EXTERNAL_APPS if guild.external_apps else 0
        payload.update(
            app_permissions=str(MEMBER_PERMISSIONS | external),
            authorizing_integration_owners={str(USER_INSTALL): str(user.id)},
        )
    return payload


def check_access(command: dict, place: Place) -> None:
    """Discord offers a command only in its contexts and installs (where the app came with a player's account,
    only a command with the user install; the bot's DM is reached through either), and hides it from members
    without its default_member_permissions."""
    name = command["name"]
    if place.guild is None and command.get("dm_permission") is False:
        raise CannotInvoke(f"/{name} cannot be used in DMs")
    if place.context not in (command.get("contexts") or [IN_GUILD, IN_BOT_DM, IN_PRIVATE_CHANNEL]):
        raise CannotInvoke(f"/{name} is not offered in context {place.context} (its contexts: {command['contexts']})")
    if place.context != IN_BOT_DM and place.install not in (command.get("integration_types") or [GUILD_INSTALL]):
        raise CannotInvoke(f"/{name} is not offered with install {place.install} (its installs: "
                           f"{command.get('integration_types')})")
    needed = command.get("default_member_permissions")
    if place.guild is not None and needed is not None:
        have = place.user.permissions
        if not have & ADMINISTRATOR and int(needed) & have != int(needed):
            raise CannotInvoke(f"{place.user.name} cannot see /{name}: it needs permissions {needed}")


def command_data(
    command: dict, path: list[str], options: dict, place: Place, focused: str | None = None
) -> dict:
    """The `data` of a chat-input (or autocomplete) interaction, options typed as registered."""
    definitions, wrap = command.get("options") or [], []
    for name in path:
        found = next((o for o in definitions if o["name"] == name and o["type"] in (SUBCOMMAND, GROUP)), None)
        if found is None:
            raise CannotInvoke(f"/{command['name']} has no subcommand {name!r}")
        wrap.append(found)
        definitions = found.get("options") or []
    if not path and any(o["type"] in (SUBCOMMAND, GROUP) for o in definitions):
        raise CannotInvoke(f"/{command['name']} needs a subcommand")
    resolved: dict[str, dict] = {}
    leaf = _leaf_options(command["name"], definitions, options, place, resolved, focused)
    for parent in reversed(wrap):
        leaf = [{"name": parent["name"], "type": parent["type"], "options": leaf}]
    data = {"id": command["id"], "name": command["name"], "type": command.get("type", 1), "options": leaf}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def _leaf_options(
    name: str, definitions: list[dict], options: dict, place: Place, resolved: dict, focused: str | None
) -> list[dict]:
    by_name = {o["name"]: o for o in definitions}
    unknown = set(options) - set(by_name)
    if unknown:
        raise CannotInvoke(f"/{name} has no option(s) {sorted(unknown)}; it has {sorted(by_name)}")
    missing = [
        o["name"]
        for o in definitions
        if o.get("required") and o["name"] not in options and o["name"] != focused
    ]
    if missing and focused is None:
        raise CannotInvoke(f"/{name} needs option(s) {missing}")
    result = []
    for key, value in options.items():
        definition = by_name[key]
        if key == focused:
            result.append({"name": key, "type": definition["type"], "value": str(value), "focused": True})
        else:
            result.append(
                {
                    "name": key,
                    "type": definition["type"],
                    "value": _option_value(definition, value, place, resolved),
                }
            )
    return result


def _option_value(definition: dict, value: object, place: Place, resolved: dict) -> object:
    kind, name = definition["type"], definition["name"]
    if kind == USER:
        if not isinstance(value, FakeUser):
            raise CannotInvoke(f"option {name!r} takes a FakeUser")
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        if place.guild is not None:
            resolved.setdefault("members", {})[str(value.id)] = value.member_payload(with_user=False)
        return str(value.id)
    if kind == CHANNEL:
        if not isinstance(value, FakeChannel) or place.guild is None:
            raise CannotInvoke(f"option {name!r} takes a FakeChannel of the guild")
        resolved.setdefault("channels", {})[str(value.id)] = value.payload(
            place.guild.id, permissions=place.user.permissions
        )
        return str(value.id)
    if kind in (ROLE, MENTIONABLE, ATTACHMENT):
        raise CannotInvoke(
            f"option {name!r} (type {kind}): build the payload by hand and use send_interaction"
        )
    value = _scalar(kind, name, value)
    _check_bounds(definition, value)
    return value


def _scalar(kind: int, name: str, value: object) -> object:
    expected = {STRING: (str,), INTEGER: (int,), BOOLEAN: (bool,), NUMBER: (int, float)}[kind]
    if not isinstance(value, expected) or (kind != BOOLEAN and isinstance(value, bool)):
        raise CannotInvoke(f"option {name!r} takes {expected[0].__name__}, not {value!r}")
    if isinstance(value, int | float) and kind in (INTEGER, NUMBER) and abs(value) > MAX_SAFE_INTEGER:
        raise CannotInvoke(f"option {name!r}: {value} is out of Discord's range")
    return value


def _check_bounds(definition: dict, value: object) -> None:
    name, choices = definition["name"], definition.get("choices")
    if choices and value not in [choice["value"] for choice in choices]:
        raise CannotInvoke(
            f"option {name!r}: {value!r} is not one of the choices {[c['value'] for c in choices]}"
        )
    low, high = definition.get("min_value"), definition.get("max_value")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if (low is not None and value < low) or (high is not None and value > high):
            raise CannotInvoke(f"option {name!r}: {value} is outside {low}..{high}")
    if isinstance(value, str):
        shortest, longest = definition.get("min_length", 0), definition.get("max_length", 6000)
        if not shortest <= len(value) <= longest:
            raise CannotInvoke(f"option {name!r}: length {len(value)} is outside {shortest}..{longest}")


def find_component(message: dict, custom_id: str | None, label: str | None) -> dict:
    """The clickable component with this custom_id (or this button label) in a stored message."""
    for component, _ in walk_components(message.get("components") or [], ""):
        if custom_id is not None and component.get("custom_id") == custom_id:
            break
        if label is not None and component.get("label") == label:
            break
    else:
        present = [
            (c.get("label"), c.get("custom_id"))
            for c, _ in walk_components(message.get("components") or [], "")
            if c.get("custom_id")
        ]
        raise CannotInvoke(
            f"message {message['id']} has no component {custom_id or label!r}; it has {present}"
        )
    if component.get("disabled"):
        raise CannotInvoke(f"component {custom_id or label!r} is disabled")
    if not component.get("custom_id"):
        raise CannotInvoke(f"component {custom_id or label!r} is a link, not something the bot hears about")
    return component


def modal_data(modal: dict, values: dict[str, str]) -> dict:
    """The data of a modal submit: the modal's inputs, in their rows or labels, with the user's text."""

    def fill(component: dict) -> dict:
        if component.get("type") == 4:
            return {
                "type": 4,
                "id": component.get("id", 0),
                "custom_id": component["custom_id"],
                "value": values.get(component["custom_id"], component.get("value") or ""),
            }
        filled = {"type": component["type"], "id": component.get("id", 0)}
        if "components" in component:
            filled["components"] = [fill(child) for child in component["components"]]
        if "component" in component:
            filled["component"] = fill(component["component"])
        return filled

    return {"custom_id": modal["custom_id"], "components": [fill(c) for c in modal.get("components") or []]}
