"""Hand-made interactions for the bot's tests: what a hostile or buggy client could send past Discord's checks."""

from __future__ import annotations

import copy

from bot.playground.invoke import Place, command_data
from tests.fakediscord import ALICE, FakeChannel, FakeDiscord, FakeUser, Reply

APPLICATION_COMMAND, COMPONENT = 2, 3
BUTTON = 2


def slash_payload(
    fake: FakeDiscord,
    command: str,
    options: dict,
    *,
    user: FakeUser = ALICE,
    channel: FakeChannel | None = None,
    **unchecked: object,
) -> dict:
    """/command with valid `options`, then the `unchecked` values written in as they are.

    Skips what Discord's client enforces (default permissions, bounds, choices): the bot must check them itself.
    """
    name, *path = command.split()
    found = fake.backend.commands.find(name, fake.guild.id)
    place = Place(user, fake.guild, channel or fake.guild.channel)
    data = command_data(found, path, options, place)
    leaf = data["options"]
    for _ in path:
        leaf = leaf[0]["options"]
    for option in leaf:
        if option["name"] in unchecked:
            option["value"] = unchecked[option["name"]]
    return fake.payload(APPLICATION_COMMAND, data, user=user, channel=place.channel)


def click_payload(fake: FakeDiscord, message: Reply | dict, custom_id: str, *, user: FakeUser = ALICE) -> dict:
    """A click on a button with `custom_id`, carried by a copy of `message` whose first button is given that id.

    Discord sends the clicked component inside the message; so does this, whatever the id says.
    """
    stored = copy.deepcopy(message.message if isinstance(message, Reply) else message)
    button = {"type": BUTTON, "style": 4, "label": "Push", "custom_id": custom_id}
    stored["components"] = [{"type": 1, "components": [button]}]
    data = {"custom_id": custom_id, "component_type": BUTTON}
    channel = fake.guild.find_channel(int(stored["channel_id"]))
    return fake.payload(COMPONENT, data, user=user, channel=channel) | {"message": stored}
