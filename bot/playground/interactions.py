"""What users do to the bot: slash commands, autocomplete, clicks, modal submits, or any raw payload."""

from __future__ import annotations

import asyncio
import copy
import logging
from typing import TYPE_CHECKING

from bot.playground.invoke import (
    CannotInvoke,
    Place,
    base_payload,
    check_access,
    command_data,
    find_component,
    modal_data,
)
from bot.playground.records import Reply
from bot.playground.world import ALICE, FakeChannel, FakeGroupDM, FakeGuild, FakeUser

if TYPE_CHECKING:
    from bot.playground.backend import Backend
    from bot.playground.gateway import Gateway

APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5


class Interactions:
    """Mixed into FakeDiscord. Each call sends one INTERACTION_CREATE and returns the bot's Reply."""

    backend: Backend
    gateway: Gateway
    timeout: float
    guild: FakeGuild
    bot_errors: list[logging.LogRecord]
    bot_permissions: int

    async def slash(
        self,
        command: str,
        options: dict | None = None,
        *,
        user: FakeUser = ALICE,
        guild: FakeGuild | None = None,
        channel: FakeChannel | None = None,
        dm: bool = False,
        group: FakeGroupDM | None = None,
        expect_answer: bool = True,
        shard: int | None = None,
    ) -> Reply:
        """Invoke `/command` ("yz roll" for a subcommand) with options typed as the bot registered them: in a
        guild's channel (by default), the bot's DM (`dm`) or a group DM (`group`).

        Raises CannotInvoke when Discord's client would refuse (unregistered command, unknown/missing option,
        value outside choices or bounds, user lacking the command's default permissions, a context or install the
        command is not offered in).
        """
        payload = self.command_payload(command, options, user=user, guild=guild, channel=channel, dm=dm, group=group)
        return await self.send_interaction(payload, expect_answer=expect_answer, shard=shard)

    def command_payload(
        self,
        command: str,
        options: dict | None = None,
        *,
        user: FakeUser = ALICE,
        guild: FakeGuild | None = None,
        channel: FakeChannel | None = None,
        dm: bool = False,
        group: FakeGroupDM | None = None,
    ) -> dict:
        """The INTERACTION_CREATE `slash` would send, checked as it checks, without sending it (to deliver twice)."""
        place = self._place(user, guild, channel, dm, group)
        found = self._registered(command, place)
        data = command_data(found, command.split()[1:], options or {}, place)
        return self._payload(APPLICATION_COMMAND, data, place)

    async def autocomplete(
        self,
        command: str,
        options: dict,
        focused: str,
        *,
        user: FakeUser = ALICE,
        guild: FakeGuild | None = None,
        dm: bool = False,
    ) -> Reply:
        """Ask for the choices of option `focused` while the user types; `reply.choices` holds the answer."""
        place = self._place(user, guild, None, dm, None)
        found = self._registered(command, place)
        data = command_data(found, command.split()[1:], options, place, focused=focused)
        return await self.send_interaction(self._payload(AUTOCOMPLETE, data, place))

    async def click(
        self,
        message: Reply | dict | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        values: list[str] | None = None,
        user: FakeUser = ALICE,
        expect_answer: bool = True,
        shard: int | None = None,
    ) -> Reply:
        """Click a button (by custom_id or label) or pick select `values` on a stored message.

        `message` is a Reply (its original response), a message dict, or a message id.
        """
        stored = self._stored_message(message)
        component = find_component(stored, custom_id, label)
        data = {"custom_id": component["custom_id"], "component_type": component["type"]}
        if "id" in component:
            data["id"] = component["id"]
        if values is not None:
            data["values"] = values
        place = self._place_of(stored, user)
        payload = self._payload(COMPONENT, data, place) | {"message": copy.deepcopy(stored)}
        return await self.send_interaction(payload, expect_answer=expect_answer, shard=shard)

    async def submit(self, modal_reply: Reply, values: dict[str, str], *, user: FakeUser = ALICE) -> Reply:
        """Submit the modal a Reply opened (callback type 9), typing `values` into its inputs by custom_id."""
        if modal_reply.modal is None:
            raise CannotInvoke(f"the bot opened no modal: {modal_reply.describe()}")
        interaction = modal_reply.interaction
        place = self._place_in(int(interaction["channel_id"]), user)
        payload = self._payload(MODAL_SUBMIT, modal_data(modal_reply.modal, values), place)
        if "message" in interaction:
            payload["message"] = interaction["message"]
        return await self.send_interaction(payload)

    def payload(
        self,
        kind: int,
        data: dict,
        *,
        user: FakeUser = ALICE,
        guild: FakeGuild | None = None,
        channel: FakeChannel | None = None,
        dm: bool = False,
        group: FakeGroupDM | None = None,
    ) -> dict:
        """A fresh INTERACTION_CREATE payload (new id and token): the starting point for hand-made ones."""
        return self._payload(kind, data, self._place(user, guild, channel, dm, group))

    async def send_interaction(
        self,
        payload: dict,
        *,
        wait: bool = True,
        expect_answer: bool = True,
        timeout: float | None = None,
        shard: int | None = None,
    ) -> Reply:
        """Push a raw INTERACTION_CREATE on the shard that owns its guild, or on `shard` when given (as if a
        process had taken that shard over); unless wait=False, settle it (see `settle`)."""
        guild = str(payload.get("guild_id") or "")  # a malformed payload's guild_id may be anything: shard 0 then
        guild_id = int(guild) if guild.isascii() and guild.isdigit() else None
        session = self.gateway.session_for(guild_id) if shard is None else self.gateway.shards.get(shard)
        if session is None or session.closed:
            raise RuntimeError("no bot is connected on that shard: await fake.run(bot) first")
        reply = Reply(
            interaction=payload, store=self.backend.store, handled=asyncio.get_running_loop().create_future()
        )
        reply.errors_from = len(self.bot_errors)
        self.backend.track(reply)
        await session.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await self.settle(reply, expect_answer=expect_answer, timeout=timeout)
        return reply

    async def settle(
        self, reply: Reply, *, expect_answer: bool = True, timeout: float | None = None
    ) -> Reply:
        """Wait until discord.py parsed the interaction and the handler tasks it started have finished.

        With expect_answer, fail (AssertionError with the whole story) if the bot did not acknowledge it.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.timeout)
        try:
            assert reply.handled is not None  # set by send_interaction
            tasks = await asyncio.wait_for(asyncio.shield(reply.handled), deadline - loop.time())
        except TimeoutError:
            raise AssertionError("discord.py never parsed the interaction:\n" + reply.describe()) from None
        if tasks:
            await asyncio.wait(tasks, timeout=max(deadline - loop.time(), 0.01))
        if not reply.callbacks and reply.parse_error is None:
            grace = min(0.2, max(deadline - loop.time(), 0.01))
            try:  # handlers done but no answer yet: the bot may answer from a task of its own
                await asyncio.wait_for(reply.answered.wait(), timeout=grace)
            except TimeoutError:
                pass
        reply.errors = self.bot_errors[reply.errors_from :]
        if expect_answer and not reply.callbacks:
            raise AssertionError("the bot did not answer:\n" + reply.describe())
        return reply

    def _payload(self, kind: int, data: dict, place: Place) -> dict:
        return base_payload(
            kind,
            data,
            place,
            interaction_id=self.backend.new_id(),
            application_id=self.backend.application_id,
            app_permissions=self.bot_permissions,
        )

    # -- helpers --------------------------------------------------------------------------------------

    def _place(
        self, user: FakeUser, guild: FakeGuild | None, channel: FakeChannel | None, dm: bool,
        group: FakeGroupDM | None,
    ) -> Place:
        if group is not None:
            if user not in group.members:
                raise ValueError(f"{user.name} is not in the group DM {group.name!r}")
            self.backend.group_dms[group.id] = group
            return Place(user, None, None, group)
        if dm:
            return Place(user, None, None)
        guild = guild or self.guild
        if self.backend.guilds.get(guild.id) is not guild:
            raise ValueError(f"guild {guild.name!r} is not part of this FakeDiscord")
        if channel is not None and guild.find_channel(channel.id) is None:
            raise ValueError(f"channel {channel.name!r} is not in guild {guild.name!r}")
        return Place(user, guild, channel or guild.channel)

    def _place_of(self, message: dict, user: FakeUser) -> Place:
        return self._place_in(int(message["channel_id"]), user)

    def _place_in(self, channel_id: int, user: FakeUser) -> Place:
        """Where a click or a modal in that channel happens: its guild's channel, its group DM, or the bot's DM."""
        found = self.backend.find_channel(channel_id)
        if found is not None:
            return Place(user, found[0], found[1])
        group = self.backend.group_dms.get(channel_id)
        if group is not None and user in group.members:
            return Place(user, None, None, group)
        return Place(user, None, None)

    def _registered(self, command: str, place: Place) -> dict:
        name = command.split()[0]
        found = self.backend.commands.find(name, place.guild.id if place.guild else None)
        if found is None:
            known = sorted({c["name"] for scope in self.backend.commands.scopes.values() for c in scope})
            raise CannotInvoke(
                f"/{name} is not registered with Discord (did the bot sync?); registered: {known}"
            )
        check_access(found, place)
        return found

    def _stored_message(self, message: Reply | dict | int) -> dict:
        if isinstance(message, Reply):
            if message.message is None:
                raise CannotInvoke(f"the reply has no message to click: {message.describe()}")
            return message.message
        message_id = int(message["id"]) if isinstance(message, dict) else int(message)
        stored = self.backend.store.get(message_id)
        if stored is None:
            raise CannotInvoke(f"message {message_id} does not exist (deleted, or never sent)")
        return stored
