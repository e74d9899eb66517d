"""Where a game is played: the place that keys the table's state, and where the bot itself is present."""

from types import SimpleNamespace

import discord
import pytest

from bot.errors import PlayerError
from bot.interactions.places import (
    answers_forced_private,
    bot_present,
    place_channel,
    server_of,
)


def _interaction(guild_id: int | None, channel_id: int | None, *, installed_in: int | None = None,
                 external_apps: bool = True) -> SimpleNamespace:
    def is_guild_integration() -> bool:
        return guild_id is not None and guild_id == installed_in

    permissions = discord.Permissions(use_external_apps=external_apps)
    return SimpleNamespace(guild_id=guild_id, channel_id=channel_id, is_guild_integration=is_guild_integration,
                           app_permissions=permissions)


def test_a_server_is_its_own_place_and_a_dm_or_group_dm_is_its_channel():
    assert place_channel(_interaction(5, 7, installed_in=5)) == (5, 7)
    assert place_channel(_interaction(5, 7)) == (5, 7)  # a server without the bot: still the server
    assert place_channel(_interaction(None, 9)) == (9, 9)  # a DM or a group DM: the channel
    with pytest.raises(PlayerError, match="only in a server"):
        place_channel(_interaction(5, None))


def test_server_only_commands_need_a_server_that_added_the_app():
    assert server_of(_interaction(5, 7, installed_in=5)) == 5
    with pytest.raises(PlayerError, match="direct messages"):
        server_of(_interaction(None, 9))
    with pytest.raises(PlayerError, match="added only to your account"):
        server_of(_interaction(5, 7))


def test_the_bot_is_present_only_where_its_server_installed_it():
    assert bot_present(_interaction(5, 7, installed_in=5))
    assert not bot_present(_interaction(5, 7, installed_in=6))
    assert not bot_present(_interaction(None, 9))


def test_public_answers_are_forced_private_only_without_use_external_apps_in_a_server_without_the_bot():
    assert answers_forced_private(_interaction(5, 7, external_apps=False))
    assert not answers_forced_private(_interaction(5, 7, external_apps=True))
    assert not answers_forced_private(_interaction(5, 7, installed_in=5, external_apps=False))
    assert not answers_forced_private(_interaction(None, 9, external_apps=False))
