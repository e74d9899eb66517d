"""``python -m rules sk test|conflict|competition`` and ``python -m rules odds sk ...``: Seven Kingdoms tests.

A pool is given either as options (--rank, --bonus, --discard ...) or in the seed's notation
(--pool "3D+2B-1P"), with --wounds, --pool-penalty, --injuries and --aid allowed beside either.
"""

from __future__ import annotations

import argparse

from rules.cli.output import CliOutput
from rules.dice import DiceSource, Die, Fate
from rules.errors import InvalidInput
from rules.language import N_, NP_, Speech
from rules.odds import as_odds
from rules.odds_text import sk_test_line, sk_win_line
from rules.sevenkingdoms.competition import SkCompetition, parse_participants, roll_competition
from rules.sevenkingdoms.odds import SkTestOdds, competition_odds, odds_for_test
from rules.sevenkingdoms.roll import (
    SkPool,
    SkTest,
    difficulty_name,
    minimum_rank,
    parse_pool,
    resolve_difficulty,
    roll_test,
)

SYSTEM = "sevenkingdoms"
TEST_FACES = N_(
    "--faces order: the test dice left after wounds and pool penalties, then the bonus dice (the aid die "
    "last). Nothing is read for an Automatic test or when no test die remains."
)
COMPETITION_FACES = N_(
    "--faces order: each participant in the order given, test dice then bonus dice; a participant with no "
    "test die reads no faces."
)


def _pool_options(parser: argparse.ArgumentParser, speech: Speech) -> None:
    _ = speech._
    parser.add_argument("--pool", metavar="3D+2B-1P", help=_("the pool in the seed's notation"))
    parser.add_argument("--rank", type=int, help=_("ability rank: that many test dice (0-10)"))
    parser.add_argument("--bonus", type=int, help=_("bonus dice from a trained specialty (0-10)"))
    parser.add_argument("--discard", type=int, help=_("discard penalty: the highest dice discarded (0-20)"))
    parser.add_argument("--wounds", type=int, default=0, help=_("wounds: each removes a test die (0-10)"))
    parser.add_argument("--pool-penalty", type=int, default=0, help=_("pool penalties: each removes a test die"))
    parser.add_argument("--injuries", type=int, default=0, help=_("injuries: each takes 1 off the result"))
    parser.add_argument("--aid", type=int, nargs="?", const=1, default=0,
                        help=_("a helper aids: +1 bonus die (one helper at most)"))


def _difficulty_options(parser: argparse.ArgumentParser, speech: Speech, *, conflict: bool) -> None:
    _ = speech._
    parser.add_argument("--difficulty", help=_("a named difficulty (Easy, Routine, ... Heroic) or a number"))
    target_names = ("--target", "--defense") if conflict else ("--target",)
    parser.add_argument(*target_names, dest="target", type=int,
                        help=_("the defender's Defense") if conflict else _("a difficulty number (0-60)"))


def register(subparsers, parents, speech: Speech, odds: bool = False) -> None:
    """Add ``sk`` with its test, conflict and competition sub-commands (rolls, or odds when odds is True), their
    help in speech's language."""
    _ = speech._
    sk = subparsers.add_parser("sk", help=_("Seven Kingdoms tests: test, bonus and penalty dice, degrees"))
    kinds = sk.add_subparsers(dest="sk_kind", required=True, metavar="{test,conflict,competition}")
    for kind, conflict, text in (("test", False, _("a basic test against a difficulty (minimum rank applies)")),
                                 ("conflict", True, _("a conflict test against the defender's Defense"))):
        parser = kinds.add_parser(kind, parents=parents, help=text, description=f"{text}. {_(TEST_FACES)}")
        _pool_options(parser, speech)
        _difficulty_options(parser, speech, conflict=conflict)
        kind_name = "conflict" if conflict else "basic"
        parser.set_defaults(handler=_test_odds if odds else _test, test_kind=kind_name)
    text = _("a competition: everyone rolls, the highest result wins")
    description = f"{text}. {_(COMPETITION_FACES)}"
    parser = kinds.add_parser("competition", parents=parents, help=text, description=description)
    parser.add_argument("--participants", required=True, metavar='"Jaime 5D+2B, Brienne 4D+1B"',
                        help=_("names and pools, separated by commas"))
    parser.set_defaults(handler=_competition_odds if odds else _competition)


