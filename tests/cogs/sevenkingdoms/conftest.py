"""The Seven Kingdoms tests' table: one server of two channels (tests/cogs/sevenkingdoms/test_cog.py), and the bot
with the feature loaded."""

import pytest

from tests.cogs.sevenkingdoms.test_cog import GUILD


@pytest.fixture
def fake_guilds():
    return (GUILD,)


@pytest.fixture
async def bot(start_bot):
    return await start_bot(extensions=("cogs.sevenkingdoms.cog",))
