"""HEX Tests, Contests, castings and plain rolls as embeds.

Contest lines always read acting side first ("You 2 – 1 them"). "Pool" is only ever the number of dice a side
rolls; the dice that are not designated are "other dice". A ☠ marks a 1 that matters: a Hazard, Control or
Affinity die on a failed roll. Only 6s count in HEX, so large pools are sorted and summed ("45 dice: 7 sixes").
"""

from __future__ import annotations

import discord

from bot.render.common import SUCCESS_MARK, Card, Tone, Tones, embed, plural, token, tokens
from rules import odds_text
from rules.dice import Die, Role
from rules.hex.odds import HexCastOdds, HexContestOdds, HexPlainOdds, HexTestOdds
from rules.hex.roll import Hazard, HexPlain, HexResult, HexSide, Outcome
from rules.odds_text import HexOdds

_ROLE_LABEL = {Role.HAZARD: "Hazard", Role.AFFINITY: "Affinity", Role.CONTROL: "Control"}
LISTED = 12
"""Up to this many undesignated dice are listed face by face; more are summed as their count of 6s."""


def hex_odds(odds: HexOdds | None) -> str | None:
    """The exact odds of the roll as it was asked, before the dice fell."""
    return None if odds is None else odds_text.hex_line(odds)


def sixes_line(dice: list[Die] | tuple[Die, ...], many: str = "dice") -> str:
    """Dice that only count their 6s: sorted high to low, or summed when there are many ("45 dice: 7 sixes")."""
    if len(dice) > LISTED:
        sixes = sum(die.face == 6 for die in dice)
        return f"{len(dice)} {many}: {plural(sixes, 'six', 'sixes')}" + (f" {SUCCESS_MARK}" if sixes else "")
    ordered = sorted(dice, key=lambda die: -die.face)
    return tokens(token(die, success=die.face == 6) for die in ordered)


def dice_line(side: HexSide, failed: bool) -> str:
    """The side's designated dice first, each group named, ☠ on their 1s only when they count (a failed side
    without a 6); then the other dice, sorted or summed."""
    if side.nullified:
        return f"Nullified: pool {side.size}, nothing rolled"
    if not side.rolled:
        return "Nothing rolled"
    groups: dict[Role, list[str]] = {}
    for die in side.dice:
        if die.role in _ROLE_LABEL:
            skull = failed and side.successes == 0 and die.face == 1  # a 6 anywhere rules out every hazard
            groups.setdefault(die.role, []).append(token(die, success=die.face == 6, bane=skull))
    parts = [f"{_ROLE_LABEL[role]}: {tokens(shown)}" for role, shown in groups.items()]
    others = [die for die in side.dice if die.role not in _ROLE_LABEL]
    if others:
        listed = len(others) <= LISTED
        parts.append(("Other dice: " if listed else "") + sixes_line(others, "other dice"))
    return " · ".join(parts)


def _score(result: HexResult) -> str:
    """The Contest's score, acting side first."""
    assert result.opposing is not None
    return f"you {result.successes} – {result.opposing.successes} them"


def _contest_outcome(result: HexResult) -> tuple[str, Tone]:
    if result.outcome is Outcome.NEITHER:
        return "Neither side succeeds", Tones.FAILURE
    score, mos = _score(result), f"MoS {result.mos}"
    if result.outcome is Outcome.OPPOSING:
        return f"They win: {score} · {mos}", _hazard_tone(result) or Tones.FAILURE
    return f"You win: {score} · {mos}", Tones.SUCCESS


def _hazard_tone(result: HexResult) -> Tone | None:
    return Tones.DISASTER if result.hazard in (Hazard.MISHAP, Hazard.LOSS_OF_CONTROL) else None


