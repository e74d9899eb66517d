"""Seven Kingdoms tests, competitions and extended tests as embeds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import discord

from bot.render.common import COMPLICATION_MARK, DESCRIPTION, Card, Tone, Tones, embed, plural, token, tokens
from bot.text import inert
from rules import odds_text
from rules.dice import Die, Fate
from rules.sevenkingdoms.competition import SkCompetition
from rules.sevenkingdoms.extended import ExtendedProgress
from rules.sevenkingdoms.odds import SkCompetitionOdds, SkTestOdds
from rules.sevenkingdoms.roll import SkPool, SkTest, difficulty_name


def sk_test_odds(odds: SkTestOdds | None) -> str | None:
    """None also when nothing is rolled (an Automatic test, or no test die): the card already says why."""
    if odds is None or odds.status != "rolled":
        return None
    return odds_text.sk_test_line(odds)


def sk_win_chances(odds: SkCompetitionOdds | None) -> tuple[str, ...] | None:
    """Each participant's chance to win outright, in input order, for their own line of the standings."""
    return None if odds is None else tuple(f"{odds_text.percent(win)} to win" for win in odds.win)


def sk_tie_odds(odds: SkCompetitionOdds | None) -> str | None:
    """The footer of a competition: the chance of a tie at the top (each win chance is on its own line)."""
    return None if odds is None else odds_text.sk_tie_line(odds.tie)


def pool_text(pool: SkPool) -> str:
    text = pool.notation
    extras = []
    if pool.aid:
        extras.append("aided")
    if pool.wounds:
        extras.append(plural(pool.wounds, "wound"))
    if pool.pool_penalty:
        extras.append(f"pool penalty {pool.pool_penalty}")
    if pool.injuries:
        extras.append(plural(pool.injuries, "injury", "injuries"))
    return f"{text} ({', '.join(extras)})" if extras else text


def dice_line(dice: tuple[Die, ...], failed: bool = False) -> str:
    """Kept dice, discarded dice struck through, unkept dice: each group sorted high to low. Test and bonus dice
    are pooled, so they are not told apart. On a failed test, a 1 (the complication) is marked ⚠."""
    groups = {Fate.KEPT: "Kept", Fate.DISCARDED: "Discarded", Fate.UNKEPT: "Not kept"}
    lines = []
    for fate, name in groups.items():
        faces = sorted((die.face for die in dice if die.fate is fate), reverse=True)
        parts = [token(face, struck=fate is Fate.DISCARDED) + (COMPLICATION_MARK if failed and face == 1 else "")
                 for face in faces]
        if parts:
            lines.append(f"{name}: {tokens(parts)}")
    return " · ".join(lines) or "Nothing rolled"


def difficulty_text(test: SkTest) -> str:
    if test.kind == "conflict":
        return f"Defense {test.difficulty}"
    name = difficulty_name(test.difficulty)
    return f"{name} ({test.difficulty})" if name else f"difficulty {test.difficulty}"


def outcome_text(test: SkTest) -> tuple[str, Tone]:
    if test.status == "automatic":
        return "Automatic success · no roll needed", Tones.SUCCESS
    if test.status == "no_test_dice":
        return "Fails · no test die remains, nothing rolled", Tones.FAILURE
    failure = test.failure  # rolled from here on: None for a success, else "marginal" or "critical"
    if failure is None:
        return f"{test.degree_name} success · {plural(test.degrees or 0, 'degree')}", Tones.SUCCESS
    tone = Tones.DISASTER if failure == "critical" else Tones.FAILURE
    return f"{failure.capitalize()} failure · {test.shortfall} below", tone


def _system(kind: str) -> str:
    """The line under the title names the system, and the kind when it is not a basic test."""
    return "Seven Kingdoms" if kind == "basic" else f"Seven Kingdoms {kind}"


def _result_name(test: SkTest) -> str:
    """The Dice field's name: the result, and its margin when it succeeded."""
    margin = f" · margin {test.margin}" if test.success else ""
    return f"Result {test.result}{margin}"


def _test_card(test: SkTest, odds: SkTestOdds | None, extra: str | None = None) -> Card:
    outcome, tone = outcome_text(test)
    details = []
    if test.complication:
        details.append(f"{COMPLICATION_MARK} A die shows 1: the Narrator may add a complication.")
    if test.pool.injuries and test.rolled:
        details.append(f"Injuries: −{test.pool.injuries} from the result.")
    if extra:
        details.append(extra)
    return Card(
        outcome,
        tone,
        f"{_system(test.kind)} · {pool_text(test.pool)} vs {difficulty_text(test)}",
        [(_result_name(test), dice_line(test.dice, failed=not test.success))] if test.rolled else [],
        sk_test_odds(odds),
        "\n".join(details) or None,
    )


def render_test(
    test: SkTest, odds: SkTestOdds | None, *, roller: discord.abc.User | None = None, note: str | None = None
) -> discord.Embed:
    """A basic or conflict test: the dice kept and discarded, success and degrees or how far it fell short."""
    return embed(_test_card(test, odds), roller, note)


