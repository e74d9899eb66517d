"""A fake Discord on 127.0.0.1 (the product's stand-in, bot/playground/, with the tests' fault injection and
OpenAPI validation around it) that drives the real discord.py through its own parsing and HTTP path.

Usage (the `fake_discord` fixture in tests/conftest.py does the `async with` and checks at teardown)::

    async def test_roll(fake_discord):
        await fake_discord.run(make_bot())                  # setup_hook ran, guilds arrived
        reply = await fake_discord.slash("yz roll", {"base": 3}, user=ALICE)
        assert reply.type == 4 and "Success" in reply.text
        pushed = await fake_discord.click(reply, label="Push", user=ALICE)
        assert pushed.type == 7                             # the message was updated in place

A Reply holds the callback (`type`, `data`, `flags`), the original `message` as Discord stores it (live),
`followups`, `edits`, `ephemeral`, `embeds`/`embed`, `content`, `text`, `modal`, `choices`, and every
request made with the interaction's token. `slash`/`click` raise CannotInvoke when Discord's own client
would refuse (unregistered command, unknown option, value out of range, missing permission, disabled
button). Every body the bot sends is validated against Discord's OpenAPI description (where it is found, see
spec.py) and by the fake's own checks (limits.py); violations are answered 400 like Discord does
and listed in `fake.violations`, as are breaks of the interaction protocol (a second initial response, a callback
type that does not fit the interaction, a followup before any response).
With ``FakeDiscord(shard_count=N)`` the fake has N shards: ``GET /gateway/bot`` recommends N, each gateway connection
IDENTIFYs as one shard and gets only the guilds it owns (``(guild_id >> 22) % N``), interactions arrive on the shard
that owns their guild (or on ``shard=`` given to `slash`/`click`/`send_interaction`), and several bots may run at
once, each on its own shards (tests/bot/app/test_shards.py).
See tests/bot/test_fakediscord.py for worked examples.
"""

from bot.playground.invoke import CannotInvoke
from bot.playground.records import Reply, Request, Violation, message_text
from bot.playground.world import (
    ADMINISTRATOR,
    ALICE,
    BOB,
    GM,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    FakeChannel,
    FakeGroupDM,
    FakeGuild,
    FakeUser,
)
from tests.fakediscord.harness import GUILD_READY_TIMEOUT, FakeDiscord
from tests.fakediscord.spec import SpecValidator

__all__ = [
    "GUILD_READY_TIMEOUT",
    "ADMINISTRATOR",
    "ALICE",
    "BOB",
    "GM",
    "MANAGE_GUILD",
    "MEMBER_PERMISSIONS",
    "CannotInvoke",
    "FakeChannel",
    "FakeDiscord",
    "FakeGroupDM",
    "FakeGuild",
    "FakeUser",
    "Reply",
    "Request",
    "SpecValidator",
    "Violation",
    "message_text",
]
