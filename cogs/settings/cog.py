"""``/settings language``: the language a server's public cards speak, chosen by a game master (Manage Server).

The choice is kept in the store (``bot.db.languages``); "automatic" forgets it, and the cards then follow Discord's
server locale (bot/interactions/language.py). Private answers always speak each player's own Discord language.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions.common_options import describe
from bot.interactions.language import player_speech
from bot.interactions.places import server_contexts, server_install, server_of
from bot.interactions.rollkeeper import Rollkeeper
from rules.language import LANGUAGES, N_, speak

AUTOMATIC = "automatic"
ENDONYMS = {
    "en": "English", "sv_SE": "Svenska", "de": "Deutsch", "fr": "Français", "es_ES": "Español (España)",
    "pt_BR": "Português (Brasil)", "it": "Italiano", "ru": "Русский", "cs": "Čeština",
}
"""Each language by its own name: a player finds theirs whatever language the picker speaks."""

LANGUAGE_CHOICES = [
    # Translators: a choice label (at most 100 characters): follow the server's language as Discord sets it.
    app_commands.Choice(name=N_("Automatic: the server's Discord language"), value=AUTOMATIC),
    *(app_commands.Choice(name=app_commands.locale_str(ENDONYMS[code], endonym=True), value=code)
      for code in LANGUAGES),
]


class Settings(commands.Cog):
    """Settings of a server, for its game masters."""

    settings_group = app_commands.Group(
        name="settings", description=N_("Game masters: this server's settings for rollkeeper"), guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
        allowed_contexts=server_contexts(), allowed_installs=server_install(),
    )

    def __init__(self, bot: Rollkeeper) -> None:
        self.bot = bot

    @settings_group.command(name="language", description=N_("The language of this server's public cards"))
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.choices(choice=LANGUAGE_CHOICES)
    @describe(choice=N_("A language, or automatic: the server's Discord language"))
    async def language(self, interaction: discord.Interaction, choice: str) -> None:
        guild_id = server_of(interaction)
        chosen = None if choice == AUTOMATIC else choice
        await self.bot.db.languages.set(guild_id, chosen)
        if chosen is None:
            text = player_speech(interaction)._("Public cards now speak this server's Discord language.")
        else:
            # Translators: said in the language just chosen; {language} is its own name (Deutsch, Svenska, ...).
            text = speak(chosen)._("Public cards now speak {language}.", language=ENDONYMS[chosen])
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: Rollkeeper) -> None:
    await bot.add_cog(Settings(bot))
