"""``python -m rules heroic`` and ``python -m rules odds heroic``: Heroic Rolls from the command line."""

from __future__ import annotations

import argparse

from rules.cli.output import CliOutput
from rules.dice import DiceSource
from rules.heroic.odds import odds_for_heroic
from rules.heroic.roll import HeroicRoll, Outcome, Target, resolve_target, roll_heroic
from rules.heroic.tables import Difficulty, Kind, Variant
from rules.language import N_, Speech
from rules.odds_text import heroic_line

FACES_ORDER = N_(
    "--faces order: the roll's dice (two d6 faces for 2d6, one face for d12 or d20), then, only when an "
    "attack Fumbles, the Combat Fumble d6."
)


def register(subparsers: argparse._SubParsersAction, parents: list, speech: Speech, odds: bool = False) -> None:
    """Add the ``heroic`` sub-command (a roll, or with odds=True its exact odds), its help in speech's language."""
    _ = speech._
    help_text = _("exact odds of a Heroic Roll") if odds else _("a Heroic Roll: 2d6 (or d12, d20) + Skill vs a TN")
    parser = subparsers.add_parser(
        "heroic", parents=parents, help=help_text, description=help_text, epilog=None if odds else _(FACES_ORDER)
    )
    parser.add_argument("--skill", type=int, required=True, help=_("the Hero's Skill, 0-30"))
    difficulties = ", ".join(difficulty.label for difficulty in Difficulty)  # typed in English
    parser.add_argument("--difficulty", help=_("a named difficulty: {names}", names=difficulties))
    parser.add_argument("--tn", type=int, help=_("a Target Number given outright"))
    parser.add_argument("--versus", type=int, help=_("the opposing Skill: TN = 7 + it (9 + it with a d20)"))
    parser.add_argument("--dice", default="2d6", help=_("2d6 (default), d12 or d20"))
    if odds:
        parser.set_defaults(handler=_odds)
        return
    kinds = ", ".join(kind.value for kind in Kind)
    parser.add_argument(
        "--kind",
        default="task",
        # Translators: {kinds} are the kinds as typed, in English (task, attack, ...).
        help=_("what the roll is for: {kinds} (default task); 'fend' and 'parry/fend' mean parry, and words may be "
               "joined by spaces, - or _ (shield-block)", kinds=kinds),
    )
    parser.add_argument("--damage", type=int, help=_("the damage at stake, for an attack or a reaction"))
    parser.set_defaults(handler=_roll)


def _target_inputs(args: argparse.Namespace) -> dict:
    return {"difficulty": args.difficulty, "tn": args.tn, "versus": args.versus}


def _describe_target(target: Target, variant: Variant, speech: Speech) -> str:
    if target.difficulty is not None:
        return speech._("TN {tn} ({difficulty})", tn=target.tn, difficulty=speech._(target.difficulty.label))
    if target.versus is not None:
        return speech._("TN {tn} ({base} + {skill})", tn=target.tn, base=variant.versus_base, skill=target.versus)
    return speech._("TN {tn}", tn=target.tn)


OUTCOMES = {
    # Translators: a Heroic Roll's outcome on the command line.
    Outcome.CRIT: N_("crit"), Outcome.SUCCESS: N_("success"),
    Outcome.SUCCESS_WITH_COMPLICATION: N_("success with complication"), Outcome.FAILURE: N_("failure"),
    Outcome.FUMBLE: N_("fumble"),
}
KINDS = {
    # Translators: what a Heroic Roll is for, on the command line.
    "task": N_("task"), "attack": N_("attack"), "block": N_("block"), "parry": N_("parry"),
    "shield_block": N_("shield_block"), "dodge": N_("dodge"), "resist_magic": N_("resist_magic"),
    "reaction": N_("reaction"), "spell": N_("spell"),
}


def _odds(args: argparse.Namespace, dice: DiceSource, speech: Speech) -> CliOutput:
    """Exact odds only: nothing is rolled."""
    variant = Variant.parse(args.dice)
    target = resolve_target(variant, **_target_inputs(args))
    odds = odds_for_heroic(args.skill, target.tn, variant)
    data = {
        "system": "heroic",
        "kind": "odds",
        "input": {"skill": args.skill, "dice": variant.value, **_target_inputs(args)},
        "dice": [],
        "reading": {"tn": target.tn, "target": target.as_dict()},
        "odds": odds.as_dict(),
    }
    text = speech._("Heroic Roll {dice} + Skill {skill} vs {target}", dice=variant.value, skill=args.skill,
                    target=_describe_target(target, variant, speech))
    return CliOutput(data, text + "\n" + heroic_line(odds, speech))


def _roll_text(roll: HeroicRoll, speech: Speech) -> str:
    faces = " + ".join(str(die.face) for die in roll.dice)
    reaction = roll.kind.reaction  # the plain REACTION kind has no skill: nothing to show for it
    who = f" ({speech._(reaction.name)}, {speech._(reaction.skill)})" if reaction is not None and reaction.skill else ""
    target = _describe_target(roll.target, roll.variant, speech)
    lines = [
        speech._("Heroic Roll {dice}, {kind}{who}: {faces} + Skill {skill} = {total} vs {target} -> {outcome}",
                 dice=roll.variant.value, kind=speech._(KINDS.get(roll.kind.value, roll.kind.value)), who=who,
                 faces=faces, skill=roll.skill, total=roll.total, target=target,
                 outcome=speech._(OUTCOMES[roll.outcome]))
    ]
    if roll.fumble_table is not None:
        lines.append(speech._("Combat Fumble d6: {face}", face=roll.fumble_table.face))
    if roll.consequence_text:
        lines.append(speech._(roll.consequence_text))
    if roll.damage_dealt is not None:
        lines.append(speech._("Damage dealt: {damage}", damage=roll.damage_dealt))
    if roll.damage_taken is not None:
        lines.append(speech._("Damage taken: {damage}", damage=roll.damage_taken))
    return "\n".join(lines)


def _roll(args: argparse.Namespace, dice: DiceSource, speech: Speech) -> CliOutput:
    """Roll (or read --faces), then show the reading and the exact odds of the same roll."""
    roll = roll_heroic(
        args.skill, dice, variant=args.dice, kind=args.kind, damage=args.damage, **_target_inputs(args)
    )
    odds = odds_for_heroic(roll.skill, roll.tn, roll.variant)
    data = {
        "system": "heroic",
        "kind": roll.kind.value,
        "input": {
            "skill": args.skill,
            "dice": roll.variant.value,
            "kind": roll.kind.value,
            "damage": args.damage,
            **_target_inputs(args),
        },
        "dice": [die.as_dict() for die in roll.all_dice],
        "reading": roll.as_dict(),
        "odds": odds.as_dict(),
    }
    return CliOutput(data, _roll_text(roll, speech) + "\n" + heroic_line(odds, speech))
