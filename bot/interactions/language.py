"""Which language an answer speaks (issue 21).

- A private answer (a refusal, the log, /stats, a private roll) speaks the player's own Discord language:
  ``interaction.locale`` (`player_speech`).
- A public card speaks the server's: the language a game master chose with ``/settings language`` when there is
  one, else Discord's server locale (``interaction.guild_locale``), else English (`table_speech`).
- A card edited later (pushed, kept, ended, revealed) keeps the language it was first shown in: its record keeps
  the code (`speak` it again).
Discord's locales map onto rollkeeper's languages (es-419 speaks the Spanish of Spain, pt-PT the Portuguese of
Brazil); any other locale speaks English.
"""

from __future__ import annotations

from typing import Protocol

import discord

from rules.language import ENGLISH, Speech, speak

_DISCORD_LOCALES = {
    "sv-SE": "sv_SE", "de": "de", "fr": "fr", "es-ES": "es_ES", "es-419": "es_ES", "pt-BR": "pt_BR",
    "pt-PT": "pt_BR", "it": "it", "ru": "ru", "cs": "cs",
}
"""Discord's locale codes (``discord.Locale`` values) and the language each speaks; the rest speak English."""


def language_of(locale: discord.Locale | str | None) -> str:
    """The language code of LANGUAGES a Discord locale speaks."""
    if locale is None:
        return ENGLISH
    code = locale.value if isinstance(locale, discord.Locale) else str(locale)
    return _DISCORD_LOCALES.get(code, ENGLISH)


class ChosenLanguages(Protocol):
    """Where the servers' chosen languages are kept (``bot.db.languages``)."""

    async def get(self, guild_id: int) -> str | None: ...


def player_speech(interaction: discord.Interaction) -> Speech:
    """For an answer only the player sees: their own Discord language."""
    return speak(language_of(interaction.locale))


async def table_speech(interaction: discord.Interaction, chosen: ChosenLanguages) -> Speech:
    """For a card everyone at the table sees: the server's chosen language, else its Discord locale."""
    if interaction.guild_id is not None:
        language = await chosen.get(interaction.guild_id)
        if language is not None:
            return speak(language)
    return speak(language_of(interaction.guild_locale))


async def answer_speech(interaction: discord.Interaction, chosen: ChosenLanguages, *, private: bool) -> Speech:
    """The Speech of a roll's answer: the player's when private, the table's when public."""
    return player_speech(interaction) if private else await table_speech(interaction, chosen)
