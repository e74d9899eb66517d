"""Seven Kingdoms tests, competitions and extended tests as embeds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import discord

from bot.render.common import COMPLICATION_MARK, DESCRIPTION, Card, Tone, Tones, embed, token, tokens
from bot.text import inert
from rules import odds_text
from rules.dice import Die, Fate
from rules.language import N_, Speech
from rules.sevenkingdoms.competition import SkCompetition
from rules.sevenkingdoms.extended import ExtendedProgress
from rules.sevenkingdoms.odds import SkCompetitionOdds, SkTestOdds
from rules.sevenkingdoms.roll import DEGREE_NAMES, SkPool, SkTest, difficulty_name


def sk_test_odds(odds: SkTestOdds | None, speech: Speech) -> str | None:
    """None also when nothing is rolled (an Automatic test, or no test die): the card already says why."""
    if odds is None or odds.status != "rolled":
        return None
    return odds_text.sk_test_line(odds, speech)


def sk_win_chances(odds: SkCompetitionOdds | None, speech: Speech) -> tuple[str, ...] | None:
    """Each participant's chance to win outright, in input order, for their own line of the standings."""
    if odds is None:
        return None
    return tuple(speech._("{chance} to win", chance=speech.percent(win)) for win in odds.win)


def sk_tie_odds(odds: SkCompetitionOdds | None, speech: Speech) -> str | None:
    """The footer of a competition: the chance of a tie at the top (each win chance is on its own line)."""
    return None if odds is None else odds_text.sk_tie_line(odds.tie, speech)


def pool_text(pool: SkPool, speech: Speech) -> str:
    text = pool.notation
    extras = []
    if pool.aid:
        # Translators: a Seven Kingdoms pool helped by another character (+1 bonus die).
        extras.append(speech._("aided"))
    if pool.wounds:
        extras.append(speech.ngettext("{count} wound", "{count} wounds", pool.wounds))
    if pool.pool_penalty:
        extras.append(speech._("pool penalty {penalty}", penalty=pool.pool_penalty))
    if pool.injuries:
        extras.append(speech.ngettext("{count} injury", "{count} injuries", pool.injuries))
    return f"{text} ({', '.join(extras)})" if extras else text


_FATES = {
    # Translators: Seven Kingdoms dice groups: kept dice, discarded dice (a penalty), dice rolled but not kept.
    Fate.KEPT: N_("Kept"), Fate.DISCARDED: N_("Discarded"), Fate.UNKEPT: N_("Not kept"),
}


def dice_line(dice: tuple[Die, ...], speech: Speech, failed: bool = False) -> str:
    """Kept dice, discarded dice struck through, unkept dice: each group sorted high to low. Test and bonus dice
    are pooled, so they are not told apart. On a failed test, a 1 (the complication) is marked ⚠."""
    lines = []
    for fate, name in _FATES.items():
        faces = sorted((die.face for die in dice if die.fate is fate), reverse=True)
        parts = [token(face, struck=fate is Fate.DISCARDED) + (COMPLICATION_MARK if failed and face == 1 else "")
                 for face in faces]
        if parts:
            lines.append(f"{speech._(name)}: {tokens(parts)}")
    return " · ".join(lines) or speech._("Nothing rolled")


def difficulty_text(test: SkTest, speech: Speech) -> str:
    if test.kind == "conflict":
        return speech._("Defense {defense}", defense=test.difficulty)
    name = difficulty_name(test.difficulty)
    if name:
        return speech._("{name} ({number})", name=speech._(name), number=test.difficulty)
    return speech._("difficulty {number}", number=test.difficulty)


_SUCCESSES: dict[str, str] = {
    # Translators: a Seven Kingdoms success by its degree (Marginal, Great, Incredible, Astonishing).
    DEGREE_NAMES[0]: N_("Marginal success"), DEGREE_NAMES[1]: N_("Great success"),
    DEGREE_NAMES[2]: N_("Incredible success"), DEGREE_NAMES[3]: N_("Astonishing success"),
}
# Translators: a Seven Kingdoms failure 1-4 below the difficulty (marginal) or 5 or more (critical).
_FAILURES = {"marginal": N_("Marginal failure"), "critical": N_("Critical failure")}


