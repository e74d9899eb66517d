"""HEX Tests, Contests, castings and plain rolls as embeds."""

from __future__ import annotations

import discord

from bot.render.common import Card, Colour, embed, plural, token, tokens
from bot.render.odds import hex_odds
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


def render_result(
    result: HexResult, odds: HexTestOdds | HexContestOdds | HexCastOdds | None, *,
    roller: discord.abc.User | None = None, note: str | None = None,
) -> discord.Embed:
    """A Test, Contest or casting: each side's dice, the outcome, what the Hazard Dice brought, the damage."""
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
    card = Card(title, outcome, colour, fields, hex_odds(odds), "\n".join(details) or None)
    return embed(card, roller, note)


def render_plain(
    result: HexPlain, odds: HexPlainOdds | None, *, roller: discord.abc.User | None = None, note: str | None = None
) -> discord.Embed:
    """A plain roll: its 6s counted, no Hazard Dice."""
    line = tokens(token(die, success=die.face == 6) for die in result.dice)
    card = Card(
        f"HEX plain roll · {len(result.dice)} dice (no Hazard Dice)",
        plural(result.successes, "success", "successes"),
        Colour.NEUTRAL,
        [("Dice", line)],
        hex_odds(odds),
    )
    return embed(card, roller, note)

