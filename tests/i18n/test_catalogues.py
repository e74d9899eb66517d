"""The catalogues (rules/locales): the template current with the code, every message translated in every language
with its placeholders and plural forms, nothing left in English but proper nouns and symbols, the compiled .mo
files current, numbers written the locale's way."""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from rules import catalogues, language
from rules.language import DOMAIN, LANGUAGES, TRANSLATED, language_named, speak

FIELD = re.compile(r"\{[^{}]*\}")

SAME_IN = {
    # Proper nouns, symbols and words each language writes as English does (the translators' lists).
    "de": {"Administrator", "HEX", "Year Zero", "Heroic Rolls", "Seven Kingdoms", "id", "system", "Routine",
           "Year Zero · {pool}", "Year Zero: {pool}"},
    "es_ES": {"HEX", "Year Zero", "Year Zero · {pool}", "Year Zero: {pool}", "Control", "control", "base", "no", "id",
              "extras", "error: {reason}", "Marginal", "Formidable", "D{sides}"},
    "fr": {"HEX", "Year Zero", "Seven Kingdoms", "Year Zero · {pool}", "{count} six", "id", "Base", "base", "bonus",
           "test", "Complications", "Simple", "Endurance", "Torches", "D{sides}"},
    "pt_BR": {"HEX", "Year Zero", "id", "extras", "Year Zero · {pool}", "HEX {kind}: {input}", "base", "Marginal",
              "Year Zero: {pool}", "D{sides}"},
    "sv_SE": {"HEX", "Year Zero", "Heroic Rolls", "Seven Kingdoms", "id", "Year Zero · {pool}", "HEX {kind}: {input}",
              "bonus", "Year Zero: {pool}"},
    "cs": {"HEX", "Year Zero", "Heroic Rolls", "Seven Kingdoms", "id", "bonus", "Year Zero · {pool}",
           "Year Zero: {pool}", "HEX {kind}: {input}", "{name} ({number})"},
    "it": {"HEX", "Year Zero", "Heroic Rolls", "Seven Kingdoms", "id", "D{sides}", "Base", "base", "bonus", "no",
           "Year Zero · {pool}", "Year Zero: {pool}", "HEX {kind}: {input}", "{name} ({number})", "{count} base"},
    "ru": {"HEX", "Year Zero", "Heroic Rolls", "Seven Kingdoms", "id", "D{sides}", "Year Zero · {pool}",
           "{name} ({number})", "Year Zero: {pool}"},
}
"""Per language, the messages allowed to read as in English; a message with no letters outside its placeholders
(``{name} ({number})``) is allowed everywhere."""


def load(path: Path, code: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=code, domain=DOMAIN)


def messages(catalog: Catalog) -> list[Message]:
    return [message for message in catalog if message.id]


def key(message: Message) -> tuple[str | None, str]:
    return message.context, message.id if isinstance(message.id, str) else message.id[0]


def forms(message: Message) -> tuple[str, ...]:
    return (message.string,) if isinstance(message.string, str) else tuple(message.string)


def fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


def test_the_template_holds_every_marked_text_as_the_code_has_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # extract works from the project's root, then comes back here
    fresh = tmp_path / "fresh.pot"
    catalogues.extract(fresh)
    assert {key(m) for m in messages(load(fresh))} == {key(m) for m in messages(load(catalogues.TEMPLATE))}


