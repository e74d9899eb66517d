"""``python -m rules hex test|contest|cast|plain`` and ``python -m rules odds hex ...``.

Builds the pool from the AEGIS options, rolls (or reads ``--faces``), and answers with every die, the full
reading and the exact odds of the same roll.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from functools import partial

from rules.cli.output import CliOutput
from rules.dice import DiceSource, Die, Role
from rules.hex.odds import (
    HexCastOdds,
    HexContestOdds,
    HexTestOdds,
    odds_for_cast,
    odds_for_contest,
    odds_for_plain,
    odds_for_test,
)
from rules.hex.pool import HexPool
from rules.hex.roll import Hazard, HexPlain, HexResult, HexSide, Outcome, roll_cast, roll_contest, roll_plain, roll_test
from rules.language import N_, NP_, Speech
from rules.odds_text import hex_line

FACES = {
    "test": N_("--faces order: the Hazard Dice first (two, or all of a pool of one or two), then the rest "
    "of the pool."),
    "contest": N_("--faces order: the acting pool (its Hazard Dice first, then the rest), then the opposing "
    "pool likewise."),
    "cast": N_("--faces order: the Affinity die, then the Control dice (min(Risk, pool - 1); a one-die cast has "
    "one Control die and no Affinity die), then the rest of the pool; then, with --opposing, the opposing "
    "pool (Hazard Dice first)."),
    "plain": N_("--faces order: the dice in any order (no Hazard Dice)."),
}
# Translators: what each HEX sub-command of the command line does ("HEX test: roll and read an ...").
SUMMARY = {
    "test": N_("an uncontested Test (Difficulty 1)"),
    "contest": N_("a Contest against an opposing pool"),
    "cast": N_("a magical casting at a Risk, resisted or not"),
    "plain": N_("a no-Mishap roll: Initiative, Hit Location, Armor"),
}
POOL_HELP = {
    "attribute": N_("Attribute, 0-12"),
    "skill": N_("Skill, 0-12"),
    "specialty": N_("Specialty, 0 to the Skill"),
    "environment": N_("Environment dice, 0-3"),
    "gear": N_("Gear dice, 0-3"),
    "ingenuity": N_("Ingenuity dice, 0-3"),
    "complications": N_("complications, 0-20: each removes one die"),
}
POOL_OPTIONS = tuple(POOL_HELP)


def register(subparsers: argparse._SubParsersAction, parents: Sequence[argparse.ArgumentParser], speech: Speech, *,
             odds: bool = False) -> None:
    """Add ``hex`` and its four kinds under the given sub-parsers (rolls, or odds only), their help in speech's
    language."""
    _ = speech._
    if odds:
        hex_parser = subparsers.add_parser("hex", help=_("HEX: exact odds of a d6 success pool with Hazard Dice"))
    else:
        hex_parser = subparsers.add_parser("hex", help=_("HEX: roll and read a d6 success pool with Hazard Dice"))
    kinds = hex_parser.add_subparsers(dest="hex_kind", required=True, metavar="{test,contest,cast,plain}")
    for kind, summary in SUMMARY.items():
        if odds:
            text = _("HEX {kind}: exact odds of {summary}.", kind=kind, summary=_(summary))
        else:
            text = _("HEX {kind}: roll and read {summary}.", kind=kind, summary=_(summary)) + " " + _(FACES[kind])
        parser = kinds.add_parser(kind, parents=list(parents), help=text, description=text)
        _add_options(parser, kind, speech)
        parser.set_defaults(handler=partial(_handle, kind, odds))


def _add_options(parser: argparse.ArgumentParser, kind: str, speech: Speech) -> None:
    _ = speech._
    if kind == "plain":
        parser.add_argument("--dice", type=int, required=True, metavar="N", help=_("dice to roll (1-45)"))
        return
    for name in POOL_OPTIONS:
        parser.add_argument(f"--{name}", type=int, default=0, metavar="N", help=_(POOL_HELP[name]))
    if kind == "cast":
        parser.add_argument("--risk", type=int, default=0, metavar="N", help=_("casting Risk, 0-5"))
    if kind in ("contest", "cast"):
        required = kind == "contest"
        parser.add_argument("--opposing", type=int, required=required, metavar="N",
                            help=_("the opposing pool's dice count (0 or less: nullified)"))
    if kind != "contest":
        parser.add_argument("--required", action="store_true", help=_("a required Test (fails if nullified)"))
    parser.add_argument("--advancement", action="store_true", help=_("spend an Advancement: automatic success"))
    parser.add_argument("--dv", type=int, metavar="N", help=_("Damage Value: damage = DV + MoS on success"))


def _input(args: argparse.Namespace, kind: str) -> tuple[HexPool | None, dict]:
    if kind == "plain":
        return None, {"dice": args.dice}
    pool = HexPool(**{name: getattr(args, name) for name in POOL_OPTIONS})
    used = {name: getattr(args, name) for name in ("risk", "opposing", "required", "advancement", "dv")
            if hasattr(args, name)}
    return pool, {"pool": pool.as_dict()} | used


def _roll_and_odds(kind: str, pool: HexPool | None, args: argparse.Namespace, dice: DiceSource | None):
    """(the result, or None when dice is None, and the odds) of the kind asked for."""
    if kind == "plain":
        return (None if dice is None else roll_plain(args.dice, dice)), odds_for_plain(args.dice)
    if pool is None:
        raise ValueError(f"a HEX {kind} needs a pool")  # only plain rolls go without one (_input)
    flags: dict = {"advancement": args.advancement}
    odds: HexTestOdds | HexContestOdds | HexCastOdds
    if kind == "test":
        flags["required"] = args.required
        roll, odds = partial(roll_test, pool), odds_for_test(pool, **flags)
    elif kind == "contest":
        roll = partial(roll_contest, pool, args.opposing)
        odds = odds_for_contest(pool, args.opposing, **flags)
    else:
        flags |= {"required": args.required, "opposing": args.opposing}
        roll, odds = partial(roll_cast, pool, args.risk), odds_for_cast(pool, args.risk, **flags)
    return (None if dice is None else roll(dice, dv=args.dv, **flags)), odds


def _handle(kind: str, odds_only: bool, args: argparse.Namespace, dice: DiceSource, speech: Speech) -> CliOutput:
    pool, used = _input(args, kind)
    result, odds = _roll_and_odds(kind, pool, args, None if odds_only else dice)
    data: dict = {"system": "hex", "kind": kind, "input": used, "dice": [], "reading": {}}  # odds roll nothing
    kind_said = speech.pgettext("hex roll kind", KIND_NAMES[kind])
    lines = [speech._("HEX {kind}: {input}", kind=kind_said, input=_describe_input(kind, used, speech))]
    if result is not None:
        data |= {"dice": [die.as_dict() for die in result.dice], "reading": result.as_dict()}
        lines += _describe_result(result, speech)
    data["odds"] = odds.as_dict()
    lines.append(hex_line(odds, speech))
    return CliOutput(data, "\n".join(lines))


# The readable summary ---------------------------------------------------------------------------------------

KIND_NAMES = {
    "test": NP_("hex roll kind", "test"), "contest": NP_("hex roll kind", "contest"),
    "cast": NP_("hex roll kind", "cast"), "plain": NP_("hex roll kind", "plain"),
}
INPUT_NAMES = {
    # Translators: the HEX pool's parts and options, as the command line lists them ("pool 5 (Attribute 3, ...)").
    "attribute": N_("Attribute"), "skill": N_("Skill"), "specialty": N_("Specialty"),
    "environment": N_("Environment"), "gear": N_("Gear"), "ingenuity": N_("Ingenuity"),
    "complications": N_("Complications"), "risk": N_("risk"), "opposing": N_("opposing"), "dv": N_("dv"),
    "required": N_("required"), "advancement": N_("advancement"),
}
ROLE_NAMES = {
    # Translators: the HEX dice groups on the command line ("hazard: 6 1 | base: 4 2").
    Role.BASE: N_("base"), Role.HAZARD: N_("hazard"), Role.AFFINITY: N_("affinity"), Role.CONTROL: N_("control"),
}
HAZARD_NAMES = {
    # Translators: what a HEX side's Hazard Dice brought, in capitals on the command line.
    Hazard.MISHAP: N_("MISHAP"), Hazard.LOSS_OF_CONTROL: N_("LOSS OF CONTROL"), Hazard.FIZZLE: N_("FIZZLE"),
}


def _describe_input(kind: str, used: dict, speech: Speech) -> str:
    if kind == "plain":
        return speech.ngettext("{count} die", "{count} dice", used["dice"])
    pool = used["pool"]
    parts = ", ".join(f"{speech._(INPUT_NAMES[name])} {pool[name]}" for name in POOL_OPTIONS if pool[name])
    text = speech._("pool {size}", size=pool["size"]) + (f" ({parts})" if parts else "")
    extras = [f"{speech._(INPUT_NAMES[name])} {used[name]}" for name in ("risk", "opposing", "dv")
              if used.get(name) is not None]
    extras += [speech._(INPUT_NAMES[name]) for name in ("required", "advancement") if used.get(name)]
    return text + ("; " + ", ".join(extras) if extras else "")


def _describe_dice(dice: Sequence[Die], speech: Speech) -> str:
    if not dice:
        return speech._("nothing rolled")
    groups: dict[Role, list[str]] = {}
    for die in dice:
        groups.setdefault(die.role, []).append(str(die.face))
    return " | ".join(f"{speech._(ROLE_NAMES.get(role, role.value))}: {' '.join(faces)}"
                      for role, faces in groups.items())


def _describe_side(name: str, side: HexSide, speech: Speech) -> str:
    hazard = "" if side.hazard is Hazard.NONE else f", {speech._(HAZARD_NAMES[side.hazard])}"
    nullified = " " + speech._("(pool {size}: nullified)", size=side.size) if side.nullified else ""
    return f"{name}: {_describe_dice(side.dice, speech)}{nullified} -> {_successes(side.successes, speech)}{hazard}"


def _successes(count: int, speech: Speech) -> str:
    return speech.ngettext("{count} success", "{count} successes", count)


def _describe_result(result: HexResult | HexPlain, speech: Speech) -> list[str]:
    if isinstance(result, HexPlain):
        return [speech._("Dice: {dice} -> {successes}", dice=_describe_dice(result.dice, speech),
                         successes=_successes(result.successes, speech))]
    if result.automatic:
        lines = [speech._("Advancement spent: automatic success, nothing rolled")]
    else:
        # Translators: the sides of a HEX roll on the command line: the acting side, its dice, the opposing side.
        name = speech._("Acting") if result.opposing else speech._("Dice")
        lines = [_describe_side(name, result.acting, speech)]
        if result.opposing:
            lines.append(_describe_side(speech._("Opposing"), result.opposing, speech))
    lines.append(_verdict(result, speech))
    return lines


def _verdict(result: HexResult, speech: Speech) -> str:
    verdict = speech._("SUCCESS") if result.success else speech._("FAILURE")
    if result.outcome is Outcome.OPPOSING:
        verdict += " " + speech._("(the opposing side wins)")
    elif result.outcome is Outcome.NEITHER:
        verdict += " " + speech._("(both pools nullified: neither side succeeds)")
    elif not result.rolled and not result.automatic:
        verdict += " " + speech._("(the pool is nullified: the required roll fails automatically)")
    figures = [speech._("MoS {mos}", mos=result.mos)] if result.mos is not None else []
    figures += [speech._("damage {damage}", damage=result.damage)] if result.damage is not None else []
    return verdict + (", " + ", ".join(figures) if figures else "")
