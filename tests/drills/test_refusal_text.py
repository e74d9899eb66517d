"""Issue 9, finding 10: what a refusal or a reply shows is fit for players and fits Discord's limits.

- An option naming a user discord.py could not resolve was refused with the Python repr of what discord.py made
  of it: ``'<Object id=... type=<class 'discord.object.Object'>>' is not a valid value for this option.``
- A game master looking at the Willpower of a player whose display name is 3,000 characters long got a reply
  longer than Discord allows (the fake refuses it as Discord would), and the name was shown as typed (Markdown).
"""

from __future__ import annotations

import pytest

from bot.interactions.tree import NOT_FOUND_HERE
from tests.bot.payloads import slash_payload
from tests.drills.reading import answered_once, private_text
from tests.fakediscord import GM, FakeUser

LIMIT = 2000
"""Discord's limit on a message's content."""


@pytest.fixture
async def bot(start_bot):
    return await start_bot(extensions=("cogs.willpower.cog", "cogs.resources.cog", "cogs.log.cog"))


@pytest.mark.parametrize(("command", "options"), [
    ("willpower show", {}), ("resource show", {}), ("resource set", {"resource": "food", "rating": "d8"}),
    ("stats", {}),
])
async def test_an_unresolved_user_option_is_refused_without_a_python_repr(fake_discord, bot, command, options):
    someone = FakeUser("someone")
    payload = slash_payload(fake_discord, command, options | {"player": someone}, user=GM)
    del payload["data"]["resolved"]  # the id alone: discord.py makes a bare discord.Object of it
    reply = await fake_discord.send_interaction(payload)
    assert answered_once(reply)
    text = private_text(reply)
    assert text == NOT_FOUND_HERE
    assert "Object" not in text and "<" not in text and "class" not in text


async def test_a_3000_character_display_name_still_fits_in_the_reply(fake_discord, bot):
    long_named = FakeUser("**" + "x" * 2998)
    reply = await fake_discord.slash("willpower show", {"player": long_named}, user=GM)
    assert answered_once(reply) and reply.errors == [], reply.describe()
    text = private_text(reply)
    assert text is not None and len(text) <= LIMIT
    assert text.startswith("\\*\\*X") and text.endswith("has **0** Willpower (at most 10).")