def outcome_text(test: SkTest, speech: Speech) -> tuple[str, Tone]:
    if test.status == "automatic":
        return speech._("Automatic success · no roll needed"), Tones.SUCCESS
    if test.status == "no_test_dice":
        return speech._("Fails · no test die remains, nothing rolled"), Tones.FAILURE
    failure = test.failure  # rolled from here on: None for a success, else "marginal" or "critical"
    if failure is None:
        degrees = speech.ngettext("{count} degree", "{count} degrees", test.degrees or 0)
        return f"{speech._(_SUCCESSES[test.degree_name or DEGREE_NAMES[0]])} · {degrees}", Tones.SUCCESS
    tone = Tones.DISASTER if failure == "critical" else Tones.FAILURE
    return f"{speech._(_FAILURES[failure])} · " + speech._("{count} below", count=test.shortfall), tone


def _system(kind: str, speech: Speech) -> str:
    """The line under the title names the system, and the kind when it is not a basic test."""
    # Translators: "Seven Kingdoms" is the game system; the kinds are conflict test, competition, extended test.
    return {"basic": speech._("Seven Kingdoms"), "conflict": speech._("Seven Kingdoms conflict"),
            "competition": speech._("Seven Kingdoms competition"),
            "extended": speech._("Seven Kingdoms extended")}.get(kind, f"Seven Kingdoms {kind}")


def _result_name(test: SkTest, speech: Speech) -> str:
    """The Dice field's name: the result, and its margin when it succeeded."""
    if test.success:
        return speech._("Result {result} · margin {margin}", result=test.result, margin=test.margin)
    return speech._("Result {result}", result=test.result)


def _test_card(test: SkTest, odds: SkTestOdds | None, speech: Speech, extra: str | None = None) -> Card:
    outcome, tone = outcome_text(test, speech)
    details = []
    if test.complication:
        # Translators: the Narrator is the game master of Seven Kingdoms.
        details.append(speech._("{mark} A die shows 1: the Narrator may add a complication.", mark=COMPLICATION_MARK))
    if test.pool.injuries and test.rolled:
        details.append(speech._("Injuries: −{count} from the result.", count=test.pool.injuries))
    if extra:
        details.append(extra)
    return Card(
        outcome,
        tone,
        speech._("{system} · {pool} vs {difficulty}", system=_system(test.kind, speech),
                 pool=pool_text(test.pool, speech), difficulty=difficulty_text(test, speech)),
        ([(_result_name(test, speech), dice_line(test.dice, speech, failed=not test.success))]
         if test.rolled else []),
        sk_test_odds(odds, speech),
        "\n".join(details) or None,
    )


