"""HEX Tests, Contests, castings and plain rolls as embeds."""

from __future__ import annotations

import discord

from bot.render.common import Card, Colour, embed, percent, plural, token, tokens
from rules.dice import Role
from rules.hex import Hazard, HexPlain, HexResult, HexSide, Outcome
from rules.hex_odds import HexCastOdds, HexContestOdds, HexPlainOdds, HexTestOdds

_ROLE_LABEL = {Role.HAZARD: "Hazard", Role.AFFINITY: "Affinity", Role.CONTROL: "Control", Role.BASE: "Pool"}


def dice_line(side: HexSide) -> str:
    """The side's dice grouped by role: designated dice first, skulls marked on designated dice only."""
    if side.nullified:
        return f"Nullified: pool {side.size}, nothing rolled"
    if not side.rolled:
        return "Nothing rolled"
    groups: dict[Role, list[str]] = {}
    for die in side.dice:
        skull = die.face == 1 and die.role is not Role.BASE
        groups.setdefault(die.role, []).append(token(die, success=die.face == 6, bane=skull))
    return " · ".join(f"{_ROLE_LABEL[role]}: {tokens(parts)}" for role, parts in groups.items())


def _mishap_line(who: str = "") -> str:
    return f"☠ **Mishap**{who}: no 6 and every Hazard Die shows 1 — the GM adds a consequence."


def _hazard_line(hazard: Hazard) -> str | None:
    return {
        Hazard.MISHAP: _mishap_line(),
        Hazard.LOSS_OF_CONTROL: "☠ **Loss of control**: a Control die shows 1 — one consequence.",
        Hazard.FIZZLE: "The Affinity die shows 1: a harmless fizzle.",
    }.get(hazard)


def _outcome(result: HexResult) -> tuple[str, discord.Colour]:
    noun = "Cast" if result.kind == "cast" else "Test"
    if result.automatic:
        return f"Automatic success (Advancement spent) — {noun} succeeds, MoS 0", Colour.SUCCESS
    if result.outcome is Outcome.NEITHER:
        return "Neither side succeeds", Colour.FAILURE
    if result.opposing is not None and result.outcome is Outcome.OPPOSING:
        return f"The opposition wins — {result.opposing.successes} vs {result.successes}, MoS {result.mos}", (
            Colour.FAILURE
        )
    if result.opposing is not None:
        return f"{noun} succeeds — {result.successes} vs {result.opposing.successes}, MoS {result.mos}", (
            Colour.SUCCESS
        )
    if result.success:
        return f"{noun} succeeds — {plural(result.successes, 'success', 'successes')}, MoS {result.mos}", (
            Colour.SUCCESS
        )
    if not result.rolled:
        return f"{noun} fails automatically — no dice remain (required)", Colour.FAILURE
    colour = Colour.DISASTER if result.hazard in (Hazard.MISHAP, Hazard.LOSS_OF_CONTROL) else Colour.FAILURE
    return f"{noun} fails — no 6", colour


def _pool_text(result: HexResult) -> str:
    text = f"Pool {result.acting.size}"
    if result.kind == "cast":
        text += f", Risk {result.risk}"
    if result.opposing is not None:
        text += f" vs opposing pool {result.opposing.size}"
    return text


def render_result(result: HexResult, odds_text: str | None, roller=None, note=None) -> discord.Embed:
    outcome, colour = _outcome(result)
    fields = [("Dice" if result.opposing is None else "Acting side", dice_line(result.acting))]
    if result.opposing is not None:
        fields.append(("Opposing side", dice_line(result.opposing)))
    details = [line for line in (_hazard_line(result.hazard),) if line]
    if result.opposing is not None and result.opposing.mishap:
        details.append(_mishap_line(" (opposing side)"))
    if result.damage is not None:
        details.append(f"Damage **{result.damage}** (DV {result.dv} + MoS {result.mos})")
    title = f"HEX {result.kind} · {_pool_text(result)}"
    card = Card(title, outcome, colour, fields, odds_text, "\n".join(details) or None)
    return embed(card, roller, note)


def render_plain(result: HexPlain, roller=None, note=None, odds_text: str | None = None) -> discord.Embed:
    line = tokens(token(die, success=die.face == 6) for die in result.dice)
    card = Card(
        f"HEX plain roll · {len(result.dice)} dice (no Hazard Dice)",
        plural(result.successes, "success", "successes"),
        Colour.NEUTRAL,
        [("Dice", line)],
        odds_text,
    )
    return embed(card, roller, note)


def odds_line(odds: HexTestOdds | HexContestOdds | HexCastOdds | HexPlainOdds) -> str:
    """The exact odds of the roll as it was asked, before the dice fell."""
    if isinstance(odds, HexPlainOdds):
        expected = float(odds.expected_successes)
        return f"At least one 6: {percent(odds.at_least_one)} · expected 6s: {expected:.2f}"
    if isinstance(odds, HexContestOdds):
        return f"Chance to win: {percent(odds.acting_wins)} · Mishap: {percent(odds.acting_mishap)}"
    if isinstance(odds, HexCastOdds):
        return (
            f"Chance: {percent(odds.success)} · loss of control: {percent(odds.loss_of_control)}"
            f" · fizzle: {percent(odds.fizzle)}"
        )
    return f"Chance: {percent(odds.success)} · Mishap: {percent(odds.mishap)}"
