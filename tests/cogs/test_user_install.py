"""Playing where the bot is not (issue 22, part 1): the app installed to a player's account, used in the bot's DM, in
a group DM and in a server that never added it, and installed to a server as before.

Every test runs through the fake Discord, whose fixture fails a test in which the bot used its own token in a
channel it is not in (403 Missing Access), sent a follow-up past Discord's limit, or used an expired token."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from bot.interactions.answers import ONLY_YOU_SEE_IT
from bot.interactions.places import ONLY_WHERE_ADDED
from bot.playground.installs import MAX_FOLLOWUPS
from cogs.willpower.cog import GAME_MASTER_SETS
from tests.fakediscord import ALICE, BOB, GM, CannotInvoke, FakeDiscord, FakeGroupDM, FakeGuild, Reply

EPHEMERAL = 64
HOME = FakeGuild("Forbidden Lands")
"""A server that added the app (a guild install)."""
NO_BOTS = FakeGuild("No bots here", has_app=False)
"""A server that never added the app: its players bring it with their account."""
CLOSED = FakeGuild("Closed to apps", has_app=False, external_apps=False)
"""Such a server whose members may not use external apps publicly."""
PARTY = FakeGroupDM("the party", members=(ALICE, BOB, GM))

PLACES = {
    "a server that added the app": {"guild": HOME},
    "a server without the bot": {"guild": NO_BOTS},
    "the bot's DM": {"dm": True},
    "a group DM": {"group": PARTY},
}
BOTLESS = {name: place for name, place in PLACES.items() if name != "a server that added the app"}
ANYWHERE = {"yz", "push", "willpower", "resource", "help", "log", "stats", "heroic", "hex", "test"}
SERVER_ONLY = {"willpower-set", "session", "settings"}


@pytest.fixture
def fake_guilds():
    return (HOME, NO_BOTS, CLOSED)


class Clock:
    """The bot's clock, moved on by the test (with the fake's, to age the interactions' tokens)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


class Threes:
    """Dice that always show 3: every roll can be pushed, and every push too."""

    def roll(self, sides: int) -> int:
        return 3


@pytest.fixture
async def bot(start_bot, clock):
    started = await start_bot(clock=clock)
    started.get_cog("YearZero").dice = Threes()
    return started


def rows(db_path, sql: str, *values: object) -> list[tuple]:
    with closing(sqlite3.connect(db_path)) as connection:
        return connection.execute(sql, values).fetchall()


def place_of(fake: FakeDiscord, place: dict) -> int:
    """The place the table's state is kept under: the server, or the DM's or group DM's channel."""
    if "guild" in place:
        return place["guild"].id
    return PARTY.id if "group" in place else ALICE.id + 7


def public(reply: Reply) -> Reply:
    assert reply.type == 4 and not reply.flags & EPHEMERAL, reply.describe()
    assert reply.errors == [], reply.describe()
    return reply


async def test_commands_declare_their_installs_and_contexts(fake_discord, bot):
    """Synced definitions carry integration_types and contexts (the fake validates them against Discord's OpenAPI
    description): played anywhere with either install, or server-only with the server's install only."""
    synced = {command["name"]: command for command in fake_discord.commands()}
    assert set(synced) == ANYWHERE | SERVER_ONLY
    for name in ANYWHERE:
        assert synced[name]["integration_types"] == [0, 1], name
        assert synced[name]["contexts"] == [0, 1, 2], name
    for name in SERVER_ONLY:
        assert synced[name]["integration_types"] == [0], name
        assert synced[name]["contexts"] == [0], name


async def test_the_sync_hash_counts_installs_and_contexts(fake_discord, bot):
    from bot.app.sync import command_definitions_hash

    before = await command_definitions_hash(bot.tree)
    bot.tree.get_command("help").allowed_installs.user = False
    assert await command_definitions_hash(bot.tree) != before


@pytest.mark.parametrize("where", list(BOTLESS))
async def test_server_only_commands_are_not_offered_where_the_app_came_with_an_account(fake_discord, bot, where):
    with pytest.raises(CannotInvoke):
        await fake_discord.slash("willpower-set", {"player": ALICE, "points": 3}, user=GM, **BOTLESS[where])
    with pytest.raises(CannotInvoke):
        await fake_discord.slash("settings language", {"choice": "de"}, user=GM, **BOTLESS[where])


