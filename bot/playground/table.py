"""The playground's table: one server with two channels, three players and a game master (Manage Server)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.playground.world import MANAGE_GUILD, MEMBER_PERMISSIONS, FakeChannel, FakeGuild, FakeUser


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
BOT_USER = FakeUser("rollkeeper", bot=True)
LANGUAGES = {
    "en-US": "English", "sv-SE": "Svenska", "de": "Deutsch", "fr": "Français", "es-ES": "Español",
    "pt-BR": "Português (Brasil)",
}
"""The Discord locales the page offers (those rollkeeper speaks), each named in its own language."""


def person(user_id: str | int) -> Person:
    """The person with this user id (a ValueError names who exists)."""
    for someone in PEOPLE:
        if str(someone.user.id) == str(user_id):
            return someone
    raise ValueError(f"no one at the table has the id {user_id!r}")


def channel(channel_id: str | int) -> FakeChannel:
    found = GUILD.find_channel(int(channel_id))
    if found is None:
        raise ValueError(f"the table has no channel {channel_id!r}")
    return found
