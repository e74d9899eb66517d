"""Seven Kingdoms tests, competitions and extended tests as embeds."""

from __future__ import annotations

import discord

from bot.render.common import Card, Colour, embed, percent, plural, token, tokens
from rules.dice import Die, Fate, Role
from rules.sevenkingdoms import ExtendedProgress, SkCompetition, SkPool, SkTest, difficulty_name
from rules.sevenkingdoms_odds import SkTestOdds


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
    if test.success:
        return (
            f"{test.degree_name} success — {plural(test.degrees, 'degree')} (result {test.result}, "
            f"margin {test.margin})",
            Colour.SUCCESS,
        )
    colour = Colour.DISASTER if test.failure == "critical" else Colour.FAILURE
    return f"{test.failure.capitalize()} failure — result {test.result}, {test.shortfall} below", colour


def render_test(test: SkTest, odds: SkTestOdds | None, roller=None, note=None, extra: str | None = None):
    outcome, colour = outcome_text(test)
    details = []
    if test.complication:
        details.append("A die shows 1: the Narrator may add a complication.")
    if test.pool.injuries and test.rolled:
        details.append(f"Injuries: −{test.pool.injuries} from the result.")
    if extra:
        details.append(extra)
    card = Card(
        f"Seven Kingdoms {test.kind} test · {pool_text(test.pool)} vs {difficulty_text(test)}",
        outcome,
        colour,
        [("Dice", dice_line(test.dice))] if test.rolled else [],
        odds_line(odds) if odds is not None else None,
        "\n".join(details) or None,
    )
    return embed(card, roller, note)


def odds_line(odds: SkTestOdds) -> str | None:
    if odds.status != "rolled":
        return None
    return f"Chance: {percent(odds.success)} · expected degrees: {float(odds.expected_degrees):.2f}"


def render_competition(competition: SkCompetition, roller=None, note=None) -> discord.Embed:
    if competition.winner is None:
        outcome = "No winner: nobody has a test die"
    elif competition.tie:
        outcome = f"Tie at the top: {', '.join(competition.tied)}"
    elif competition.degrees:
        outcome = (
            f"{competition.winner} wins — by {competition.margin} ({competition.degree_name}, "
            f"{plural(competition.degrees, 'degree')})"
        )
    else:
        outcome = f"{competition.winner} wins"
    fields = []
    for competitor in competition.standings:
        result = "no test die" if competitor.result is None else f"**{competitor.result}**"
        dice = dice_line(competitor.dice) if competitor.dice else ""
        fields.append((f"{competitor.place}. {competitor.name} · {pool_text(competitor.pool)}",
                       f"{result} {dice}".strip()))
    card = Card(
        f"Seven Kingdoms competition · {plural(len(competition.competitors), 'participant')}",
        outcome,
        Colour.PARTIAL if competition.tie else Colour.NEUTRAL,
        fields,
    )
    return embed(card, roller, note)


def progress_text(progress: ExtendedProgress) -> str:
    filled = min(progress.gained, progress.needed)
    bar = "▰" * min(filled, 20) + "▱" * min(progress.needed - filled, max(0, 20 - filled))
    state = "complete!" if progress.complete else f"{progress.remaining} to go"
    return f"**{progress.name}**: {bar} {progress.gained}/{progress.needed} — {state}"