@pytest.mark.parametrize("where", list(BOTLESS))
async def test_server_only_subcommands_say_so_where_the_app_came_with_an_account(fake_discord, bot, db_path, where):
    """Discord cannot hide a subcommand alone: the bot refuses /log export and /test clear itself, storing nothing."""
    await fake_discord.slash("test extended", {"task": "Climb", "difficulty": "Routine", "rank": 2, "needed": 3},
                             user=GM, **BOTLESS[where])
    for command, options in (("log export", {}), ("test clear", {"task": "Climb"})):
        refused = await fake_discord.slash(command, options, user=GM, **BOTLESS[where])
        assert refused.flags & EPHEMERAL, refused.describe()
        assert refused.content in (ONLY_WHERE_ADDED, "This command works only in a server's channels, not in "
                                   "direct messages."), refused.describe()
    assert len(rows(db_path, "SELECT * FROM extended_tests")) == 1  # not cleared


@pytest.mark.parametrize("where", list(PLACES))
async def test_a_roll_is_pushed_and_willpower_kept_in_every_place(fake_discord, bot, db_path, where):
    """/yz, its Push button, /push, Willpower: the same in each place, kept under the place."""
    place = PLACES[where]
    if "guild" in place and place["guild"].has_app:
        await fake_discord.slash("willpower-set", {"player": ALICE, "points": 4}, user=GM, guild=HOME)
    else:
        set_own = public(await fake_discord.slash("willpower set", {"points": 4}, **place))
        assert "sets their Willpower to **4** (was 0)" in set_own.content
    rolled = public(await fake_discord.slash("yz", {"attribute": 4, "skill": 2}, **place))
    assert [button["label"] for row in rolled.message["components"] for button in row["components"]] == [
        "Push", "Keep"]
    pushed = await fake_discord.click(rolled, label="Push")
    assert pushed.type == 7 and pushed.errors == [], pushed.describe()
    spent = public(await fake_discord.slash("willpower spend", {"points": 1}, **place))
    assert "spends **1** Willpower" in spent.content
    state = rows(db_path, "SELECT guild_id, channel_id, pushes_made FROM yz_rolls")
    channel_id = int(rolled.interaction["channel_id"])
    assert state == [(place_of(fake_discord, place), channel_id, 1)]
    points = rows(db_path, "SELECT guild_id FROM willpower WHERE user_id = ?", ALICE.id)
    assert points == [(place_of(fake_discord, place),)]


@pytest.mark.parametrize("where", list(PLACES))
async def test_help_log_and_stats_answer_in_every_place(fake_discord, bot, where):
    place = PLACES[where]
    await fake_discord.slash("hex plain", {"dice": 3}, **place)
    await fake_discord.slash("heroic tn", {"skill": 3, "tn": 10}, **place)
    shown = await fake_discord.slash("log show", **place)
    assert shown.flags & EPHEMERAL and len(shown.embed["description"].splitlines()) >= 2, shown.describe()
    stats = await fake_discord.slash("stats", **place)
    assert stats.flags & EPHEMERAL and stats.embed is not None and stats.errors == [], stats.describe()
    helped = public(await fake_discord.slash("help", {"public": True}, **place))
    assert helped.embed is not None


async def test_a_dm_a_group_dm_and_a_server_keep_apart(fake_discord, bot, db_path):
    """Willpower, rolls and the log of one place never show in another, whichever way round."""
    for points, place in zip((1, 2, 3), (BOTLESS["the bot's DM"], BOTLESS["a group DM"], {"guild": NO_BOTS}),
                             strict=True):
        await fake_discord.slash("willpower set", {"points": points}, **place)
    await fake_discord.slash("willpower-set", {"player": ALICE, "points": 7}, user=GM, guild=HOME)
    expected = {"the bot's DM": 1, "a group DM": 2, "a server without the bot": 3, "a server that added the app": 7}
    for where, points in expected.items():
        shown = await fake_discord.slash("willpower show", **PLACES[where])
        assert f"**{points}**" in shown.content, (where, shown.describe())
    await fake_discord.slash("hex plain", {"dice": 2}, **PLACES["a group DM"])
    for where in ("the bot's DM", "a server without the bot", "a server that added the app"):
        log = await fake_discord.slash("log show", **PLACES[where])
        assert "HEX" not in str(log.embed), (where, log.describe())


