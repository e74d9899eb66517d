"""The playground's table: three players and a game master (Manage Server), and the places they play in: the
server that added the bot (two channels), a server that never added it (the players brought the app with their
account), their group DM, and each one's DM with the bot."""

from __future__ import annotations

from dataclasses import dataclass

from bot.playground.invoke import Place
from bot.playground.world import MANAGE_GUILD, MEMBER_PERMISSIONS, FakeChannel, FakeGroupDM, FakeGuild, FakeUser


@dataclass(frozen=True, slots=True)
class Person:
    """Someone at the table, as the page shows them."""

    user: FakeUser
    display: str
    colour: str

    @property
    def game_master(self) -> bool:
        return bool(self.user.permissions & MANAGE_GUILD)

    def payload(self) -> dict:
        return {
            "id": str(self.user.id),
            "name": self.user.name,
            "display": self.display,
            "colour": self.colour,
            "permissions": str(self.user.permissions),
            "game_master": self.game_master,
        }


PEOPLE = (
    Person(FakeUser("alice"), "Alice", "#e67e22"),
    Person(FakeUser("bob"), "Bob", "#3ba55d"),
    Person(FakeUser("carol"), "Carol", "#9b59b6"),
    Person(FakeUser("gm", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD), "The GM", "#5865f2"),
)
GUILD = FakeGuild(name="The Table", channels=(FakeChannel("tavern"), FakeChannel("dungeon")))
"""The server that added the bot."""
NO_BOTS = FakeGuild(name="No Bots Allowed", channels=(FakeChannel("campfire"),), has_app=False)
"""A server that never added the bot: the players use the app they added to their own account."""
PARTY = FakeGroupDM("the party", members=tuple(someone.user for someone in PEOPLE))
"""The group DM of the three players and the GM; the bot is never in one."""
BOT_USER = FakeUser("rollkeeper", bot=True)
LANGUAGES = {
    "en-US": "English", "sv-SE": "Svenska", "de": "Deutsch", "fr": "Français", "es-ES": "Español",
    "pt-BR": "Português (Brasil)", "it": "Italiano", "ru": "Русский", "cs": "Čeština",
}
"""The Discord locales the page offers (those rollkeeper speaks), each named in its own language."""


def person(user_id: str | int) -> Person:
    """The person with this user id (a ValueError names who exists)."""
    for someone in PEOPLE:
        if str(someone.user.id) == str(user_id):
            return someone
    raise ValueError(f"no one at the table has the id {user_id!r}")


def place(user_id: str | int, channel_id: str | int) -> Place:
    """Where this person plays when the page shows that channel (a ValueError for one they cannot see)."""
    user, wanted = person(user_id).user, int(channel_id)
    for guild in (GUILD, NO_BOTS):
        found = guild.find_channel(wanted)
        if found is not None:
            return Place(user, guild, found)
    if wanted == PARTY.id:
        return Place(user, None, None, PARTY)
    if wanted == user.dm_channel_id:
        return Place(user, None, None)
    raise ValueError(f"{user.name} has no channel {channel_id!r} at the table")


def sidebar() -> list[dict]:
    """The places the page's sidebar lists, by section: each with its channel id for every person (the bot's DM
    is each person's own), its interaction context, and what it shows."""
    everyone = [str(someone.user.id) for someone in PEOPLE]

    def shared(channel_id: int) -> dict[str, str]:
        return dict.fromkeys(everyone, str(channel_id))

    return [
        *({"section": GUILD.name, "kind": "text", "name": channel.name, "channels": shared(channel.id),
           "about": "A server that added rollkeeper: the bot is in it, as today."} for channel in GUILD.channels),
        *({"section": NO_BOTS.name, "kind": "text", "name": channel.name, "channels": shared(channel.id),
           "about": "A server that never added rollkeeper: the players brought it with their account."}
          for channel in NO_BOTS.channels),
        {"section": "Direct messages", "kind": "group", "name": PARTY.name, "channels": shared(PARTY.id),
         "about": "A group DM of the table: the bot is not in it; the players brought the app."},
        {"section": "Direct messages", "kind": "dm", "name": BOT_USER.name,
         "channels": {str(someone.user.id): str(someone.user.dm_channel_id) for someone in PEOPLE},
         "about": "Your own DM with the bot: only you see it."},
    ]
