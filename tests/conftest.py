"""Shared fixtures. `fake_discord`: a fake Discord on 127.0.0.1 for driving the real discord.py bot."""

import pytest


@pytest.fixture(scope="session")
def discord_spec():
    """Discord's OpenAPI description, loaded once per test session."""
    from tests.fakediscord import SpecValidator

    return SpecValidator.shared()


@pytest.fixture
async def fake_discord(discord_spec):
    """A running FakeDiscord; at teardown it stops the bot and fails on any body Discord would refuse."""
    from tests.fakediscord import FakeDiscord

    async with FakeDiscord(validator=discord_spec) as fake:
        yield fake
        await fake.stop()
        fake.assert_clean()