@pytest.mark.parametrize("where", list(PLACES))
async def test_resource_dice_are_kept_per_place(fake_discord, bot, db_path, where):
    """/resource set and roll in each place, kept under the place; the other places' ratings stay untouched."""
    place = PLACES[where]
    public(await fake_discord.slash("resource set", {"resource": "torches", "rating": "d8"}, **place))
    rolled = public(await fake_discord.slash("resource roll", {"resource": "torches", "faces": "1"}, **place))
    assert "D8 → **D6**" in rolled.embed["description"], rolled.describe()
    kept = rows(db_path, "SELECT guild_id, user_id, resource, rating FROM resource_ratings")
    assert kept == [(place_of(fake_discord, place), ALICE.id, "torches", 6)]
    elsewhere = next(other for name, other in PLACES.items() if name != where)
    shown = await fake_discord.slash("resource show", **elsewhere)
    assert shown.flags & EPHEMERAL and "D6" not in shown.content and "D8" not in shown.content, shown.describe()


async def test_in_a_group_dm_resource_dice_are_each_players_own(fake_discord, bot, db_path):
    """No game master at a group DM: a player sets only their own resource dice, and anyone may look at anyone's
    (as at their Willpower)."""
    refused = await fake_discord.slash("resource set", {"resource": "food", "rating": "d12", "player": BOB},
                                       user=GM, group=PARTY)
    assert refused.flags & EPHEMERAL, refused.describe()
    assert rows(db_path, "SELECT * FROM resource_ratings") == []
    await fake_discord.slash("resource set", {"resource": "water", "rating": "d10"}, user=BOB, group=PARTY)
    shown = await fake_discord.slash("resource show", {"player": BOB}, user=ALICE, group=PARTY)
    assert shown.flags & EPHEMERAL and "**D10**" in shown.content, shown.describe()


async def test_group_dm_willpower_is_each_players_own_to_set(fake_discord, bot, db_path):
    await fake_discord.slash("willpower set", {"points": 5}, user=BOB, group=PARTY)
    await fake_discord.slash("willpower set", {"points": 2}, user=ALICE, group=PARTY)
    kept = rows(db_path, "SELECT user_id, points FROM willpower WHERE guild_id = ? ORDER BY points", PARTY.id)
    assert kept == [(ALICE.id, 2), (BOB.id, 5)]
    shown = await fake_discord.slash("willpower show", {"player": BOB}, user=ALICE, group=PARTY)
    assert "**5**" in shown.content  # no game master at a group DM: anyone may look


async def test_in_a_server_that_added_the_app_the_game_master_sets_willpower(fake_discord, bot, db_path):
    refused = await fake_discord.slash("willpower set", {"points": 9}, guild=HOME)
    assert refused.flags & EPHEMERAL and refused.content == GAME_MASTER_SETS
    assert rows(db_path, "SELECT * FROM willpower") == []


def webhook_edits(fake: FakeDiscord) -> list:
    return fake.requests_to("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")


@pytest.mark.parametrize("where", list(BOTLESS))
async def test_a_superseded_card_is_edited_through_its_interactions_token(fake_discord, bot, where):
    place = BOTLESS[where]
    first = public(await fake_discord.slash("yz", {"attribute": 3}, **place))
    public(await fake_discord.slash("yz", {"attribute": 2}, **place))
    assert "Superseded" in str(first.message["embeds"]), first.describe()
    assert first.message["components"] == []
    assert fake_discord.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}") == []
    assert [request.path.split("/")[3] for request in webhook_edits(fake_discord)] == [first.token]


