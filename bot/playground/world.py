"""The people and places of the fake Discord: users, guilds, channels, and their JSON payloads."""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime

import discord

DISCORD_EPOCH_MS = 1420070400000

MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    use_external_emojis=True,
).value
"""What a plain player may do: read, write, use slash commands."""

MANAGE_GUILD = discord.Permissions(manage_guild=True).value
ADMINISTRATOR = discord.Permissions(administrator=True).value
USE_EXTERNAL_APPS = discord.Permissions(use_external_apps=True).value
"""A member may use apps added to their own account, and those apps may answer publicly."""
BOT_PERMISSIONS = MEMBER_PERMISSIONS | discord.Permissions(manage_messages=True).value
PRIVILEGED_INTENTS = discord.Intents(members=True, presences=True, message_content=True).value


def now_iso() -> str:
    """The current time as Discord writes timestamps."""
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Snowflake ids in increasing order, stamped with the current time (so created_at is sensible)."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        stamped = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(stamped, self._last + 1)
        return self._last


def _stable_id(name: str, salt: int) -> int:
    """A snowflake-sized id derived from a name, the same in every run."""
    return (1 << 60) + salt * (1 << 40) + zlib.crc32(name.encode())


@dataclass(frozen=True, slots=True)
class FakeUser:
    """A Discord account. `permissions` are the guild permissions Discord computes for the member."""

    name: str
    id: int = 0
    permissions: int = MEMBER_PERMISSIONS
    bot: bool = False
    locale: str = "en-US"
    """The language the account's Discord speaks (an interaction's ``locale``)."""

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", _stable_id(self.name, 1))

    @property
    def dm_channel_id(self) -> int:
        """The id of this account's DM with the bot (a private channel of type 1)."""
        return self.id + 7

    def payload(self) -> dict:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name.title(),
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def member_payload(self, *, with_user: bool = True, roles: tuple[int, ...] = ()) -> dict:
        """The guild member object; in interactions it carries the computed permissions."""
        member = {
            "roles": [str(role) for role in roles],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "permissions": str(self.permissions),
        }
        if with_user:
            member["user"] = self.payload()
        return member


ALICE = FakeUser("alice")
BOB = FakeUser("bob")
GM = FakeUser("gm", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
"""Ready-made players; GM holds Manage Server."""


@dataclass(frozen=True, slots=True)
class FakeChannel:
    """A guild text channel."""

    name: str
    id: int = 0
    type: int = 0

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", _stable_id(self.name, 2))

    def payload(self, guild_id: int, *, permissions: int | None = None) -> dict:
        channel = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(guild_id),
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }
        if permissions is not None:
            channel["permissions"] = str(permissions)
        return channel


@dataclass(frozen=True, slots=True)
class FakeGuild:
    """A server with its channels; the first channel is where interactions happen by default."""

    name: str = "Test Guild"
    id: int = 0
    channels: tuple[FakeChannel, ...] = ()
    owner: FakeUser = FakeUser("owner", permissions=ADMINISTRATOR)
    locale: str = "en-US"
    """The server's language as Discord keeps it (an interaction's ``guild_locale``)."""
    has_app: bool = True
    """False: the server never added the app. Its players bring the app with their own account (a user install):
    the bot gets no GUILD_CREATE for it and no access to its channels (Missing Access), and answers only through
    the interactions' tokens."""
    external_apps: bool = True
    """Whether its members hold Use External Apps: without it, a user-installed app's answers there are ephemeral."""

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", _stable_id(self.name, 3))
        if not self.channels:
            general = FakeChannel("general", id=_stable_id(f"{self.name}/general", 2))
            object.__setattr__(self, "channels", (general,))

    @property
    def channel(self) -> FakeChannel:
        return self.channels[0]

    @property
    def bot_role_id(self) -> int:
        return self.id + 1

    def roles_payload(self) -> list[dict]:
        def role(role_id: int, name: str, permissions: int, position: int) -> dict:
            return {
                "id": str(role_id),
                "name": name,
                "permissions": str(permissions),
                "position": position,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }

        return [
            role(self.id, "@everyone", MEMBER_PERMISSIONS, 0),
            role(self.bot_role_id, "bot", BOT_PERMISSIONS, 1),
        ]

    def create_payload(self, bot_user: FakeUser) -> dict:
        """The GUILD_CREATE event data."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": 2,
            "features": [],
            "preferred_locale": "en-US",
            "roles": self.roles_payload(),
            "emojis": [],
            "stickers": [],
            "channels": [channel.payload(self.id) for channel in self.channels],
            "threads": [],
            "members": [bot_user.member_payload(roles=(self.bot_role_id,))],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
        }

    def find_channel(self, channel_id: int) -> FakeChannel | None:
        return next((channel for channel in self.channels if channel.id == channel_id), None)


@dataclass(frozen=True, slots=True)
class FakeGroupDM:
    """A group DM (a private channel of up to ten people): the bot is never in one; players who added the app to
    their account use its commands there (interaction context 2)."""

    name: str
    members: tuple[FakeUser, ...] = ()
    id: int = 0

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", _stable_id(self.name, 4))

    def payload(self) -> dict:
        """The channel object an interaction carries (type 3, GROUP_DM)."""
        return {"id": str(self.id), "type": 3, "name": self.name, "owner_id": str(self.members[0].id)
                if self.members else "0", "recipients": [member.payload() for member in self.members], "flags": 0,
                "icon": None, "last_message_id": None}
