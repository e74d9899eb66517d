"""Seven Kingdoms tests, competitions and extended tests as embeds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import discord

from bot.render.common import DESCRIPTION, Card, Colour, embed, plural, token, tokens
from bot.render.odds import sk_competition_odds, sk_test_odds
from bot.text import inert
from rules.dice import Die, Fate, Role
from rules.sevenkingdoms import SkPool, SkTest, difficulty_name
from rules.sevenkingdoms_competition import SkCompetition
from rules.sevenkingdoms_extended import ExtendedProgress
from rules.sevenkingdoms_odds import SkCompetitionOdds, SkTestOdds


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


def dice_line(dice: tuple[Die, ...]) -> str:
    """Kept dice plain, discarded dice struck through, unkept dice in their own group; B marks bonus dice."""
    groups = {Fate.KEPT: "Kept", Fate.DISCARDED: "Discarded", Fate.UNKEPT: "Not kept"}
    lines = []
    for fate, name in groups.items():
        parts = [
            token(die, struck=fate is Fate.DISCARDED, label="B" if die.role is Role.BONUS else "")
            for die in dice
            if die.fate is fate
        ]
        if parts:
            lines.append(f"{name}: {tokens(parts)}")
    return " · ".join(lines) or "Nothing rolled"


def difficulty_text(test: SkTest) -> str:
    if test.kind == "conflict":
        return f"Defense {test.difficulty}"
    name = difficulty_name(test.difficulty)
    return f"{name} ({test.difficulty})" if name else f"difficulty {test.difficulty}"


def outcome_text(test: SkTest) -> tuple[str, discord.Colour]:
    if test.status == "automatic":
        return "Automatic success — no roll needed", Colour.SUCCESS
    if test.status == "no_test_dice":
        return "Fails — no test die remains, nothing to roll", Colour.FAILURE
    failure = test.failure  # rolled from here on: None for a success, else "marginal" or "critical"
    if failure is None:
        degrees = test.degrees or 0  # a rolled success has 1 to 4 (None is only for a test not rolled)
        return (
            f"{test.degree_name} success — {plural(degrees, 'degree')} (result {test.result}, "
            f"margin {test.margin})",
            Colour.SUCCESS,
        )
    colour = Colour.DISASTER if failure == "critical" else Colour.FAILURE
    return f"{failure.capitalize()} failure — result {test.result}, {test.shortfall} below", colour


def _test_card(test: SkTest, odds: SkTestOdds | None, extra: str | None = None) -> Card:
    outcome, colour = outcome_text(test)
    details = []
    if test.complication:
        details.append("A die shows 1: the Narrator may add a complication.")
    if test.pool.injuries and test.rolled:
        details.append(f"Injuries: −{test.pool.injuries} from the result.")
    if extra:
        details.append(extra)
    return Card(
        f"Seven Kingdoms {test.kind} test · {pool_text(test.pool)} vs {difficulty_text(test)}",
        outcome,
        colour,
        [("Dice", dice_line(test.dice))] if test.rolled else [],
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
    title = f"Seven Kingdoms extended test · {name} · {pool_text(test.pool)} vs {difficulty_text(test)}"
    fields = [*card.fields, ("Progress", progress_line(roll.name, roll.gained, roll.needed))]
    return embed(replace(card, title=title, fields=fields), roller, note)


def render_competition(
    competition: SkCompetition, odds: SkCompetitionOdds | None, *, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """A competition: the standings with each participant's dice, the winner or the tie at the top."""
    if competition.tie:
        outcome = f"Tie at the top: {', '.join(inert(name) for name in competition.tied)}"
    elif competition.winner is None:
        outcome = "No winner: nobody has a test die"
    elif competition.degrees:
        outcome = (
            f"{inert(competition.winner)} wins — by {competition.margin} ({competition.degree_name}, "
            f"{plural(competition.degrees, 'degree')})"
        )
    else:
        outcome = f"{inert(competition.winner)} wins"
    fields = []
    for competitor in competition.standings:
        result = "no test die" if competitor.result is None else f"**{competitor.result}**"
        dice = dice_line(competitor.dice) if competitor.dice else ""
        fields.append((f"{competitor.place}. {inert(competitor.name)} · {pool_text(competitor.pool)}",
                       f"{result} {dice}".strip()))
    card = Card(
        f"Seven Kingdoms competition · {plural(len(competition.competitors), 'participant')}",
        outcome,
        Colour.PARTIAL if competition.tie else Colour.NEUTRAL,
        fields,
        sk_competition_odds(competition, odds),
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
    card = Card("Extended tests in this channel", summary, Colour.NEUTRAL, details="\n".join(lines))
    return embed(card, roller, note)


def _fitting(lines: list[str], room: int) -> list[str]:
    """As many whole lines as fit in room characters, then how many were left out."""
    kept: list[str] = []
    for index, line in enumerate(lines):
        if sum(len(k) + 1 for k in kept) + len(line) > room:
            return [*kept, f"… and {len(lines) - index} more"]
        kept.append(line)
    return kept
