"""Which language an answer speaks, through the fake Discord: a public card the server's (its /settings language,
else its Discord locale, else English), a private answer the player's own, an edited card the language it was first
shown in, an unknown locale English; and every kind of card, in every language, fits Discord's limits."""

from __future__ import annotations

import pytest

from bot.interactions.language import language_of
from rules.errors import RulesError
from rules.hex.pool import HexPool
from rules.language import LANGUAGES, speak
from tests.bot.embeds import give_faces
from tests.cogs.cards import CARD_KINDS
from tests.cogs.test_cards import ALL_COGS, SENT
from tests.fakediscord import GM, CannotInvoke, FakeChannel, FakeGuild, FakeUser

DISCORD_LOCALE = {
    "en": "en-US", "sv_SE": "sv-SE", "de": "de", "fr": "fr", "es_ES": "es-ES", "pt_BR": "pt-BR", "it": "it", "ru": "ru",
    "cs": "cs",
}
GERMAN = FakeGuild("Runde", channels=(FakeChannel("spieltisch"),), locale="de")
ENGLISH = FakeGuild("Table", channels=(FakeChannel("table"),), locale="en-US")
JAPANESE = FakeGuild("Takkyu", channels=(FakeChannel("heya"),), locale="ja")
SWEDE = FakeUser("bjorn", locale="sv-SE")
AMERICAN = FakeUser("ada", locale="en-US")
ARGENTINE = FakeUser("lucia", locale="es-419")
GERMAN_GM = FakeUser("gm-de", permissions=GM.permissions, locale="de")
SERVERS = {code: FakeGuild(f"Server {code}", locale=DISCORD_LOCALE[code]) for code in LANGUAGES}


@pytest.fixture
def fake_guilds() -> tuple:
    return (GERMAN, ENGLISH, JAPANESE, *SERVERS.values())


@pytest.fixture
async def bot(start_bot):
    return await start_bot(extensions=(*ALL_COGS, "cogs.settings.cog", "cogs.help.cog"))


def odds_start(code: str) -> str:
    return speak(code)._("Odds: {chances}", chances="")


async def hex_test(fake_discord, bot, *, user, guild, private=False):
    dice = give_faces(bot, "Hex", 6, 2)
    reply = await fake_discord.slash("hex test", {"attribute": 2, "private": private}, user=user, guild=guild)
    dice.finish()
    return reply


def test_discord_locales_map_onto_the_languages():
    locales = ("sv-SE", "de", "fr", "es-ES", "es-419", "pt-BR", "pt-PT", "it", "ru", "cs")
    assert [language_of(locale) for locale in locales] == [
        "sv_SE", "de", "fr", "es_ES", "es_ES", "pt_BR", "pt_BR", "it", "ru", "cs"
    ]
    assert [language_of(locale) for locale in ("en-US", "en-GB", "ja", "pl", None)] == ["en"] * 5


async def test_a_public_card_speaks_the_servers_language_and_a_private_one_the_players(fake_discord, bot):
    public = await hex_test(fake_discord, bot, user=SWEDE, guild=GERMAN)
    assert public.embed["footer"]["text"].startswith(odds_start("de")) and not public.ephemeral
    private = await hex_test(fake_discord, bot, user=SWEDE, guild=GERMAN, private=True)
    assert private.ephemeral and private.embed["footer"]["text"].startswith(odds_start("sv_SE"))
    spanish = await hex_test(fake_discord, bot, user=ARGENTINE, guild=ENGLISH, private=True)
    assert spanish.embed["footer"]["text"].startswith(odds_start("es_ES"))
    assert odds_start("sv_SE") != odds_start("de") != odds_start("en") != odds_start("es_ES")


async def test_an_unknown_locale_speaks_english(fake_discord, bot):
    for user in (AMERICAN, FakeUser("kenji", locale="ja")):
        for private in (False, True):
            reply = await hex_test(fake_discord, bot, user=user, guild=JAPANESE, private=private)
            assert reply.embed["footer"]["text"].startswith("Odds: "), (user, private)


async def test_a_refusal_speaks_the_players_language(fake_discord, bot):
    with pytest.raises(RulesError) as refused:
        HexPool(attribute=2, skill=1, specialty=3)
    reply = await fake_discord.slash("hex test", {"attribute": 2, "skill": 1, "specialty": 3}, user=SWEDE,
                                     guild=GERMAN)
    assert reply.ephemeral and reply.content == speak("sv_SE").error(refused.value)
    assert reply.content != str(refused.value)


