"""``python -m rules yz`` and ``python -m rules odds yz``: Year Zero (Forbidden Lands) rolls, push, odds."""

from __future__ import annotations

import argparse

from rules.cli import CliOutput
from rules.dice import DiceSource
from rules.errors import InvalidInput
from rules.odds import dist_as_odds
from rules.odds_text import yz_pool_line, yz_push_cost
from rules.yearzero import ARTIFACT_NAMES, YzRoll, apply_willpower, check_willpower, push, roll_yz
from rules.yearzero_odds import odds_after_first, odds_for_roll, success_distributions

FACES_ORDER = """\
--faces order: the base dice (Attribute + Skill), then the gear dice, then the Artifact dice in the order
the --artifact options are given. With --push, the new faces of the rerolled dice follow, in the same
order (base, gear, Artifact), one face for each die the push rerolls (a d6 showing neither 6 nor 1, an
Artifact die that scored no success). Example:
  --attribute 2 --skill 1 --gear 1 --artifact d8 --push --faces 6,3,1,4,5,2,6,7
reads a first roll of 6,3,1 (base), 4 (gear), 5 (d8) and rerolls the 3, the 4 and the d8 into 2, 6 and 7."""


def register(subparsers: argparse._SubParsersAction, parents: list, odds: bool = False) -> None:
    """Add the ``yz`` sub-command (a roll, or its odds under ``odds``)."""
    if odds:
        parser = subparsers.add_parser(
            "yz",
            parents=parents,
            help="exact Year Zero odds, before rolling",
            description="Exact Year Zero odds: success on the first roll and after a push, "
            "expected successes, banes and Willpower. Counts may exceed the roll bounds (e.g. --base 25).",
        )
        _pool_options(parser)
        parser.add_argument("--base", type=int, help="base dice, instead of --attribute + --skill")
        parser.set_defaults(handler=_odds_handler)
        return
    parser = subparsers.add_parser(
        "yz",
        parents=parents,
        help="roll Year Zero (Forbidden Lands) dice, and push",
        description="Roll Attribute + Skill base dice, gear dice and up to three Artifact dice; "
        "--push pushes the roll once.",
        epilog=FACES_ORDER,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _pool_options(parser)
    parser.add_argument("--push", action="store_true", help="push the roll (reroll every die not 6 or 1)")
    parser.add_argument(
        "--willpower",
        type=int,
        default=0,
        help="with --push: the roller's Willpower before it (0-10), to show the total after and what is lost past 10",
    )
    parser.set_defaults(handler=_roll_handler)


def _pool_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--attribute", type=int, default=0, help="Attribute (0-10)")
    parser.add_argument("--skill", type=int, default=0, help="Skill (0-10)")
    parser.add_argument("--gear", type=int, default=0, help="gear dice (0-10)")
    parser.add_argument(
        "--artifact",
        action="append",
        default=[],
        metavar="d8|d10|d12",
        help="an Artifact die (repeatable, up to 3): d8 Mighty, d10 Epic, d12 Legendary",
    )


def _roll_handler(args: argparse.Namespace, dice: DiceSource) -> CliOutput:
    first = roll_yz(args.attribute, args.skill, args.gear, args.artifact, dice)
    pushed = push(first, dice) if args.push else None
    final = pushed or first
    rolled = list(first.dice) + ([pushed.dice[i] for i in pushed.rerolled] if pushed else [])
    base = first.attribute + first.skill
    before, this_roll = odds_for_roll(base, first.gear, first.artifacts), odds_after_first(first)
    data: dict = {
        "system": "yearzero",
        "kind": "push" if pushed else "roll",
        "input": {**_pool_input(first), "push": bool(args.push)},
        "dice": [d.as_dict() for d in rolled],
        "reading": final.reading_as_dict(),
        "odds": {
            "before_roll": before.as_dict() | _distributions(base, first.gear, first.artifacts),
            "push_this_roll": this_roll.as_dict(),
        },
    }
    if pushed:
        data["first"] = _roll_json(first)
        data["pushed"] = _roll_json(pushed)
        data["damage"] = {"attribute": pushed.attribute_damage, "gear": pushed.gear_damage}
        data["willpower_gained"] = pushed.willpower_gained
        after, lost = apply_willpower(args.willpower, pushed.willpower_gained)
        data |= {"willpower_before": args.willpower, "willpower_after": after, "willpower_lost": lost}
    elif args.willpower:
        check_willpower(args.willpower)
    odds = [yz_pool_line(before)] + ([yz_push_cost(this_roll)] if this_roll.can_push and not pushed else [])
    return CliOutput(data, "\n".join([_roll_text(first, pushed, data), *odds]))


def _odds_handler(args: argparse.Namespace, dice: DiceSource) -> CliOutput:
    if args.base is not None and (args.attribute or args.skill):
        raise InvalidInput("Give either --base or --attribute and --skill, not both")
    base = args.base if args.base is not None else args.attribute + args.skill
    odds = odds_for_roll(base, args.gear, args.artifact)
    data: dict = {
        "system": "yearzero",
        "kind": "odds",
        "input": {"base": base, "gear": args.gear, "artifacts": [f"d{s}" for s in odds.artifacts]},
        "dice": [],
        "reading": {},
        "odds": odds.as_dict() | _distributions(base, args.gear, args.artifact),
    }
    lines = [f"Year Zero odds: {_pool_text(base, odds.gear, odds.artifacts)}", yz_pool_line(odds), "Exact:"]
    for name, value in data["odds"].items():
        if isinstance(value, dict) and "exact" in value:
            lines.append(f"  {name.replace('_', ' ')}: {value['exact']} ({value['float']:.4f})")
    return CliOutput(data, "\n".join(lines))


def _distributions(base: int, gear: int, artifacts) -> dict:
    """P(exactly k successes) on the first roll and after a push, as JSON."""
    first, after = success_distributions(base, gear, artifacts)
    return {"successes_first_roll": dist_as_odds(first), "successes_after_push": dist_as_odds(after)}


def _pool_input(roll: YzRoll) -> dict:
    return {
        "attribute": roll.attribute,
        "skill": roll.skill,
        "gear": roll.gear,
        "artifacts": [f"d{s}" for s in roll.artifacts],
    }


def _roll_json(roll: YzRoll) -> dict:
    return {"dice": [d.as_dict() for d in roll.dice], "reading": roll.reading_as_dict()}


def _pool_text(base: int, gear: int, artifacts: tuple[int, ...]) -> str:
    parts = [f"{base} base", f"{gear} gear"] + [f"d{s} ({ARTIFACT_NAMES[s]})" for s in artifacts]
    return " + ".join(parts)


def _faces_text(roll: YzRoll) -> str:
    groups = []
    for role in ("base", "gear", "artifact"):
        faces = [
            f"d{d.sides}:{d.face}" if role == "artifact" else str(d.face) for d in roll.dice if d.role == role
        ]
        if faces:
            groups.append(f"{role} [{' '.join(faces)}]")
    return " ".join(groups)


def _roll_text(first: YzRoll, pushed: YzRoll | None, data: dict) -> str:
    pool = _pool_text(first.attribute + first.skill, first.gear, first.artifacts)
    lines = [
        f"Year Zero: {pool}",
        f"First roll: {_faces_text(first)} -> {_successes(first)}, "
        f"banes {first.base_banes} base / {first.gear_banes} gear (no effect on the first roll)",
    ]
    if pushed:
        lines.append(
            f"Pushed: {_faces_text(pushed)} -> {_successes(pushed)}; "
            f"Attribute damage {pushed.attribute_damage}, gear damage {pushed.gear_damage}, "
            f"Willpower +{pushed.willpower_gained}: {data['willpower_before']} -> {data['willpower_after']}"
            + (f" ({data['willpower_lost']} lost past 10)" if data["willpower_lost"] else "")
        )
    else:
        lines.append(
            f"Can push: {'yes' if first.can_push else 'no'} ({len(first.reroll_indices)} dice to reroll)"
        )
    lines.append("Success: " + ("yes" if (pushed or first).success else "no"))
    return "\n".join(lines)


def _successes(roll: YzRoll) -> str:
    return f"{roll.successes} success" + ("" if roll.successes == 1 else "es")