def marked_in_code() -> set[tuple[str | None, str]]:
    """(context, message) of every literal text the code hands a translation keyword, read from its syntax tree:
    also inside f-strings, where Babel's extractor does not look."""
    argument_of: dict[str, tuple[int | None, int]] = {}  # keyword -> (context position, message position)
    for keyword in catalogues.KEYWORDS:
        name, _, spec = keyword.partition(":")
        places = spec.split(",") if spec else ["1"]
        context = next((int(place[:-1]) - 1 for place in places if place.endswith("c")), None)
        argument_of[name] = (context, int(next(place for place in places if not place.endswith("c"))) - 1)
    marked = set()
    root = Path(catalogues.__file__).resolve().parent.parent
    for folder in catalogues.SOURCES:
        for path in (root / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                if name not in argument_of:
                    continue
                context_at, message_at = argument_of[name]
                literal = [isinstance(arg, ast.Constant) and isinstance(arg.value, str) for arg in node.args]
                if message_at < len(node.args) and literal[message_at]:
                    context = node.args[context_at].value if context_at is not None and literal[context_at] else None
                    marked.add((context, node.args[message_at].value))  # type: ignore[attr-defined]
    return marked


def test_no_marked_text_escapes_the_template():
    """A text marked inside an f-string (`f"{speech._('Luck')}"`) is never extracted, so it would stay English in
    every language while the catalogues look complete."""
    template = {key(m) for m in messages(load(catalogues.TEMPLATE))}
    assert sorted(marked_in_code() - template, key=str) == []


def test_every_language_has_its_catalogue():
    assert LANGUAGES == ("en", "sv_SE", "de", "fr", "es_ES", "pt_BR", "it", "ru", "cs")
    missing = [code for code in TRANSLATED if not catalogues.catalogue(code).exists()]
    assert missing == []


@pytest.fixture(params=TRANSLATED)
def translated(request) -> tuple[str, Catalog]:
    code = request.param
    return code, load(catalogues.catalogue(code), code)


def test_every_message_is_translated(translated):
    code, catalog = translated
    template = {key(m) for m in messages(load(catalogues.TEMPLATE))}
    assert {key(m) for m in messages(catalog)} == template
    untranslated = [m.id for m in messages(catalog) if not all(forms(m)) or m.fuzzy]
    assert untranslated == []


def test_placeholders_are_the_templates(translated):
    """A translation keeps every {placeholder} of its message, spelled alike (``{value!r}`` included); a plural's
    forms may leave out {count} only where the English singular does ("The last hour")."""
    code, catalog = translated
    wrong = []
    for message in messages(catalog):
        if isinstance(message.id, str):
            if fields(message.string) != fields(message.id):
                wrong.append((message.id, message.string))
            continue
        singular, plural = message.id
        allowed = fields(singular) | fields(plural)
        if any(not fields(form) <= allowed for form in forms(message)) or fields(forms(message)[-1]) != fields(plural):
            wrong.append((message.id, message.string))
    assert wrong == []


def test_plural_forms_follow_each_language(translated):
    code, catalog = translated
    counts = {len(forms(m)) for m in messages(catalog) if not isinstance(m.id, str)}
    assert counts == {catalog.num_plurals}
    speech = speak(code)
    one, two = speech.ngettext("{count} die", "{count} dice", 1), speech.ngettext("{count} die", "{count} dice", 2)
    assert one != two and "1" in one and "2" in two and "die" not in one + two, (one, two)


def test_nothing_is_left_in_english_but_names_and_symbols(translated):
    code, catalog = translated
    same = [m.id for m in messages(catalog) if isinstance(m.id, str) and m.string == m.id
            and re.search(r"[^\W\d_]", FIELD.sub("", m.id)) and m.id not in SAME_IN[code]]
    assert same == []


def test_the_compiled_catalogues_are_current(translated):
    code, _ = translated
    assert catalogues.catalogue(code).with_suffix(".mo").read_bytes() == catalogues.compiled(code)


def test_each_language_says_the_words_of_its_catalogue():
    for code in TRANSLATED:
        assert speak(code)._("Nothing rolled") != "Nothing rolled", code
        assert speak(code).pgettext("hex roll kind", "test") != "test", code
    assert speak("en")._("Nothing rolled") == "Nothing rolled"
    assert speak("tlh") is speak("en") and speak(None) is speak("en")  # an unknown language speaks English


def test_numbers_are_written_the_locales_way():
    assert speak("en").decimal(Fraction(7, 2)) == "3.5" and speak("de").decimal(Fraction(7, 2)) == "3,5"
    assert speak("en").percent(Fraction(83, 100)) == "83%"
    assert speak("fr").percent(Fraction(83, 100)) == "83\u00a0%" == speak("sv_SE").percent(Fraction(83, 100))
    assert speak("de").percent(Fraction(1, 1000)) == "<1\u00a0%" and speak("en").percent(Fraction(999, 1000)) == ">99%"


def test_numbers_remembered_are_written_as_babel_writes_them_and_only_so_many_are_kept():
    values = [Fraction(n, 7) for n in range(-30, 200)]
    for code in LANGUAGES:
        speech = speak(code)
        for value in values:  # twice: the second time from what was remembered
            whole = int(value)
            for _ in range(2):
                assert speech.number(whole) == format_decimal(whole, locale=speech.locale)
                assert speech.decimal(value, 2) == format_decimal(float(value), format="0.00", locale=speech.locale)
        assert speech.percent(Fraction(41, 100)) == format_percent(0.41, locale=speech.locale)
    for remembered in (language._decimal_text, language._percent_text):
        assert remembered.cache_info().maxsize == language.FORMATTED_KEPT
    language._decimal_text.cache_clear()
    for n in range(language.FORMATTED_KEPT + 100):
        speak("de").number(n)
    assert language._decimal_text.cache_info().currsize == language.FORMATTED_KEPT


def test_a_language_is_named_by_its_code_or_its_language():
    named = ("sv", "sv-SE", "SV_se", "de", "es", "pt-BR", "en", "it", "ru", "cs")
    assert [language_named(text) for text in named] == [
        "sv_SE", "sv_SE", "sv_SE", "de", "es_ES", "pt_BR", "en", "it", "ru", "cs"
    ]
    assert [language_named(text) for text in ("ja", "tlh")] == [None, None]
