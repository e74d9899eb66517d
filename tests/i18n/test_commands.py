"""Discord's command picker in every language: the synced definitions carry description and choice localizations
for all eight languages (Latin American Spanish speaking Spain's), never translated names, within Discord's 100
characters (the fake Discord checks the bodies against Discord's OpenAPI description and its limits)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app.sync import command_definitions_hash
from bot.app.translator import CatalogueTranslator

LOCALES = {"sv-SE", "de", "fr", "es-ES", "es-419", "pt-BR", "it", "ru", "cs"}
SUBCOMMAND, GROUP = 1, 2


def described(command: dict, path: str = ""):
    """(path, item) for the command, each option and sub-command, through its groups."""
    path = f"{path} {command['name']}".strip()
    yield path, command
    for option in command.get("options") or []:
        if option["type"] in (SUBCOMMAND, GROUP):
            yield from described(option, path)
        else:
            yield f"{path} {option['name']}", option


async def test_every_description_and_choice_is_localized_and_no_name_is(fake_discord, start_bot):
    await start_bot()
    commands = [command for command in fake_discord.commands() if command.get("type", 1) == 1]
    assert {command["name"] for command in commands} >= {"hex", "yz", "push", "heroic", "test", "settings", "help"}
    walked = choices = 0
    for command in commands:
        for path, item in described(command):
            walked += 1
            localized = item.get("description_localizations") or {}
            assert set(localized) == LOCALES, path
            assert all(1 <= len(text) <= 100 for text in localized.values()), path
            assert not item.get("name_localizations"), path  # a pasted command works in every language
            for choice in item.get("choices") or []:
                choices += 1
                names = choice.get("name_localizations") or {}
                assert set(names) == LOCALES and all(1 <= len(text) <= 100 for text in names.values()), (path, choice)
    assert walked > 100 and choices > 20
    german = [(path, item["description"]) for command in commands for path, item in described(command)
              if item["description_localizations"]["de"] == item["description"]]
    assert german == []  # every description is in the catalogue, and translated
    hex_test = next(item for path, item in described(next(c for c in commands if c["name"] == "hex"))
                    if path == "hex test")
    assert hex_test["description_localizations"]["de"] != hex_test["description"]
    assert hex_test["description_localizations"]["es-419"] == hex_test["description_localizations"]["es-ES"]


async def test_the_sync_sends_what_the_hash_is_taken_of(fake_discord, start_bot):
    """DEP: the hash reads Command.get_translated_payload, which CommandTree.sync sends (discord.py 2.7)."""
    bot = await start_bot()
    translator = bot.tree.translator
    assert isinstance(translator, CatalogueTranslator)
    sent = {command["name"]: command for command in fake_discord.commands()}
    for command in bot.tree.get_commands():
        payload = await command.get_translated_payload(bot.tree, translator)
        stored = sent[payload["name"]]
        given = {key: value for key, value in payload.items() if value is not None}  # Discord fills in defaults
        assert {key: stored[key] for key in given if key != "default_member_permissions"} == {
            key: value for key, value in given.items() if key != "default_member_permissions"  # kept as a string
        }, payload["name"]


async def test_a_changed_translation_changes_the_commands_hash():
    class Shouting(app_commands.Translator):
        async def translate(self, string, locale, context):
            return string.message.upper() if locale is discord.Locale.german else None

    @app_commands.command(name="roll", description="Roll some dice")
    async def roll(interaction: discord.Interaction) -> None: ...

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(roll)
    plain = await command_definitions_hash(tree)
    await tree.set_translator(CatalogueTranslator())
    translated = await command_definitions_hash(tree)
    await tree.set_translator(Shouting())
    assert len({plain, translated, await command_definitions_hash(tree)}) == 3
