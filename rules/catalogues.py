"""``python -m rules.catalogues extract|update|compile``: the gettext catalogues, kept with Babel.

- ``extract`` reads every marked text of rules/, bot/ and cogs/ into the template ``rules/locales/rollkeeper.pot``;
- ``update`` merges the template into each language's ``rules/locales/<code>/LC_MESSAGES/rollkeeper.po``
  (creating a missing one);
- ``compile`` writes each ``.po``'s ``.mo`` beside it (tests check they are current).
A translator edits only a ``.po`` (docs/translating.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from rules.language import DOMAIN, LOCALES, TRANSLATED

ROOT = LOCALES.parents[1]
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
KEYWORDS = (
    "_", "ngettext:1,2", "pgettext:1c,2", "npgettext:1c,2,3", "N_", "NP_:1c,2",
    # errors a player reads carry their English template as the first argument
    "InvalidInput", "CannotAttempt", "CannotPush", "FacesError", "RulesError", "PlayerError", "InvalidValue",
    # words the rules name in their errors (translated as Term values)
    "Term", "check_range", "pool_size:2", "check_willpower:2", "check_whole", "check_count",
    # command descriptions and choice labels filled with values (bot/interactions/common_options.py)
    "picker_label",
)
SOURCES = ("rules", "bot", "cogs")


def catalogue(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled(code: str) -> bytes:
    """The .mo of a language's .po, as `compile` writes it (tests compare it with the file kept)."""
    with catalogue(code).open("rb") as source:
        messages = read_po(source, locale=code, domain=DOMAIN)
    out = BytesIO()
    write_mo(out, messages, use_fuzzy=False)
    return out.getvalue()


def _babel(*arguments: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *arguments])


def extract(template: Path = TEMPLATE) -> None:
    """Write the template of every marked text (to template: tests extract to a temporary file)."""
    os.chdir(ROOT)  # the template names files relative to the project
    keywords = [argument for keyword in KEYWORDS for argument in ("-k", keyword)]
    _babel(
        "extract", "--no-default-keywords", *keywords, "-c", "Translators:", "--sort-by-file", "--no-wrap",
        "--project", "rollkeeper", "--copyright-holder", "the rollkeeper authors",
        "--msgid-bugs-address", "https://github.com/rollkeeper/rollkeeper/issues",
        "-o", str(template), *SOURCES,
    )


def update() -> None:
    for code in TRANSLATED:
        command = "update" if catalogue(code).exists() else "init"
        _babel(command, "-D", DOMAIN, "-i", str(TEMPLATE), "-d", str(LOCALES), "-l", code,
               *(("--no-wrap", "--ignore-obsolete") if command == "update" else ("--no-wrap",)))


def compile_all() -> None:
    for code in TRANSLATED:
        if catalogue(code).exists():
            catalogue(code).with_suffix(".mo").write_bytes(compiled(code))


COMMANDS = {"extract": extract, "update": update, "compile": compile_all}


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) != 1 or arguments[0] not in COMMANDS:
        print("usage: python -m rules.catalogues extract|update|compile", file=sys.stderr)
        return 2
    COMMANDS[arguments[0]]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
