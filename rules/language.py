"""The languages rollkeeper speaks, and `Speech`: one language's words and number formats, passed explicitly.

``speak("de")`` gives the German `Speech`: its gettext catalogue (``rules/locales/<code>/LC_MESSAGES``) and its
Babel locale. Every text a player reads is written as a template in English and goes through one of its
methods: ``speech._("Nothing rolled")``, ``speech.ngettext("{count} die", "{count} dice", n)``,
``speech.pgettext("hex roll kind", "test")``; the values are filled in after the translation, so a translator
moves them freely. Numbers go through ``number``, ``decimal`` and ``percent`` so that a German card writes "3,5"
and "83 %". There is no current language anywhere: whoever renders holds its Speech.

Texts declared before any language is known (option descriptions, choice labels, constant refusals) are marked
with `N_` or `NP_` for extraction and translated where they are shown. How the catalogues are extracted,
updated and compiled: ``python -m rules.catalogues`` (docs/translating.md).
"""

from __future__ import annotations

import gettext
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Protocol

from babel import Locale
from babel.numbers import format_decimal, format_percent

from rules.errors import Term, Terms

DOMAIN = "rollkeeper"
LOCALES = Path(__file__).resolve().parent / "locales"
ENGLISH = "en"
LANGUAGES = (ENGLISH, "sv_SE", "de", "fr", "es_ES", "pt_BR", "it", "ru", "cs")
"""Every language rollkeeper speaks, English (the templates' own) first."""
TRANSLATED = LANGUAGES[1:]


def N_(message: str) -> str:
    """Mark message for extraction where it is declared; it is translated where it is shown."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark message, in context, for extraction (a word with two meanings); shown with ``speech.pgettext``."""
    return message


class Translatable(Protocol):
    """An error a player can read: an English template and the values it is filled with."""

    template: str
    values: dict[str, Any]


class Speech:
    """One language: translated templates, plural forms and the locale's way of writing numbers."""

    def __init__(self, code: str, catalogue: gettext.NullTranslations) -> None:
        self.code = code
        self.locale = Locale.parse(code)
        self._catalogue = catalogue

    def __repr__(self) -> str:
        return f"Speech({self.code!r})"

    def _(self, message: str, **values: object) -> str:
        """message translated, then filled with values (as ``str.format``)."""
        return self._fill(self._catalogue.gettext(message), values)

    def ngettext(self, singular: str, plural: str, count: int, **values: object) -> str:
        """The form for count in this language's plural rules, filled with ``count`` and values."""
        return self._fill(self._catalogue.ngettext(singular, plural, count), {"count": self.number(count), **values})

    def pgettext(self, context: str, message: str, **values: object) -> str:
        """message in context (one English word, two meanings) translated, then filled."""
        return self._fill(self._catalogue.pgettext(context, message), values)

    def npgettext(self, context: str, singular: str, plural: str, count: int, **values: object) -> str:
        form = self._catalogue.npgettext(context, singular, plural, count)
        return self._fill(form, {"count": self.number(count), **values})

    def error(self, error: Translatable) -> str:
        """A rules or player error's message in this language: its template translated, Term values too."""
        return self.filled(error.template, error.values)

    def filled(self, template: str, values: dict[str, Any]) -> str:
        """template translated, then filled with values, those that are Terms translated too."""
        return self._(template, **{name: self._shown(value) for name, value in values.items()})

    def _shown(self, value: object) -> object:
        if isinstance(value, Term):
            return self._(value)
        if isinstance(value, Terms):
            return ", ".join(self._(term) for term in value)
        return value

    def number(self, value: int) -> str:
        """A whole number as the locale writes it."""
        return _decimal_text(self.locale, value, None)

    def decimal(self, value: Fraction | float, digits: int = 1) -> str:
        """value with that many decimals: "3.5" in English, "3,5" in German."""
        return _decimal_text(self.locale, float(value), "0." + "0" * digits)

    def percent(self, value: Fraction) -> str:
        """A chance in whole percent: "<1%" and ">99%" rather than a rounded 0% or 100% ("83 %" in French)."""
        if value <= 0:
            return self._whole_percent(0)
        if value >= 1:
            return self._whole_percent(100)
        shown = round(float(value) * 100)
        if shown == 0:
            return "<" + self._whole_percent(1)
        if shown == 100:
            return ">" + self._whole_percent(99)
        return self._whole_percent(shown)

    def _whole_percent(self, shown: int) -> str:
        return _percent_text(self.locale, shown)

    @staticmethod
    def _fill(template: str, values: dict[str, object]) -> str:
        return template.format(**values) if values else template


FORMATTED_KEPT = 4096
"""How many numbers written by Babel are remembered (each a short string): cards write the same few numbers, and
Babel takes some 15 µs for each; the least recently used are forgotten past this."""


@lru_cache(maxsize=FORMATTED_KEPT)
def _decimal_text(locale: Locale, value: float, pattern: str | None) -> str:
    return format_decimal(value, format=pattern, locale=locale)


@lru_cache(maxsize=FORMATTED_KEPT)
def _percent_text(locale: Locale, whole: int) -> str:
    return format_percent(whole / 100, locale=locale)


def language_named(text: str) -> str | None:
    """The code of LANGUAGES that text names, by its code or its language alone ("sv", "sv-SE" and "sv_SE" all
    name sv_SE); None when it names none."""
    wanted = text.strip().replace("-", "_").lower()
    for code in LANGUAGES:
        if wanted in (code.lower(), code.split("_")[0].lower()):
            return code
    return None


def speak(code: str | None) -> Speech:
    """The Speech of a language code of LANGUAGES; any other code (or None) speaks English."""
    return _speech(code if code in TRANSLATED else ENGLISH)


@cache
def _speech(code: str) -> Speech:
    if code == ENGLISH:
        return Speech(ENGLISH, gettext.NullTranslations())
    return Speech(code, gettext.translation(DOMAIN, LOCALES, languages=[code]))
