"""/resource roll|show|set end to end through discord.py against the fake Discord, on SQLite and on PostgreSQL:
every step down to none, the refusal of a resource used up, the exact odds, set and show (your own; a game
master's anyone's), dice rolled by hand, the roll log and the luck /stats counts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cogs.resources.cog import ONLY_YOUR_OWN
from rules.language import speak
from tests.bot.embeds import below_title, field, give_faces, odds
from tests.fakediscord import ALICE, BOB, GM, FakeDiscord, FakeGuild, Reply

COGS = ("cogs.resources.cog", "cogs.log.cog")
KEEP = FakeGuild("The Keep")
MARSH = FakeGuild("The Marsh")
RUNDE = FakeGuild("Runde", locale="de")
EPHEMERAL = 64
EN = speak("en")


@pytest.fixture
def fake_guilds():
    """Two servers: resources are kept per place, as Willpower."""
    return (KEEP, MARSH, RUNDE)


@pytest.fixture(params=["sqlite", "postgres"], autouse=True)
def database(request) -> dict[str, str]:
    """Each database's settings, made first: PostgreSQL's is dropped after the bot stops."""
    return {} if request.param == "sqlite" else {"DATABASE_URL": request.getfixturevalue("postgres_url")}


@pytest.fixture
async def bot(database, start_bot):
    return await start_bot(extensions=COGS, **database)


def private(reply: Reply) -> str:
    assert reply.type == 4 and reply.flags & EPHEMERAL and reply.errors == [], reply.describe()
    return reply.content


def public(reply: Reply) -> Reply:
    """A change's answer: stored, then shown in the first callback, public."""
    assert reply.type == 4 and not reply.flags & EPHEMERAL and not reply.loading, reply.describe()
    return reply


async def set_rating(fake: FakeDiscord, resource: str, rating: int, *, player=None, user=ALICE, guild=None) -> Reply:
    options = {"resource": resource, "rating": f"d{rating}" if rating else "none"}
    options |= {"player": player} if player else {}
    return await fake.slash("resource set", options, user=user, guild=guild)


async def roll(fake: FakeDiscord, bot, face: int, resource: str = "food", **options) -> Reply:
    dice = give_faces(bot, "ResourceCommands", face)
    reply = await fake.slash("resource roll", {"resource": resource} | options)
    dice.finish()
    return reply


async def ratings(bot, user=ALICE, guild=KEEP) -> dict[str, int]:
    return await bot.db.resources.ratings(guild.id, user.id)


STEPS = [  # (rating before, after, the odds line: 2/n exactly, then the rolls expected from the rating after)
    (12, 10, "Odds: step down 2/12 = 17% · expected rolls left 12"),
    (10, 8, "Odds: step down 2/10 = 20% · expected rolls left 7"),
    (8, 6, "Odds: step down 2/8 = 25% · expected rolls left 3"),
    (6, 0, "Odds: step down 2/6 = 33% · expected rolls left 0"),
]


async def test_a_d12_steps_down_to_none_and_a_resource_used_up_is_refused(fake_discord, bot):
    public(await set_rating(fake_discord, "food", 12))
    for (before, after, line), face in zip(STEPS, (1, 2, 1, 2), strict=True):
        card = public(await roll(fake_discord, bot, face)).embed
        shown_after = f"D{after}" if after else "none"
        title = "💀 Food ran out" if not after else f"❌ Food steps down · {shown_after}"
        assert card["title"] == title and odds(card) == line
        assert below_title(card) == [f"Resource die · Food · D{before}", f"D{before} → **{shown_after}**"]
        assert field(card, "Dice") == f"`{face}`☠"
        assert await ratings(bot) == {"food": after}
    refused = await fake_discord.slash("resource roll", {"resource": "food"})
    assert private(refused) == "You have no Food left" and await ratings(bot) == {"food": 0}
    never = await fake_discord.slash("resource roll", {"resource": "torches"}, user=BOB)
    assert private(never) == "You have no Torches left" and await ratings(bot, BOB) == {}


@pytest.mark.parametrize("sides", [6, 8, 10, 12])
async def test_a_roll_of_three_or_more_keeps_the_die_and_the_odds_are_exact(fake_discord, bot, sides):
    public(await set_rating(fake_discord, "water", sides))
    card = public(await roll(fake_discord, bot, 3, "water")).embed
    assert card["title"] == f"✅ Water holds · D{sides}" and field(card, "Dice") == "`3`"
    left = {6: 3, 8: 7, 10: 12, 12: 18}[sides]  # the sum of n/2 over the dice still to step through
    assert odds(card) == f"Odds: step down 2/{sides} = {EN.percent(Fraction(2, sides))} · expected rolls left {left}"
    assert await ratings(bot) == {"water": sides}