def _outcome(result: HexResult) -> tuple[str, Tone]:
    noun = "Cast" if result.kind == "cast" else "Test"
    if result.automatic:
        return f"{noun} succeeds · Advancement spent", Tones.SUCCESS
    if result.opposing is not None:
        return _contest_outcome(result)
    if result.success:
        return f"{noun} succeeds · {plural(result.successes, 'success', 'successes')} · MoS {result.mos}", (
            Tones.SUCCESS)
    if not result.rolled:
        return f"{noun} fails · no dice remain (required)", Tones.FAILURE
    named = {Hazard.MISHAP: "Mishap", Hazard.LOSS_OF_CONTROL: "Loss of control", Hazard.FIZZLE: "Fizzle"}
    if result.hazard in named:
        return f"{named[result.hazard]} · {noun.lower()} fails", _hazard_tone(result) or Tones.FAILURE
    return f"{noun} fails · no 6", Tones.FAILURE


_HAZARD_TEXT = {
    Hazard.MISHAP: "💀 Your Mishap: no 6 and every Hazard Die shows 1 — the GM adds a consequence.",
    Hazard.LOSS_OF_CONTROL: "💀 Loss of control: a Control die shows 1 — one consequence.",
    Hazard.FIZZLE: "The Affinity die shows 1: a harmless fizzle.",
}
THEIR_MISHAP = "💀 Their Mishap: no 6 and every Hazard Die shows 1 — the GM adds a consequence."
TIES = "A tie: ties go to the acting side."


def _tied(result: HexResult) -> bool:
    """Both sides rolled and scored alike, so the acting side won on the tie rule."""
    opposing = result.opposing
    return (opposing is not None and result.acting.rolled and opposing.rolled
            and result.successes == opposing.successes)


def _pool_text(result: HexResult) -> str:
    if result.opposing is not None:
        text = f"HEX {result.kind} · your pool {result.acting.size} vs their pool {result.opposing.size}"
    else:
        text = f"HEX {result.kind} · pool {result.acting.size}"
    return text + (f" · Risk {result.risk}" if result.kind == "cast" else "")


def _fields(result: HexResult) -> list[tuple[str, str]]:
    acting_failed = not result.success
    if result.opposing is None:
        return [("Dice", dice_line(result.acting, acting_failed))] if result.acting.rolled else []
    opposing_failed = result.outcome is not Outcome.OPPOSING
    return [
        (f"You · {plural(result.successes, 'success', 'successes')}", dice_line(result.acting, acting_failed)),
        (f"Them · {plural(result.opposing.successes, 'success', 'successes')}",
         dice_line(result.opposing, opposing_failed)),
    ]


def render_result(
    result: HexResult, odds: HexTestOdds | HexContestOdds | HexCastOdds | None, *,
    roller: discord.abc.User | None = None, note: str | None = None,
) -> discord.Embed:
    """A Test, Contest or casting: the outcome, each side's dice, what the Hazard Dice brought, the damage."""
    outcome, tone = _outcome(result)
    details = [line for line in (_HAZARD_TEXT.get(result.hazard),) if line]
    if _tied(result):
        details.append(TIES)
    if result.opposing is not None and result.opposing.mishap:
        details.append(THEIR_MISHAP)
    if result.damage is not None:
        details.append(f"Damage **{result.damage}** (DV {result.dv} + MoS {result.mos})")
    card = Card(outcome, tone, _pool_text(result), _fields(result), hex_odds(odds), "\n".join(details) or None)
    return embed(card, roller, note)


def render_plain(
    result: HexPlain, odds: HexPlainOdds | None, *, roller: discord.abc.User | None = None, note: str | None = None
) -> discord.Embed:
    """A plain roll: its 6s counted, no Hazard Dice."""
    card = Card(
        plural(result.successes, "success", "successes"),
        Tones.NEUTRAL,
        f"HEX plain roll · {plural(len(result.dice), 'die', 'dice')} · no Hazard Dice",
        [("Dice", sixes_line(result.dice))],
        hex_odds(odds),
    )
    return embed(card, roller, note)
