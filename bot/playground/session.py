"""What the page's people do at the table, as Discord's client would send it: commands typed out, autocomplete,
clicks on buttons and select menus; and what they see change, pushed to every open page."""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Callable
from dataclasses import replace

from bot.playground.backend import Backend
from bot.playground.commandline import read_line
from bot.playground.gateway import Gateway
from bot.playground.interactions import APPLICATION_COMMAND, AUTOCOMPLETE, COMPONENT, Interactions
from bot.playground.invoke import CannotInvoke, Place, check_access, command_data, find_component
from bot.playground.protocol import CALLBACK_WINDOW, TOKEN_LIFETIME
from bot.playground.records import Reply
from bot.playground.routes import OwnChecks
from bot.playground.table import BOT_USER, GUILD, LANGUAGES, NO_BOTS, PARTY, PEOPLE, person, place, sidebar
from bot.playground.world import BOT_PERMISSIONS, FakeGuild

Listener = Callable[[dict], None]


class Table(Interactions):
    """The stand-in's state and gateway for the playground's places, and the people's actions in them."""

    def __init__(self) -> None:
        self.backend = Backend(
            guilds=[GUILD, NO_BOTS],
            bot_user=BOT_USER,
            application_id=BOT_USER.id,
            validator=OwnChecks(),
            reject_invalid=True,
            callback_window=CALLBACK_WINDOW,
            token_lifetime=TOKEN_LIFETIME,
        )
        self.backend.group_dms[PARTY.id] = PARTY
        self.gateway = Gateway(self.backend)
        self.timeout = CALLBACK_WINDOW
        self.guild: FakeGuild = GUILD
        self.bot_errors: list[logging.LogRecord] = []
        self.bot_permissions = BOT_PERMISSIONS
        self.listeners: list[Listener] = []
        self.backend.store.listeners.append(self._message_changed)
        self._pending: set[asyncio.Task[None]] = set()
        self.locale = "en-US"
        """The Discord language of the table: every player's client and the server's locale speak it."""

    # -- what every page hears --------------------------------------------------------------------------

    def tell(self, event: dict) -> None:
        for listener in list(self.listeners):
            listener(event)

    def _message_changed(self, change: str, message: dict) -> None:
        self.tell({"type": "message", "change": change, "message": message})

    def commands(self, guild: FakeGuild | None = GUILD) -> list[dict]:
        """The commands the bot registered that a server's members see (those for it, then global ones); without a
        server, the global ones. The page tells each place's and person's apart with `offered`."""
        registry = self.backend.commands
        scoped = registry.list(guild.id) if guild is not None else []
        names = {command["name"] for command in scoped}
        return scoped + [command for command in registry.list(None) if command["name"] not in names]

    def offered(self, where: Place) -> list[str]:
        """The names of the commands Discord's client offers this person there (contexts, installs, permissions)."""
        return list(self._definitions(where))

    def places(self) -> list[dict]:
        """The places of the page's sidebar (table.sidebar), each with the commands offered there to each person."""
        return [
            entry | {"offered": {who: self.offered(place(who, where)) for who, where in entry["channels"].items()}}
            for entry in sidebar()
        ]

    def messages(self) -> list[dict]:
        return sorted(self.backend.store.messages.values(), key=lambda message: int(message["id"]))

    def speak(self, locale: str) -> None:
        """Set the Discord locale of every player and of the server (a ValueError for one the page does not offer)."""
        if locale not in LANGUAGES:
            raise ValueError(f"the playground offers the locales {', '.join(LANGUAGES)}, not {locale!r}")
        self.locale = locale
        self.tell({"type": "locale", "locale": locale})

    # -- what people do -----------------------------------------------------------------------------------

    def _definitions(self, where: Place) -> dict[str, dict]:
        visible = {}
        for command in self.commands(where.guild):
            try:
                check_access(command, where)
            except CannotInvoke:
                continue
            visible[command["name"]] = command
        return visible

    def _read(self, user_id: str, channel_id: str, line: str, *, typed_only: bool = False) -> tuple:
        where = place(user_id, channel_id)
        users = [other.user for other in PEOPLE]
        channels = list(where.guild.channels) if where.guild is not None else []
        read = read_line(line, self._definitions(where), users, channels, typed_only=typed_only)
        return read, where

    def command_payload_for(self, user_id: str, channel_id: str, line: str) -> dict:
        """The INTERACTION_CREATE Discord's client sends for this line typed there (CannotInvoke where it would
        refuse it)."""
        read, where = self._read(user_id, channel_id, line)
        data = command_data(read.command, read.path, read.options, where)
        return self._payload(APPLICATION_COMMAND, data, where)

    async def command(self, user_id: str, channel_id: str, line: str) -> Reply:
        """Send the command line as Discord's client would (CannotInvoke where it would refuse)."""
        return await self._send(self.command_payload_for(user_id, channel_id, line))

    async def choices(self, user_id: str, channel_id: str, line: str, focused: str) -> list[dict]:
        """The bot's autocomplete answer for option `focused` of the line typed so far ([] if none in time)."""
        read, place = self._read(user_id, channel_id, line, typed_only=True)
        options = dict(read.texts) | {focused: read.texts.get(focused, "")}
        data = command_data(read.command, read.path, options, place, focused=focused)
        reply = await self.send_interaction(self._payload(AUTOCOMPLETE, data, place), wait=False)
        try:
            await asyncio.wait_for(reply.answered.wait(), CALLBACK_WINDOW)
        except TimeoutError:
            return []
        return reply.choices or []

    async def press(self, user_id: str, message_id: str, custom_id: str, values: list[str] | None) -> Reply:
        """Click a button, or pick values in a select menu (CannotInvoke for a disabled or missing one)."""
        stored = self.backend.store.get(int(message_id))
        if stored is None:
            raise CannotInvoke("that message no longer exists")
        component = find_component(stored, custom_id, None)
        data: dict = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            data["values"] = values
        place = self._place_of(stored, person(user_id).user)
        payload = self._payload(COMPONENT, data, place) | {"message": copy.deepcopy(stored)}
        return await self._send(payload)

    def _payload(self, kind: int, data: dict, place: Place) -> dict:
        """As Discord's client sends it, with the table's language as the player's and the server's locale."""
        guild = replace(place.guild, locale=self.locale) if place.guild is not None else None
        return super()._payload(kind, data, replace(place, user=replace(place.user, locale=self.locale), guild=guild))

    async def _send(self, payload: dict) -> Reply:
        """Dispatch; an interaction the bot does not answer in time fails for its user, as in Discord."""
        if self.gateway.session_for(GUILD.id) is None:
            raise CannotInvoke("the bot is offline: this interaction failed")
        reply = await self.send_interaction(payload, wait=False)
        task = asyncio.create_task(self._watch(reply))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)
        return reply

    async def _watch(self, reply: Reply) -> None:
        try:
            await asyncio.wait_for(reply.answered.wait(), CALLBACK_WINDOW + 0.5)
        except TimeoutError:
            interaction = reply.interaction
            user = (interaction.get("member") or {}).get("user") or interaction.get("user") or {}
            self.tell({"type": "failed", "user": user.get("id"), "channel": interaction.get("channel_id")})