async def test_settings_language_switches_a_servers_public_cards(fake_discord, bot):
    chosen = await fake_discord.slash("settings language", {"choice": "sv_SE"}, user=GERMAN_GM, guild=GERMAN)
    assert chosen.ephemeral and chosen.content == speak("sv_SE")._("Public cards now speak {language}.",
                                                                 language="Svenska")
    card = await hex_test(fake_discord, bot, user=AMERICAN, guild=GERMAN)
    assert card.embed["footer"]["text"].startswith(odds_start("sv_SE"))
    private = await hex_test(fake_discord, bot, user=AMERICAN, guild=GERMAN, private=True)
    assert private.embed["footer"]["text"].startswith("Odds: ")  # the player's own language still
    await fake_discord.slash("settings language", {"choice": "automatic"}, user=GERMAN_GM, guild=GERMAN)
    again = await hex_test(fake_discord, bot, user=AMERICAN, guild=GERMAN)
    assert again.embed["footer"]["text"].startswith(odds_start("de"))


async def test_only_a_game_master_sets_the_language(fake_discord, bot):
    with pytest.raises(CannotInvoke, match="needs permissions"):  # Discord shows /settings to game masters only
        await fake_discord.slash("settings language", {"choice": "fr"}, user=SWEDE, guild=GERMAN)
    card = await hex_test(fake_discord, bot, user=SWEDE, guild=GERMAN)
    assert card.embed["footer"]["text"].startswith(odds_start("de"))


async def test_a_pushed_card_keeps_the_language_it_was_first_shown_in(fake_discord, bot):
    dice = give_faces(bot, "YearZero", 2, 3, 6, 6)
    first = await fake_discord.slash("yz", {"attribute": 2}, user=AMERICAN, guild=GERMAN)
    german = speak("de")
    labels = [item["label"] for row in first.components for item in row["components"]]
    assert labels == [german._("Push"), german._("Keep")] and labels != ["Push", "Keep"]
    await fake_discord.slash("settings language", {"choice": "fr"}, user=GERMAN_GM, guild=GERMAN)
    await fake_discord.click(first, label=german._("Push"), user=AMERICAN)
    dice.finish()
    pushed = first.embed  # the message as the push left it
    assert pushed["footer"]["text"].startswith(odds_start("de"))
    assert pushed["title"].endswith(german.ngettext("{count} success", "{count} successes", 2))


@pytest.mark.parametrize("code", LANGUAGES)
async def test_every_card_the_bot_sends_fits_discord_in_every_language(fake_discord, bot, code):
    """The commands' cards as sent in a server of each language (the fake checks Discord's limits on each)."""
    server = SERVERS[code]
    for command, options, cog, faces, tone, _ in SENT:
        dice = give_faces(bot, cog, *faces)
        reply = await fake_discord.slash(command, options, user=GM, guild=server)
        dice.finish()
        assert reply.embed["title"].startswith(f"{tone.symbol} ") and reply.embed["color"] == tone.colour.value
        if "footer" in reply.embed and command != "test progress":
            assert reply.embed["footer"]["text"].startswith(odds_start(code)), (code, command)
    assert fake_discord.take_violations() == []


@pytest.mark.parametrize("code", LANGUAGES)
async def test_every_card_kind_fits_discord_in_every_language(fake_discord, bot, code):
    """Every kind of card (tests/cogs/cards.py) drawn in each language and sent through discord.py to the fake
    Discord, which refuses what the real one would (lengths included): same tone, outcome first, odds last."""
    channel = bot.get_partial_messageable(SERVERS[code].channels[0].id, guild_id=SERVERS[code].id)
    for kind in CARD_KINDS:
        card = kind.build(speak(code))
        english = kind.build()
        assert card.colour == english.colour and card.title.split(" ")[0] == english.title.split(" ")[0]
        assert len(card) <= 6000 and len(card.title) <= 256, kind.name
        await channel.send(embed=card)
        if english.footer.text:
            assert card.footer.text.startswith(odds_start(code)), kind.name
    assert fake_discord.take_violations() == []


async def test_public_help_speaks_the_server_and_keeps_it_as_its_asker_turns_the_pages(fake_discord, bot):
    german, swedish = speak("de"), speak("sv_SE")
    reply = await fake_discord.slash("help", {"public": True}, user=AMERICAN, guild=GERMAN)
    assert reply.embed["title"] == german._("rollkeeper: dice for the table") != "rollkeeper: dice for the table"
    (select,) = reply.components[0]["components"]
    assert select["custom_id"] == f"rk:help:{AMERICAN.id}:de"
    turned = await fake_discord.click(reply, select["custom_id"], values=["rulings"], user=AMERICAN)
    assert turned.type == 7 and reply.embed["title"] == german._("Where the rules are silent, I do this")
    copy = await fake_discord.click(reply, select["custom_id"], values=["hex"], user=SWEDE)
    assert copy.ephemeral and copy.embeds[0]["title"] == swedish._("HEX: d6 pools, 6s succeed")
    private = await fake_discord.slash("help", {}, user=SWEDE, guild=GERMAN)
    assert private.ephemeral and private.embed["title"] == swedish._("rollkeeper: dice for the table")
