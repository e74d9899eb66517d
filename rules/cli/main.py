"""``python -m rules``: roll, read and compute odds from the command line, without Discord.

Each system registers its own sub-commands (``rules/cli/<system>.py`` has ``register``); this module only
builds the parser, picks the dice source, and prints one JSON object (``--json``) or a readable summary.
Exit status: 0 for an answer, 1 when the rules refuse the roll (an impossible pool, wrong faces: the message
is on stderr), 2 for a command line that does not parse (argparse's usage error).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from rules.cli import heroic, hex, sevenkingdoms, yearzero
from rules.cli.output import CliOutput
from rules.dice import DiceSource, SystemDice, rolled_with
from rules.errors import RulesError
from rules.language import ENGLISH, LANGUAGES, N_, Speech, language_named, speak

SYSTEMS = (hex, yearzero, heroic, sevenkingdoms)
"""Each system's sub-commands, in the order ``--help`` lists them."""


EXIT_REFUSED = 1
EXIT_USAGE = 2  # argparse's own
EXIT_STATUS = N_("exit status: 0 answered, 1 the rules refused it (the reason on stderr), 2 a usage error")


def _language(text: str) -> str:
    code = language_named(text)
    if code is None:
        raise argparse.ArgumentTypeError(f"{text!r} is none of {', '.join(LANGUAGES)}")
    return code


def _language_asked(argv: Sequence[str] | None) -> str:
    """The --lang of the command line, read before the rest (the help itself speaks it): English if none or
    none rollkeeper speaks (the full parse then says what is wrong)."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang", default=ENGLISH)
    asked, _ = early.parse_known_args(argv)
    return language_named(asked.lang) or ENGLISH


def _common_options(speech: Speech, *, faces: bool) -> argparse.ArgumentParser:
    """--json and --lang everywhere, and --faces for the commands that roll (odds roll nothing)."""
    _ = speech._
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help=_("print one JSON object instead of a summary"))
    common.add_argument("--lang", type=_language, default=ENGLISH, metavar="CODE",
                        help=_("the summary's language: {codes} (or sv, es, pt; the JSON is the same in every "
                               "language)", codes=", ".join(LANGUAGES)))
    if not faces:
        return common
    common.add_argument(
        "--faces",
        metavar="6,1,4",
        help=_("read a roll made with physical dice: the faces, in the order the command's help gives"),
    )
    return common


def build_parser(speech: Speech) -> argparse.ArgumentParser:
    """The command line, its help in speech's language (argparse's own words, such as "usage:", stay English)."""
    _ = speech._
    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description=_("Roll and read HEX, Year Zero, Heroic Rolls and Seven Kingdoms dice, with exact odds."),
        epilog=_(EXIT_STATUS),
    )
    rolling, odds_only = _common_options(speech, faces=True), _common_options(speech, faces=False)
    top = parser.add_subparsers(dest="system", required=True, metavar="{hex,yz,heroic,sk,odds}")
    odds_parser = top.add_parser("odds", help=_("exact odds of a roll, without rolling"))
    odds_sub = odds_parser.add_subparsers(dest="odds_system", required=True, metavar="{hex,yz,heroic,sk}")
    for module in SYSTEMS:
        module.register(top, [rolling], speech, odds=False)
        module.register(odds_sub, [odds_only], speech, odds=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(speak(_language_asked(argv)))
    args = parser.parse_args(argv)
    speech = speak(args.lang)

    def answer(dice: DiceSource) -> CliOutput:
        return args.handler(args, dice, speech)

    try:
        output = rolled_with(getattr(args, "faces", None) or None, SystemDice(), answer)
    except RulesError as refusal:
        # Translators: the command line's refusal; {reason} says why.
        print(speech._("error: {reason}", reason=speech.error(refusal)), file=sys.stderr)
        return EXIT_REFUSED
    if args.json:
        print(json.dumps(output.data, indent=2, sort_keys=False))
    else:
        print(output.text)
    return 0