def pool_from_args(args: argparse.Namespace) -> SkPool:
    """The pool from --pool or from --rank/--bonus/--discard, with wounds, penalties, injuries and aid."""
    extras = {"wounds": args.wounds, "pool_penalty": args.pool_penalty, "injuries": args.injuries,
              "aid": args.aid}
    if args.pool is not None:
        if any(value is not None for value in (args.rank, args.bonus, args.discard)):
            raise InvalidInput("Give the pool as --pool 3D+2B-1P or as --rank/--bonus/--discard, not both")
        return parse_pool(args.pool, **extras)
    if args.rank is None:
        raise InvalidInput("Give --rank (the ability rank) or --pool like 3D+2B-1P")
    return SkPool(args.rank, args.bonus or 0, discard=args.discard or 0, **extras)


def _input(args: argparse.Namespace, pool: SkPool) -> dict:
    number = resolve_difficulty(args.difficulty, args.target)
    minimum = minimum_rank(number) if args.test_kind == "basic" else None  # a Conflict has no minimum rank
    return {"kind": args.test_kind, "pool": pool.as_dict(), "difficulty": args.difficulty,
            "target": args.target, "difficulty_number": number, "difficulty_name": difficulty_name(number),
            "min_rank": minimum}


def _show_die(die: Die) -> str:
    if die.fate is Fate.KEPT:
        return f"{die.face}"
    return f"[{die.face}]" if die.fate is Fate.DISCARDED else f"({die.face})"


GROUPS = {
    # Translators: the Seven Kingdoms dice groups on the command line ("test 6 (2) [5] · bonus 4").
    "test": NP_("seven kingdoms dice", "test"), "bonus": NP_("seven kingdoms dice", "bonus"),
}


def show_dice(dice: tuple[Die, ...], speech: Speech) -> str:
    """Dice as text, test dice then bonus dice: kept 6, unkept (2), discarded [6]."""
    groups: dict[str, list[str]] = {}
    for die in dice:
        role = die.role.value
        said = speech.pgettext("seven kingdoms dice", GROUPS[role]) if role in GROUPS else role
        groups.setdefault(said, []).append(_show_die(die))
    return " · ".join(f"{role} {' '.join(faces)}" for role, faces in groups.items()) or speech._("no dice rolled")


def describe_test(test: SkTest, speech: Speech) -> str:
    """One line that reads a test's outcome."""
    if test.status == "automatic":
        return speech._("Automatic: succeeds without a roll")
    if test.status == "no_test_dice":
        return speech._("No test die remains: the test fails without a roll")
    head = speech._("Result {result} vs {difficulty}", result=test.result, difficulty=test.difficulty)
    if test.success:
        # Translators: {degree} is a degree of success (Marginal, Great, ...).
        return head + ": " + speech.ngettext("{degree} Success, margin {margin} ({count} degree)",
                                             "{degree} Success, margin {margin} ({count} degrees)", test.degrees or 0,
                                             degree=_degree(test.degree_name, speech), margin=test.margin)
    failure = speech._("marginal failure") if test.failure == "marginal" else speech._("critical failure")
    line = head + ": " + speech._("{failure}, {count} below", failure=failure, count=test.shortfall)
    return line + ("; " + speech._("complication: a die shows 1") if test.complication else "")


def _degree(name: str | None, speech: Speech) -> str:
    return speech._(name) if name else ""


def describe_odds(odds: SkTestOdds, speech: Speech) -> str:
    return sk_test_line(odds, speech)


def describe_pool(pool: SkPool, speech: Speech) -> str:
    """The notation, with what wounds, penalties, aid and injuries make of it."""
    changes = [speech._(label, value=value) for label, value in (
        (N_("wounds {value}"), pool.wounds), (N_("pool penalty {value}"), pool.pool_penalty),
        (N_("injuries {value}"), pool.injuries)) if value] + ([speech._("aided")] if pool.aid else [])
    if not changes:
        return pool.notation
    return speech._("{notation} ({changes}: rolls {test}D + {bonus}B)", notation=pool.notation,
                    changes=", ".join(changes), test=pool.test_dice, bonus=pool.bonus_dice)


def _heading(data: dict, pool: SkPool, speech: Speech) -> str:
    number = data["difficulty_number"]
    if data["kind"] == "conflict":
        return speech._("Seven Kingdoms conflict test: {pool} vs Defense {number}", pool=describe_pool(pool, speech),
                        number=number)
    name = data["difficulty_name"]
    against = (speech._("{name} ({number})", name=speech._(name), number=number) if name
               else speech._("difficulty {number}", number=number))
    return speech._("Seven Kingdoms basic test: {pool} vs {against}", pool=describe_pool(pool, speech), against=against)