def render_test(
    test: SkTest, odds: SkTestOdds | None, *, speech: Speech, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """A basic or conflict test: the dice kept and discarded, success and degrees or how far it fell short."""
    return embed(_test_card(test, odds, speech), speech, roller, note)


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
    roll: ExtendedRoll, odds: SkTestOdds | None, *, speech: Speech, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """One roll of an extended test: the test as usual, what it added, the task's progress bar."""
    test, name = roll.test, inert(roll.name)
    if roll.added:
        extra = speech.ngettext("Progress +{count} degree.", "Progress +{count} degrees.", roll.added)
    else:
        extra = speech._("No progress this time.")
    if roll.completed:
        # Translators: {name} is the task's name, as its starter typed it.
        extra += "\n" + speech._("🏁 **{name} is complete!**", name=name)
    card = _test_card(test, odds, speech, extra)
    pool = speech._("{system} · {pool} vs {difficulty}", system=_system("extended", speech),
                    pool=pool_text(test.pool, speech), difficulty=difficulty_text(test, speech))  # task: under Progress
    fields = [*card.fields, (speech._("Progress"), progress_line(roll.name, roll.gained, roll.needed, speech))]
    return embed(replace(card, pool=pool, fields=fields), speech, roller, note)


def _competition_outcome(competition: SkCompetition, speech: Speech) -> tuple[str, Tone]:
    if competition.tie:
        names = ", ".join(inert(name) for name in competition.tied)
        return speech._("Tie at the top · {names}", names=names), Tones.TIE
    if competition.winner is None:
        return speech._("No winner · nobody has a test die"), Tones.FAILURE
    winner = inert(competition.winner)
    if competition.degrees:
        degree = speech._(competition.degree_name or DEGREE_NAMES[0])
        # Translators: {winner} is a participant's name; {degree} a degree name (Great, ...), {count} their number.
        return (speech.ngettext("{winner} wins · by {margin} ({degree}, {count} degree)",
                                "{winner} wins · by {margin} ({degree}, {count} degrees)", competition.degrees,
                                winner=winner, margin=competition.margin, degree=degree), Tones.WINNER)
    return speech._("{winner} wins", winner=winner), Tones.WINNER


def _standings(competition: SkCompetition, odds: SkCompetitionOdds | None, speech: Speech) -> list[tuple[str, str]]:
    """One field per participant in order of place: name, pool and chance to win; result and dice."""
    chances = sk_win_chances(odds, speech)
    fields = []
    for competitor in competition.standings:
        name = f"{competitor.place}. {inert(competitor.name)} · {pool_text(competitor.pool, speech)}"
        if chances is not None:
            name += f" · {chances[competition.competitors.index(competitor)]}"
        result = speech._("no test die") if competitor.result is None else f"**{competitor.result}**"
        dice = dice_line(competitor.dice, speech) if competitor.dice else ""
        fields.append((name, f"{result} · {dice}" if dice else result))
    return fields


def render_competition(
    competition: SkCompetition, odds: SkCompetitionOdds | None, *, speech: Speech,
    roller: discord.abc.User | None = None, note: str | None = None,
) -> discord.Embed:
    """A competition: the winner or the tie at the top, then the standings with each participant's dice."""
    outcome, tone = _competition_outcome(competition, speech)
    card = Card(
        outcome,
        tone,
        speech.ngettext("Seven Kingdoms competition · {count} participant",
                        "Seven Kingdoms competition · {count} participants", len(competition.competitors)),
        _standings(competition, odds, speech),
        sk_tie_odds(odds, speech),
    )
    return embed(card, speech, roller, note)


BAR_MARKS = 20


def progress_line(name: str, gained: int, needed: int, speech: Speech) -> str:
    """A task's progress bar: one mark per degree, scaled down to 20 marks (full only when complete)."""
    width = min(needed, BAR_MARKS)
    filled = min(gained, needed) * width // needed
    bar = "▰" * filled + "▱" * (width - filled)
    state = speech._("complete!") if gained >= needed else speech._("{count} to go", count=needed - gained)
    return f"**{inert(name)}**: {bar} {gained}/{needed} — {state}"


def progress_text(progress: ExtendedProgress, speech: Speech) -> str:
    return progress_line(progress.name, progress.gained, progress.needed, speech)


def render_tasks(
    tasks: Sequence[tuple[str, int, int]], odds: None, *, speech: Speech, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """The extended tests of a channel, one progress bar each: (name, gained, needed) as stored.

    A list has no odds: ``odds`` is always None, there to keep the one signature of every renderer.
    """
    done = sum(gained >= needed for _, gained, needed in tasks)
    if tasks:
        summary = speech.ngettext("{count} task, {done} complete", "{count} tasks, {done} complete", len(tasks),
                                  done=done)
    else:
        summary = speech._("No extended tests here")
    lines = _fitting([progress_line(*task, speech) for task in tasks], DESCRIPTION - 200, speech)
    if not tasks:
        lines.append(speech._("Start one with /test extended, giving the task and the degrees it needs."))
    card = Card(summary, Tones.PROGRESS, speech._("Seven Kingdoms · extended tests in this channel"),
                details="\n".join(lines))
    return embed(card, speech, roller, note)


def _fitting(lines: list[str], room: int, speech: Speech) -> list[str]:
    """As many whole lines as fit in room characters, then how many were left out."""
    kept: list[str] = []
    for index, line in enumerate(lines):
        if sum(len(k) + 1 for k in kept) + len(line) > room:
            return [*kept, speech._("… and {count} more", count=len(lines) - index)]
        kept.append(line)
    return kept