@dataclass(frozen=True, slots=True)
class ExtendedRoll:
    """One roll of an extended test as its card shows it: the test, the degrees it added, and the task as stored
    once they were counted (another roll may have counted meanwhile). Plain figures, never checked again: the
    roll is already stored when its card is drawn."""

    test: SkTest
    name: str
    gained: int
    needed: int
    added: int

    @property
    def completed(self) -> bool:
        """This roll finished the task."""
        return self.gained >= self.needed and self.gained - self.added < self.needed


def render_extended(
    roll: ExtendedRoll, odds: SkTestOdds | None, *, roller: discord.abc.User | None = None, note: str | None = None
) -> discord.Embed:
    """One roll of an extended test: the test as usual, what it added, the task's progress bar."""
    test, name = roll.test, inert(roll.name)
    extra = f"Progress +{plural(roll.added, 'degree')}." if roll.added else "No progress this time."
    if roll.completed:
        extra += f"\n🏁 **{name} is complete!**"
    card = _test_card(test, odds, extra)
    pool = f"{_system('extended')} · {pool_text(test.pool)} vs {difficulty_text(test)}"  # the task: under Progress
    fields = [*card.fields, ("Progress", progress_line(roll.name, roll.gained, roll.needed))]
    return embed(replace(card, pool=pool, fields=fields), roller, note)


def _competition_outcome(competition: SkCompetition) -> tuple[str, Tone]:
    if competition.tie:
        return f"Tie at the top · {', '.join(inert(name) for name in competition.tied)}", Tones.TIE
    if competition.winner is None:
        return "No winner · nobody has a test die", Tones.FAILURE
    if competition.degrees:
        return (f"{inert(competition.winner)} wins · by {competition.margin} ({competition.degree_name}, "
                f"{plural(competition.degrees, 'degree')})", Tones.WINNER)
    return f"{inert(competition.winner)} wins", Tones.WINNER


def _standings(competition: SkCompetition, odds: SkCompetitionOdds | None) -> list[tuple[str, str]]:
    """One field per participant in order of place: name, pool and chance to win; result and dice."""
    chances = sk_win_chances(odds)
    fields = []
    for competitor in competition.standings:
        name = f"{competitor.place}. {inert(competitor.name)} · {pool_text(competitor.pool)}"
        if chances is not None:
            name += f" · {chances[competition.competitors.index(competitor)]}"
        result = "no test die" if competitor.result is None else f"**{competitor.result}**"
        dice = dice_line(competitor.dice) if competitor.dice else ""
        fields.append((name, f"{result} · {dice}" if dice else result))
    return fields


def render_competition(
    competition: SkCompetition, odds: SkCompetitionOdds | None, *, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """A competition: the winner or the tie at the top, then the standings with each participant's dice."""
    outcome, tone = _competition_outcome(competition)
    card = Card(
        outcome,
        tone,
        f"Seven Kingdoms competition · {plural(len(competition.competitors), 'participant')}",
        _standings(competition, odds),
        sk_tie_odds(odds),
    )
    return embed(card, roller, note)


BAR_MARKS = 20


def progress_line(name: str, gained: int, needed: int) -> str:
    """A task's progress bar: one mark per degree, scaled down to 20 marks (full only when complete)."""
    width = min(needed, BAR_MARKS)
    filled = min(gained, needed) * width // needed
    bar = "▰" * filled + "▱" * (width - filled)
    state = "complete!" if gained >= needed else f"{needed - gained} to go"
    return f"**{inert(name)}**: {bar} {gained}/{needed} — {state}"


def progress_text(progress: ExtendedProgress) -> str:
    return progress_line(progress.name, progress.gained, progress.needed)


def render_tasks(
    tasks: Sequence[tuple[str, int, int]], odds: None, *, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """The extended tests of a channel, one progress bar each: (name, gained, needed) as stored.

    A list has no odds: ``odds`` is always None, there to keep the one signature of every renderer.
    """
    done = sum(gained >= needed for _, gained, needed in tasks)
    summary = f"{plural(len(tasks), 'task')}, {done} complete" if tasks else "No extended tests here"
    lines = _fitting([progress_line(*task) for task in tasks], DESCRIPTION - 200)
    if not tasks:
        lines.append("Start one with /test extended, giving the task and the degrees it needs.")
    card = Card(summary, Tones.PROGRESS, "Seven Kingdoms · extended tests in this channel", details="\n".join(lines))
    return embed(card, roller, note)


def _fitting(lines: list[str], room: int) -> list[str]:
    """As many whole lines as fit in room characters, then how many were left out."""
    kept: list[str] = []
    for index, line in enumerate(lines):
        if sum(len(k) + 1 for k in kept) + len(line) > room:
            return [*kept, f"… and {len(lines) - index} more"]
        kept.append(line)
    return kept
