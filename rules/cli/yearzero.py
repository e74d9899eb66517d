"""``python -m rules yz`` and ``python -m rules odds yz``: Year Zero (Forbidden Lands) rolls, push, odds."""

from __future__ import annotations

import argparse

from rules.cli.output import CliOutput
from rules.dice import DiceSource
from rules.errors import InvalidInput
from rules.language import N_, Speech
from rules.odds import dist_as_odds
from rules.odds_text import yz_pool_line, yz_push_cost
from rules.yearzero.artifacts import ARTIFACT_NAMES, check_artifacts
from rules.yearzero.dice import PRIDE_NAME, PRIDE_SIDES
from rules.yearzero.odds import YzOdds, odds_after_first, odds_for_roll, success_distributions
from rules.yearzero.roll import YzRoll, push, roll_yz
from rules.yearzero.willpower import apply_willpower, check_willpower

# Translators: keep the line breaks and the example command line as they are.
FACES_ORDER = N_("""\
--faces order: the base dice (Attribute + Skill), then the gear dice, then the Artifact dice in the order
the --artifact options are given, then the Pride die (--pride). With --push, the new faces of the rerolled
dice follow, push after push, each push in the same order (base, gear, Artifact, Pride), one face for each
die it rerolls (a d6 showing neither 6 nor 1, an Artifact or Pride die that scored no success). Example:
  --attribute 2 --skill 1 --gear 1 --artifact d8 --push --faces 6,3,1,4,5,2,6,7
reads a first roll of 6,3,1 (base), 4 (gear), 5 (d8) and rerolls the 3, the 4 and the d8 into 2, 6 and 7.
With --pushes 2 --push, a second push rerolls the dice still blank (here the 2), so one more face follows.""")


