"""The playground's places (issue 22, part 1), from the page's side: what each sends as Discord's client would.

The server that added the bot, a server that never added it, the party's group DM and each person's DM with the bot:
the payloads a line typed there becomes, the commands the sidebar says are offered there, and what the stand-in
lets the bot's own token reach."""

from __future__ import annotations

import pytest

from bot.playground.invoke import IN_BOT_DM, IN_GUILD, IN_PRIVATE_CHANNEL, CannotInvoke
from bot.playground.session import Table
from bot.playground.table import GUILD, NO_BOTS, PARTY, PEOPLE, place

ALICE, GM = PEOPLE[0].user, PEOPLE[3].user
TAVERN, CAMPFIRE = GUILD.channels[0], NO_BOTS.channels[0]
EVERYWHERE = {"contexts": [0, 1, 2], "integration_types": [0, 1]}
YZ = {"name": "yz", "description": "Roll", "type": 1, **EVERYWHERE, "options": [
    {"type": 4, "name": "attribute", "description": "a", "required": True, "min_value": 0, "max_value": 10},
]}
WILLPOWER_SET = {"name": "willpower-set", "description": "GM", "type": 1, "contexts": [0], "integration_types": [0],
                 "default_member_permissions": "32", "options": []}


@pytest.fixture
def table() -> Table:
    playground = Table()
    playground.backend.commands.overwrite(None, [YZ, WILLPOWER_SET])  # as the bot's global sync registers them
    return playground


def typed(table: Table, who, channel_id: int, line: str = "/yz attribute:3") -> dict:
    return table.command_payload_for(str(who.id), str(channel_id), line)


def test_the_server_with_the_bot_is_a_guild_install(table: Table):
    payload = typed(table, ALICE, TAVERN.id)
    assert payload["context"] == IN_GUILD and payload["guild_id"] == str(GUILD.id)
    assert payload["member"]["user"]["id"] == str(ALICE.id)
    assert payload["authorizing_integration_owners"] == {"0": str(GUILD.id)}


def test_a_server_without_the_bot_is_reached_through_the_players_account(table: Table):
    payload = typed(table, ALICE, CAMPFIRE.id)
    assert payload["context"] == IN_GUILD and payload["guild_id"] == str(NO_BOTS.id)
    assert payload["authorizing_integration_owners"] == {"1": str(ALICE.id)}
    assert table.backend.no_access(CAMPFIRE.id) and not table.backend.no_access(TAVERN.id)


def test_the_group_dm_has_no_server_nor_member(table: Table):
    payload = typed(table, ALICE, PARTY.id)
    assert payload["context"] == IN_PRIVATE_CHANNEL and payload["channel"]["type"] == 3
    assert "guild_id" not in payload and "member" not in payload
    assert payload["user"]["id"] == str(ALICE.id)
    assert payload["authorizing_integration_owners"] == {"1": str(ALICE.id)}
    assert {member["id"] for member in payload["channel"]["recipients"]} == {str(p.user.id) for p in PEOPLE}
    assert table.backend.no_access(PARTY.id)


def test_the_bots_dm_is_each_persons_own(table: Table):
    payload = typed(table, ALICE, ALICE.dm_channel_id)
    assert payload["context"] == IN_BOT_DM and payload["channel_id"] == str(ALICE.dm_channel_id)
    assert "guild_id" not in payload
    with pytest.raises(ValueError, match="alice has no channel"):
        typed(table, ALICE, GM.dm_channel_id)  # the GM's DM with the bot is not Alice's to see
    assert place(str(GM.id), str(GM.dm_channel_id)).context == IN_BOT_DM


def test_a_server_only_command_is_offered_only_in_the_server_that_added_the_bot(table: Table):
    typed(table, GM, TAVERN.id, "/willpower-set")
    for elsewhere in (CAMPFIRE.id, PARTY.id, GM.dm_channel_id):
        with pytest.raises(CannotInvoke, match="/willpower-set"):
            typed(table, GM, elsewhere, "/willpower-set")
    sidebar = {entry["name"]: entry for entry in table.places()}
    assert sidebar["tavern"]["offered"][str(GM.id)] == ["yz", "willpower-set"]
    assert sidebar["tavern"]["offered"][str(ALICE.id)] == ["yz"]  # it needs Manage Server
    assert sidebar["the party"]["offered"][str(GM.id)] == ["yz"]
    assert sidebar["campfire"]["offered"][str(GM.id)] == ["yz"]


def test_the_sidebar_lists_every_place_with_each_persons_channel(table: Table):
    sidebar = table.places()
    assert [(entry["section"], entry["kind"], entry["name"]) for entry in sidebar] == [
        ("The Table", "text", "tavern"), ("The Table", "text", "dungeon"), ("No Bots Allowed", "text", "campfire"),
        ("Direct messages", "group", "the party"), ("Direct messages", "dm", "rollkeeper"),
    ]
    dm = sidebar[-1]["channels"]
    assert dm == {str(p.user.id): str(p.user.dm_channel_id) for p in PEOPLE} and len(set(dm.values())) == len(PEOPLE)
    for entry in sidebar:
        for who, channel_id in entry["channels"].items():
            assert place(who, channel_id).user.id == int(who)
