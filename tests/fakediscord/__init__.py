"""A fake Discord on 127.0.0.1 that drives the real discord.py through its own parsing and HTTP path.

See harness.FakeDiscord for the entry point and tests/bot/test_fakediscord.py for worked examples.
"""

from tests.fakediscord.harness import FakeDiscord
from tests.fakediscord.invoke import CannotInvoke
from tests.fakediscord.records import Reply, Request, Violation, message_text
from tests.fakediscord.spec import SpecValidator
from tests.fakediscord.world import (
    ADMINISTRATOR,
    ALICE,
    BOB,
    GM,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeUser,
)

__all__ = [
    "ADMINISTRATOR",
    "ALICE",
    "BOB",
    "GM",
    "MANAGE_GUILD",
    "MEMBER_PERMISSIONS",
    "CannotInvoke",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeUser",
    "Reply",
    "Request",
    "SpecValidator",
    "Violation",
    "message_text",
]
