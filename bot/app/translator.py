"""Discord's command picker in the players' languages: a discord.py ``app_commands.Translator`` over the gettext
catalogues (rules/locales).

Descriptions and choice labels are translated; command, group and option names never are (a command pasted from
a German player's message must work for a Swedish one), so Discord gets ``description_localizations`` and choice
``name_localizations`` only. A label made of a template and values (``picker_label``) is translated as its template,
then filled; a language's own name (``endonym`` in its extras) is the same in every locale.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.interactions.language import language_of
from rules.language import ENGLISH, speak

_Location = app_commands.TranslationContextLocation
TRANSLATED = (_Location.command_description, _Location.group_description, _Location.parameter_description,
              _Location.choice_name)
"""What the picker shows in the player's language; names (commands, groups, options) stay English."""


class CatalogueTranslator(app_commands.Translator):
    """Descriptions and choice labels from the catalogue of the locale's language; None (Discord shows the English
    text) for names, for English and for locales rollkeeper does not speak."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        if context.location not in TRANSLATED:
            return None
        language = language_of(locale)
        if language == ENGLISH:
            return None
        if string.extras.get("endonym"):
            return string.message
        speech = speak(language)
        template = string.extras.get("template")
        if template is not None:
            return speech.filled(template, string.extras.get("values", {}))
        return speech._(string.message)