def register(subparsers: argparse._SubParsersAction, parents: list, speech: Speech, odds: bool = False) -> None:
    """Add the ``yz`` sub-command (a roll, or its odds under ``odds``), its help in speech's language."""
    _ = speech._
    if odds:
        parser = subparsers.add_parser(
            "yz",
            parents=parents,
            help=_("exact Year Zero odds, before rolling"),
            description=_("Exact Year Zero odds: success on the first roll and after a push, expected successes, "
                          "banes and Willpower. Counts may exceed the roll bounds (e.g. --base 25)."),
        )
        _pool_options(parser, speech)
        parser.add_argument("--base", type=int, help=_("base dice, instead of --attribute + --skill"))
        parser.add_argument("--pushes", type=int, default=1, help=_("pushes allowed (0-3, default 1)"))
        parser.set_defaults(handler=_odds_handler)
        return
    parser = subparsers.add_parser(
        "yz",
        parents=parents,
        help=_("roll Year Zero (Forbidden Lands) dice, and push"),
        description=_("Roll Attribute + Skill base dice, gear dice, up to three Artifact dice and the Pride die; "
                      "--push pushes the roll whenever it can, as many times as --pushes allows (once by default)."),
        epilog=_(FACES_ORDER),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _pool_options(parser, speech)
    parser.add_argument("--pushes", type=int, default=1, help=_("pushes the roll allows (0-3, default 1)"))
    parser.add_argument(
        "--push", action="store_true", help=_("push the roll (reroll every blank die), again while pushes are left")
    )
    parser.add_argument(
        "--willpower",
        type=int,
        default=0,
        help=_("with --push: the roller's Willpower before it (0-10), to show the total after and what is lost past "
               "10 (counted at each push)"),
    )
    parser.set_defaults(handler=_roll_handler)


def _pool_options(parser: argparse.ArgumentParser, speech: Speech) -> None:
    _ = speech._
    parser.add_argument("--attribute", type=int, default=0, help=_("Attribute (0-10)"))
    parser.add_argument("--skill", type=int, default=0, help=_("Skill (0-10)"))
    parser.add_argument("--gear", type=int, default=0, help=_("gear dice (0-10)"))
    parser.add_argument(
        "--artifact",
        action="append",
        default=[],
        metavar="d8|d10|d12",
        help=_("an Artifact die (repeatable, up to 3): d8 Mighty, d10 Epic, d12 Legendary"),
    )
    parser.add_argument("--pride", action="store_true", help=_("add the Pride die (a d12 read like an Artifact die)"))


def _roll_handler(args: argparse.Namespace, dice: DiceSource, speech: Speech) -> CliOutput:
    first = roll_yz(args.attribute, args.skill, args.gear, args.artifact, dice, pride=args.pride, pushes=args.pushes)
    steps = _pushes(first, dice) if args.push else []
    final = steps[-1] if steps else first
    rolled = list(first.dice) + [step.dice[i] for step in steps for i in step.rerolled]
    base = first.attribute + first.skill
    before = odds_for_roll(base, first.gear, first.artifacts, pride=first.pride, pushes=first.pushes_allowed)
    this_roll = odds_after_first(first)
    data: dict = {
        "system": "yearzero",
        "kind": "push" if steps else "roll",
        "input": {**_pool_input(first), "push": bool(args.push)},
        "dice": [d.as_dict() for d in rolled],
        "reading": final.reading_as_dict(),
        "odds": {
            "before_roll": before.as_dict() | _distributions(before),
            "push_this_roll": this_roll.as_dict(),
        },
    }
    check_willpower(args.willpower)
    if steps:
        data |= _pushed_json(first, steps, args.willpower)
    cost = [yz_push_cost(this_roll, speech)] if this_roll.can_push and not steps else []
    odds = [yz_pool_line(before, speech), *cost]
    return CliOutput(data, "\n".join([_roll_text(first, steps, data, speech), *odds]))


def _pushes(first: YzRoll, dice: DiceSource) -> list[YzRoll]:
    """Every push of the roll, pushing whenever it can (the first must be possible: otherwise CannotPush)."""
    steps = [push(first, dice)]
    while steps[-1].can_push:
        steps.append(push(steps[-1], dice))
    return steps


def _pushed_json(first: YzRoll, steps: list[YzRoll], willpower: int) -> dict:
    """The first roll, each push with the Willpower it brought (clamped at 10 at each push), and the totals."""
    pushes, lost = [], 0
    for step in steps:
        after, lost_here = apply_willpower(willpower, step.new_base_banes)
        pushes.append(_roll_json(step) | {"willpower_before": willpower, "willpower_after": after})
        willpower, lost = after, lost + lost_here
    final = steps[-1]
    return {
        "first": _roll_json(first),
        "pushed": _roll_json(final),
        "pushes": pushes,
        "damage": {"attribute": final.attribute_damage, "gear": final.gear_damage},
        "willpower_gained": final.willpower_gained,
        "willpower_before": pushes[0]["willpower_before"],
        "willpower_after": willpower,
        "willpower_lost": lost,
    }


def _odds_handler(args: argparse.Namespace, dice: DiceSource, speech: Speech) -> CliOutput:
    if args.base is not None and (args.attribute or args.skill):
        raise InvalidInput("Give either --base or --attribute and --skill, not both")
    base = args.base if args.base is not None else args.attribute + args.skill
    odds = odds_for_roll(base, args.gear, args.artifact, pride=args.pride, pushes=args.pushes)
    artifacts = [f"d{s}" for s in check_artifacts(args.artifact)]
    data: dict = {
        "system": "yearzero",
        "kind": "odds",
        "input": {"base": base, "gear": args.gear, "artifacts": artifacts, "pride": odds.pride, "pushes": odds.pushes},
        "dice": [],
        "reading": {},
        "odds": odds.as_dict() | _distributions(odds),
    }
    pool = _pool_text(base, odds.gear, check_artifacts(args.artifact), speech, odds.pride)
    lines = [speech._("Year Zero odds: {pool}", pool=pool), yz_pool_line(odds, speech), speech._("Exact:")]
    for name, value in data["odds"].items():
        if isinstance(value, dict) and "exact" in value:
            label = speech._(EXACT_NAMES[name]) if name in EXACT_NAMES else name.replace("_", " ")
            lines.append(f"  {label}: {value['exact']} ({speech.decimal(value['float'], 4)})")
    return CliOutput(data, "\n".join(lines))


EXACT_NAMES = {
    # Translators: the exact Year Zero odds the command line lists, one per line.
    "success_first_roll": N_("success first roll"), "success_after_push": N_("success after push"),
    "success_after_all_pushes": N_("success after all pushes"),
    "expected_successes_first_roll": N_("expected successes first roll"),
    "expected_successes_after_push": N_("expected successes after push"),
    "expected_willpower_after_push": N_("expected willpower after push"),
    "expected_gear_damage_after_push": N_("expected gear damage after push"),
}


def _distributions(odds: YzOdds) -> dict:
    """P(exactly k successes) on the first roll and after every push allowed, as JSON."""
    artifacts = list(odds.artifacts)
    if odds.pride:
        artifacts.remove(PRIDE_SIDES)  # the odds hold the Pride die among the Artifact dice
    first, after = success_distributions(odds.base, odds.gear, artifacts, pride=odds.pride, pushes=odds.pushes)
    return {"successes_first_roll": dist_as_odds(first), "successes_after_push": dist_as_odds(after)}


def _pool_input(roll: YzRoll) -> dict:
    return {
        "attribute": roll.attribute,
        "skill": roll.skill,
        "gear": roll.gear,
        "artifacts": [f"d{s}" for s in roll.artifacts],
        "pride": roll.pride,
        "pushes": roll.pushes_allowed,
    }


def _roll_json(roll: YzRoll) -> dict:
    return {"dice": [d.as_dict() for d in roll.dice], "reading": roll.reading_as_dict()}


def _pool_text(base: int, gear: int, artifacts: tuple[int, ...], speech: Speech, pride: bool = False) -> str:
    parts = [speech._("{count} base", count=base), speech._("{count} gear", count=gear)]
    parts += [f"d{s} ({speech._(ARTIFACT_NAMES[s])})" for s in artifacts]
    return " + ".join(parts + ([f"d12 ({speech._(PRIDE_NAME)})"] if pride else []))


_GROUPS = {
    # Translators: the Year Zero dice groups on the command line ("base [6 3 1] gear [4]").
    "base": N_("base"), "gear": N_("gear"), "artifact": N_("artifact"), "pride": N_("pride"),
}


def _faces_text(roll: YzRoll, speech: Speech) -> str:
    groups = []
    for role, name in _GROUPS.items():
        faces = [f"d{d.sides}:{d.face}" if d.sides != 6 else str(d.face) for d in roll.dice if d.role == role]
        if faces:
            groups.append(f"{speech._(name)} [{' '.join(faces)}]")
    return " ".join(groups)


def _yes(answer: bool, speech: Speech) -> str:
    return speech._("yes") if answer else speech._("no")


def _roll_text(first: YzRoll, steps: list[YzRoll], data: dict, speech: Speech) -> str:
    pool = _pool_text(first.attribute + first.skill, first.gear, first.artifacts, speech, first.pride)
    lines = [
        speech._("Year Zero: {pool}", pool=pool),
        # Translators: {faces} are the dice as rolled; {successes} is "2 successes" (translated).
        speech._("First roll: {faces} -> {successes}, banes {base} base / {gear} gear (no effect on the first roll)",
                 faces=_faces_text(first, speech), successes=_successes(first, speech), base=first.base_banes,
                 gear=first.gear_banes),
    ]
    for step, counted in zip(steps, data.get("pushes", []), strict=True):
        lost = counted["willpower_before"] + step.new_base_banes - counted["willpower_after"]
        lines.append(
            speech._("Pushed{nth}: {faces} -> {successes}; Attribute damage {attribute}, gear damage {gear} so far, "
                     "Willpower +{gained}: {before} -> {after}", nth=_nth(step, speech),
                     faces=_faces_text(step, speech),
                     successes=_successes(step, speech), attribute=step.attribute_damage, gear=step.gear_damage,
                     gained=step.new_base_banes, before=counted["willpower_before"], after=counted["willpower_after"])
            + (" " + speech._("({count} lost past 10)", count=lost) if lost else "")
        )
    if not steps:
        lines.append(speech._("Can push: {answer} ({dice}, {pushes})", answer=_yes(first.can_push, speech),
                              dice=speech.ngettext("{count} die to reroll", "{count} dice to reroll",
                                                   len(first.reroll_indices)),
                              pushes=speech.ngettext("{count} push allowed", "{count} pushes allowed",
                                                     first.pushes_allowed)))
    lines.append(speech._("Success: {answer}", answer=_yes((steps[-1] if steps else first).success, speech)))
    return "\n".join(lines)


def _nth(step: YzRoll, speech: Speech) -> str:
    if step.pushes_allowed == 1:
        return ""
    return " " + speech._("({number} of {count})", number=step.pushes, count=step.pushes_allowed)


def _successes(roll: YzRoll, speech: Speech) -> str:
    return speech.ngettext("{count} success", "{count} successes", roll.successes)
