"""The channels' side of the fake Discord: the REST calls a bot makes with its own token on a channel's messages
(mixed into Backend), and which channels the bot is in at all (a group DM, or a server that never added the app:
it is in neither)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from bot.playground.protocol import UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, Result, error
from bot.playground.store import EPHEMERAL

if TYPE_CHECKING:
    from bot.playground.store import MessageStore
    from bot.playground.world import FakeChannel, FakeGroupDM, FakeGuild, FakeUser


class Edited(Protocol):
    """What a channel edit notes on the interaction that owns the message (a records.Reply)."""

    edits: list[dict]


class ChannelMessages:
    """Channel routes over the Backend's state (its guilds, group DMs, message store and the bot user)."""

    guilds: dict[int, FakeGuild]
    group_dms: dict[int, FakeGroupDM]
    store: MessageStore
    bot_user: FakeUser
    owners: Mapping[int, Edited]

    def find_channel(self, channel_id: int) -> tuple[FakeGuild, FakeChannel] | None:
        for guild in self.guilds.values():
            channel = guild.find_channel(channel_id)
            if channel is not None:
                return guild, channel
        return None

    def no_access(self, channel_id: int) -> bool:
        """The bot is not in that channel: a group DM, or a channel of a server that never added the app."""
        found = self.find_channel(channel_id)
        return channel_id in self.group_dms or (found is not None and not found[0].has_app)

    def _channel_message(self, channel_id: int, message_id: int) -> dict | None:
        message = self.store.get(message_id)
        if message is None or int(message["channel_id"]) != channel_id or message["flags"] & EPHEMERAL:
            return None
        return message

    def create_message(self, channel_id: int, body: dict, files: list[dict]) -> Result:
        found = self.find_channel(channel_id)
        if found is None:
            return UNKNOWN_CHANNEL
        body = {key: value for key, value in body.items() if key != "flags"} | {
            "flags": (body.get("flags") or 0) & ~EPHEMERAL
        }
        return 200, self.store.create(body, channel_id=channel_id, guild_id=found[0].id, files=files)

    def get_message(self, channel_id: int, message_id: int) -> Result:
        message = self._channel_message(channel_id, message_id)
        return (200, message) if message is not None else UNKNOWN_MESSAGE

    def edit_message(self, channel_id: int, message_id: int, body: dict, files: list[dict]) -> Result:
        message = self._channel_message(channel_id, message_id)
        if message is None:
            return UNKNOWN_MESSAGE
        if message["author"]["id"] != str(self.bot_user.id):
            return error(403, 50005, "Cannot edit a message authored by another user")
        self.store.apply(message, body, files=files)
        owner = self.owners.get(message_id)
        if owner is not None:
            owner.edits.append({"message_id": message_id, "body": body})
        return 200, message

    def delete_message(self, channel_id: int, message_id: int) -> Result:
        if self._channel_message(channel_id, message_id) is None:
            return UNKNOWN_MESSAGE
        self.store.delete(message_id)
        return 204, None

    def get_channel(self, channel_id: int) -> Result:
        found = self.find_channel(channel_id)
        if found is None:
            return UNKNOWN_CHANNEL
        guild, channel = found
        return 200, channel.payload(guild.id)