async def test_set_and_show_your_own_per_place(fake_discord, bot):
    empty = private(await fake_discord.slash("resource show"))
    assert empty == "Your resource dice: Food **none** · Water **none** · Arrows **none** · Torches **none**."
    answer = public(await set_rating(fake_discord, "arrows", 10))
    assert answer.content == f"<@{ALICE.id}>'s Arrows is now **D10** (was none)."
    assert public(await set_rating(fake_discord, "arrows", 0)).content.endswith("is now **none** (was D10).")
    public(await set_rating(fake_discord, "torches", 6))
    public(await set_rating(fake_discord, "food", 8, guild=MARSH))
    shown = private(await fake_discord.slash("resource show"))
    assert shown == "Your resource dice: Food **none** · Water **none** · Arrows **none** · Torches **D6**."
    assert await ratings(bot) == {"arrows": 0, "torches": 6} and await ratings(bot, guild=MARSH) == {"food": 8}


async def test_only_a_game_master_sets_or_sees_another_players_resources(fake_discord, bot):
    refused = await set_rating(fake_discord, "food", 8, player=BOB)
    assert private(refused) == ONLY_YOUR_OWN and await ratings(bot, BOB) == {}
    assert private(await fake_discord.slash("resource show", {"player": BOB})) == ONLY_YOUR_OWN
    answer = public(await set_rating(fake_discord, "food", 8, player=BOB, user=GM))
    assert answer.content == f"<@{BOB.id}>'s Food is now **D8** (was none), set by <@{GM.id}>."
    [callback] = answer.requests  # the answer, in one request, pinging nobody
    assert callback.body["data"]["allowed_mentions"]["parse"] == []
    seen = private(await fake_discord.slash("resource show", {"player": BOB}, user=GM))
    assert seen == "Bob's resource dice: Food **D8** · Water **none** · Arrows **none** · Torches **none**."
    assert await ratings(bot, BOB) == {"food": 8}


async def test_a_die_rolled_by_hand_is_read_as_the_bots_and_marked(fake_discord, bot):
    public(await set_rating(fake_discord, "torches", 8))
    card = public(await fake_discord.slash("resource roll", {"resource": "torches", "faces": "2"})).embed
    assert card["title"] == "❌ Torches steps down · D6"
    assert card["footer"]["text"] == "Odds: step down 2/8 = 25% · expected rolls left 3\n🖐 Rolled by hand"
    [entry] = await bot.db.log.page(KEEP.id, KEEP.channels[0].id, ALICE.id)
    assert entry.extras == {"before": 8, "after": 6, "by_hand": 1}
    for faces, refusal in [("7", "Face 7 is impossible on a d6 (die 1)"), ("3 4", "2 faces given, but the roll used 1"),
                           ("x", "Face 'x' is not a number: write faces like 6,1,4")]:
        refused = await fake_discord.slash("resource roll", {"resource": "torches", "faces": faces})
        assert private(refused) == refusal
    assert await ratings(bot) == {"torches": 6} and len(await bot.db.log.page(KEEP.id, KEEP.channels[0].id, 1)) == 1


async def test_each_roll_is_logged_with_its_luck_event_and_counted_in_stats(fake_discord, bot):
    public(await set_rating(fake_discord, "food", 8))
    await roll(fake_discord, bot, 5)  # kept: a success whose chance was 6/8
    await roll(fake_discord, bot, 1)  # stepped down: a failure whose chance of success was 6/8
    entries = await bot.db.log.page(KEEP.id, KEEP.channels[0].id, ALICE.id)
    assert [(e.system, e.kind, e.events, e.reading) for e in entries] == [
        ("resources", "food", ("3/4:0",), "❌ Food steps down · D6 — Resource die · Food · D8"),
        ("resources", "food", ("3/4:1",), "✅ Food holds · D8 — Resource die · Food · D8"),
    ]
    stats = (await fake_discord.slash("stats")).embed
    resources = field(stats, "Resource dice")
    assert resources.startswith("2 rolls\n1 of 2 chances succeeded; expected 1.50") and field(stats, "In total")


async def test_the_card_and_the_set_speak_the_tables_language(fake_discord, bot):
    answer = public(await set_rating(fake_discord, "arrows", 8, guild=RUNDE))
    assert answer.content == f"Pfeile von <@{ALICE.id}> ist jetzt **W8** (vorher leer)."
    dice = give_faces(bot, "ResourceCommands", 2)
    card = public(await fake_discord.slash("resource roll", {"resource": "arrows"}, guild=RUNDE)).embed
    dice.finish()
    assert card["title"] == "❌ Pfeile: Würfel sinkt · W6" and below_title(card)[0] == "Ressourcenwürfel · Pfeile · W8"
    percent = speak("de").percent(Fraction(1, 4))  # "25 %" with the locale's no-break space
    assert odds(card) == f"Chancen: sinkt 2/8 = {percent} · erwartete verbleibende Würfe 3"