def _test(args: argparse.Namespace, dice: DiceSource, speech: Speech) -> CliOutput:
    pool = pool_from_args(args)
    used = _input(args, pool)
    test = roll_test(pool, dice, target=used["difficulty_number"], kind=args.test_kind)
    odds = odds_for_test(pool, used["difficulty_number"], kind=args.test_kind)
    data = {"system": SYSTEM, "kind": args.test_kind, "input": used,
            "dice": [d.as_dict() for d in test.dice], "reading": test.reading(), "odds": odds.as_dict()}
    lines = (_heading(used, pool, speech), speech._("Dice: {dice}", dice=show_dice(test.dice, speech)),
             describe_test(test, speech), describe_odds(odds, speech))
    text = "\n".join(lines)
    return CliOutput(data, text)


def _test_odds(args: argparse.Namespace, dice: DiceSource, speech: Speech) -> CliOutput:
    pool = pool_from_args(args)
    used = _input(args, pool)
    odds = odds_for_test(pool, used["difficulty_number"], kind=args.test_kind)
    data = {"system": SYSTEM, "kind": args.test_kind, "input": used, "dice": [], "reading": {}, "odds": odds.as_dict()}
    return CliOutput(data, f"{_heading(used, pool, speech)}\n{describe_odds(odds, speech)}")


def describe_competition(competition: SkCompetition, speech: Speech) -> str:
    """Standings, then who won and by how much (or the tie)."""
    lines = [f"{c.place}. {c.name} ({c.pool.notation}): "
             + (f"{c.result}  [{show_dice(c.dice, speech)}]" if c.result is not None
                else speech._("no test die, cannot win"))
             for c in competition.standings]
    if competition.tie:
        lines.append(speech._("Tie at the top: {names}", names=", ".join(competition.tied)))
    elif competition.winner is None:
        lines.append(speech._("No one has a test die: no one wins"))
    elif competition.margin is None:
        lines.append(speech._("{winner} wins: no one else could roll", winner=competition.winner))
    else:
        lines.append(speech.ngettext("{winner} wins by {margin}: {degree} ({count} degree)",
                                     "{winner} wins by {margin}: {degree} ({count} degrees)", competition.degrees or 0,
                                     winner=competition.winner, margin=competition.margin,
                                     degree=_degree(competition.degree_name, speech)))
    return "\n".join(lines)


def _participants_input(participants: list[tuple[str, SkPool]]) -> dict:
    return {"participants": [{"name": name, "pool": pool.as_dict()} for name, pool in participants]}


def _competition_odds_data(participants: list[tuple[str, SkPool]]) -> dict:
    odds = competition_odds([pool for _, pool in participants])
    wins = {name: as_odds(p) for (name, _), p in zip(participants, odds.win, strict=True)}
    return {"win": wins, "tie": as_odds(odds.tie), "no_winner": as_odds(odds.no_winner)}


def _competition(args: argparse.Namespace, dice: DiceSource, speech: Speech) -> CliOutput:
    participants = parse_participants(args.participants)
    competition = roll_competition(participants, dice)
    rolled = [{**d.as_dict(), "participant": c.name} for c in competition.competitors for d in c.dice]
    data = {"system": SYSTEM, "kind": "competition", "input": _participants_input(participants),
            "dice": rolled, "reading": {**competition.reading(),
                                        "competitors": [c.as_dict() for c in competition.competitors]},
            "odds": _competition_odds_data(participants)}
    return CliOutput(data, speech._("Seven Kingdoms competition") + "\n" + describe_competition(competition, speech))


def _competition_odds(args: argparse.Namespace, dice: DiceSource, speech: Speech) -> CliOutput:
    participants = parse_participants(args.participants)
    odds = _competition_odds_data(participants)
    chances = competition_odds([pool for _, pool in participants])
    lines = [sk_win_line(tuple(name for name, _ in participants), chances.win, chances.tie, speech)]
    data = {"system": SYSTEM, "kind": "competition", "input": _participants_input(participants),
            "dice": [], "reading": {}, "odds": odds}
    return CliOutput(data, speech._("Seven Kingdoms competition odds") + "\n" + "\n".join(lines))
