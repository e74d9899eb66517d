"""``python -m rules``: roll, read and compute odds from the command line, without Discord.

Each system registers its own sub-commands (``rules/cli/<system>.py`` has ``register``); this module only
builds the parser, picks the dice source, and prints one JSON object (``--json``) or a readable summary.
Bad input prints the rules error's message on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.dice import DiceSource, FixedDice, SystemDice, parse_faces
from rules.errors import RulesError


@dataclass(frozen=True)
class CliOutput:
    """What a sub-command answers: the JSON object and the human summary of the same thing."""

    data: dict
    text: str


Handler = Callable[[argparse.Namespace, DiceSource], CliOutput]

SYSTEMS = ("hex", "yearzero", "heroic", "sevenkingdoms")


def _common_options() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print one JSON object instead of a summary")
    common.add_argument(
        "--faces",
        metavar="6,1,4",
        help="read a roll made with physical dice: the faces, in the order the command's help gives",
    )
    return common


def build_parser() -> argparse.ArgumentParser:
    from importlib import import_module

    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description="Roll and read HEX, Year Zero, Heroic Rolls and Seven Kingdoms dice, with exact odds.",
    )
    common = _common_options()
    top = parser.add_subparsers(dest="system", required=True, metavar="{hex,yz,heroic,sk,odds}")
    odds_parser = top.add_parser("odds", help="exact odds of a roll, without rolling")
    odds_sub = odds_parser.add_subparsers(dest="odds_system", required=True, metavar="{hex,yz,heroic,sk}")
    for name in SYSTEMS:
        module = import_module(f".{name}", __name__)
        module.register(top, [common], odds=False)
        module.register(odds_sub, [common], odds=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        dice: DiceSource = parse_faces(args.faces) if getattr(args, "faces", None) else SystemDice()
        output: CliOutput = args.handler(args, dice)
        if isinstance(dice, FixedDice):
            dice.finish()
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(output.data, indent=2, sort_keys=False))
    else:
        print(output.text)
    return 0