@pytest.mark.parametrize("where", list(BOTLESS))
async def test_after_15_minutes_the_card_is_left_and_repaired_on_the_next_click(fake_discord, bot, clock, where):
    place = BOTLESS[where]
    fake_discord.backend.token_lifetime = 15 * 60.0
    first = public(await fake_discord.slash("yz", {"attribute": 3}, **place))
    clock.now += timedelta(minutes=15)
    fake_discord.backend.clock_offset += 15 * 60
    public(await fake_discord.slash("yz", {"attribute": 2}, **place))
    assert webhook_edits(fake_discord) == [] and first.message["components"] != []  # left as it was
    repaired = await fake_discord.click(first, label="Push")
    assert repaired.type == 7 and "Superseded" in str(repaired.message["embeds"]), repaired.describe()
    assert repaired.message["components"] == []


async def test_a_push_by_command_marks_the_rolls_card_through_its_token(fake_discord, bot):
    rolled = public(await fake_discord.slash("yz", {"attribute": 4, "skill": 1}, group=PARTY))
    public(await fake_discord.slash("push", group=PARTY))
    assert "Pushed with /push" in str(rolled.message["embeds"]), rolled.describe()
    assert rolled.message["components"] == []


async def test_where_discord_allows_only_private_answers_the_roll_says_why(fake_discord, bot, db_path):
    rolled = await fake_discord.slash("yz", {"attribute": 3}, guild=CLOSED)
    assert rolled.flags & EPHEMERAL and rolled.content == ONLY_YOU_SEE_IT, rolled.describe()
    spent = await fake_discord.slash("willpower spend", {"points": 1}, guild=CLOSED)
    assert spent.flags & EPHEMERAL  # refused (no Willpower): a private answer anyway
    helped = await fake_discord.slash("help", {"public": True}, guild=CLOSED)
    assert helped.flags & EPHEMERAL and helped.content == ONLY_YOU_SEE_IT
    assert len(rows(db_path, "SELECT * FROM yz_rolls")) == 1
    assert rows(db_path, "SELECT private FROM roll_log") == [(1,)]  # nobody else saw it: logged as private
    await fake_discord.slash("hex plain", {"dice": 2}, guild=CLOSED)
    assert rows(db_path, "SELECT private FROM roll_log") == [(1,), (1,)]
    theirs = await fake_discord.slash("log show", user=BOB, guild=CLOSED)
    assert "Year Zero" not in str(theirs.embed) and "HEX" not in str(theirs.embed), theirs.describe()


async def test_the_fake_refuses_a_sixth_follow_up_of_a_user_installed_app(fake_discord, bot):
    """The limit the bot must keep under (it sends at most one follow-up per interaction)."""
    reply = await fake_discord.slash("help", group=PARTY)
    answers = [
        fake_discord.backend.followup(fake_discord.application_id, reply.token, {"content": "more"}, [])
        for _ in range(MAX_FOLLOWUPS + 1)
    ]
    assert [status for status, _ in answers] == [200] * MAX_FOLLOWUPS + [400]
    assert answers[-1][1]["code"] == 40094


@pytest.mark.parametrize("where", list(PLACES))
async def test_help_says_how_to_add_the_app_to_your_account(fake_discord, bot, where):
    """The help's menu turns its pages in every place (a click on an ephemeral message, through its token)."""
    helped = await fake_discord.slash("help", user=ALICE, **PLACES[where])
    custom_id = next(c["custom_id"] for row in helped.components for c in row["components"])
    turned = await fake_discord.click(helped, custom_id, values=["anywhere"])
    assert turned.type == 7 and turned.errors == [], turned.describe()
    assert "Add the app to your account" in turned.embeds[0]["description"]


@pytest.mark.parametrize("where", list(BOTLESS))
async def test_a_private_roll_is_revealed_where_the_bot_is_absent(fake_discord, bot, db_path, where):
    rolled = await fake_discord.slash("hex plain", {"dice": 2, "private": True}, **BOTLESS[where])
    assert rolled.flags & EPHEMERAL, rolled.describe()
    revealed = public(await fake_discord.click(rolled, label="Reveal"))
    assert revealed.embed["description"].endswith(rolled.embed["description"])  # the same dice, said revealed
    assert revealed.embed["fields"] == rolled.embed["fields"]
    assert rows(db_path, "SELECT guild_id, private FROM roll_log") == [(place_of(fake_discord, BOTLESS[where]), 1)]
