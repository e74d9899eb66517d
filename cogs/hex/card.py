"""HEX Tests, Contests, castings and plain rolls as embeds.

Contest lines always read acting side first ("You 2 – 1 them"). "Pool" is only ever the number of dice a side
rolls; the dice that are not designated are "other dice". A ☠ marks a 1 that matters: a Hazard, Control or
Affinity die on a failed roll. Only 6s count in HEX, so large pools are sorted and summed ("45 dice: 7 sixes").
"""

from __future__ import annotations

import discord

from bot.render.common import SUCCESS_MARK, Card, Tone, Tones, embed, token, tokens
from rules import odds_text
from rules.dice import Die, Role
from rules.hex.odds import HexCastOdds, HexContestOdds, HexPlainOdds, HexTestOdds
from rules.hex.roll import Hazard, HexPlain, HexResult, HexSide, Outcome
from rules.language import N_, NP_, Speech
from rules.odds_text import HexOdds

# Translators: the HEX designated dice, named on a card ("Hazard: 6 1").
_ROLE_LABEL = {Role.HAZARD: N_("Hazard"), Role.AFFINITY: N_("Affinity"), Role.CONTROL: N_("Control")}
LISTED = 12
"""Up to this many undesignated dice are listed face by face; more are summed as their count of 6s."""


def hex_odds(odds: HexOdds | None, speech: Speech) -> str | None:
    """The exact odds of the roll as it was asked, before the dice fell."""
    return None if odds is None else odds_text.hex_line(odds, speech)


def sixes_line(dice: list[Die] | tuple[Die, ...], speech: Speech, *, others: bool = False) -> str:
    """Dice that only count their 6s: sorted high to low, or summed when there are many ("45 dice: 7 sixes")."""
    if len(dice) > LISTED:
        sixes = sum(die.face == 6 for die in dice)
        counted = speech.ngettext("{count} six", "{count} sixes", sixes)
        if others:
            # Translators: {sixes} is "7 sixes" (translated); a line of many undesignated HEX dice summed.
            summed = speech.ngettext("{count} other die: {sixes}", "{count} other dice: {sixes}", len(dice),
                                     sixes=counted)
        else:
            summed = speech.ngettext("{count} die: {sixes}", "{count} dice: {sixes}", len(dice), sixes=counted)
        return summed + (f" {SUCCESS_MARK}" if sixes else "")
    ordered = sorted(dice, key=lambda die: -die.face)
    return tokens(token(die, success=die.face == 6) for die in ordered)


def dice_line(side: HexSide, failed: bool, speech: Speech) -> str:
    """The side's designated dice first, each group named, ☠ on their 1s only when they count (a failed side
    without a 6); then the other dice, sorted or summed."""
    if side.nullified:
        return speech._("Nullified: pool {size}, nothing rolled", size=side.size)
    if not side.rolled:
        return speech._("Nothing rolled")
    groups: dict[Role, list[str]] = {}
    for die in side.dice:
        if die.role in _ROLE_LABEL:
            skull = failed and side.successes == 0 and die.face == 1  # a 6 anywhere rules out every hazard
            groups.setdefault(die.role, []).append(token(die, success=die.face == 6, bane=skull))
    parts = [f"{speech._(_ROLE_LABEL[role])}: {tokens(shown)}" for role, shown in groups.items()]
    others = [die for die in side.dice if die.role not in _ROLE_LABEL]
    if others:
        listed = sixes_line(others, speech, others=True)
        parts.append(speech._("Other dice: {dice}", dice=listed) if len(others) <= LISTED else listed)
    return " · ".join(parts)


def _score(result: HexResult, speech: Speech) -> str:
    """The Contest's score, acting side first."""
    assert result.opposing is not None
    return speech._("you {ours} – {theirs} them", ours=result.successes, theirs=result.opposing.successes)


def _contest_outcome(result: HexResult, speech: Speech) -> tuple[str, Tone]:
    if result.outcome is Outcome.NEITHER:
        return speech._("Neither side succeeds"), Tones.FAILURE
    # Translators: MoS is the Margin of Success.
    score, mos = _score(result, speech), speech._("MoS {mos}", mos=result.mos)
    if result.outcome is Outcome.OPPOSING:
        return speech._("They win: {score} · {mos}", score=score, mos=mos), _hazard_tone(result) or Tones.FAILURE
    return speech._("You win: {score} · {mos}", score=score, mos=mos), Tones.SUCCESS


def _hazard_tone(result: HexResult) -> Tone | None:
    return Tones.DISASTER if result.hazard in (Hazard.MISHAP, Hazard.LOSS_OF_CONTROL) else None


_OUTCOMES: dict[str | Hazard, tuple[str, str]] = {
    # Translators: HEX outcomes of a Test (a roll kind) and of a Cast (a magical casting).
    "succeeds": (NP_("hex test", "Test succeeds"), NP_("hex cast", "Cast succeeds")),
    "advancement": (NP_("hex test", "Test succeeds · Advancement spent"),
                    NP_("hex cast", "Cast succeeds · Advancement spent")),
    "no dice": (NP_("hex test", "Test fails · no dice remain (required)"),
                NP_("hex cast", "Cast fails · no dice remain (required)")),
    "no 6": (NP_("hex test", "Test fails · no 6"), NP_("hex cast", "Cast fails · no 6")),
    Hazard.MISHAP: (NP_("hex test", "Mishap · test fails"), NP_("hex cast", "Mishap · cast fails")),
    Hazard.LOSS_OF_CONTROL: (NP_("hex test", "Loss of control · test fails"),
                             NP_("hex cast", "Loss of control · cast fails")),
    Hazard.FIZZLE: (NP_("hex test", "Fizzle · test fails"), NP_("hex cast", "Fizzle · cast fails")),
}


def _said(result: HexResult, key: str | Hazard, speech: Speech) -> str:
    cast = result.kind == "cast"
    return speech.pgettext("hex cast" if cast else "hex test", _OUTCOMES[key][cast])


def _outcome(result: HexResult, speech: Speech) -> tuple[str, Tone]:
    if result.automatic:
        return _said(result, "advancement", speech), Tones.SUCCESS
    if result.opposing is not None:
        return _contest_outcome(result, speech)
    if result.success:
        successes = speech.ngettext("{count} success", "{count} successes", result.successes)
        return f"{_said(result, 'succeeds', speech)} · {successes} · {speech._('MoS {mos}', mos=result.mos)}", (
            Tones.SUCCESS)
    if not result.rolled:
        return _said(result, "no dice", speech), Tones.FAILURE
    if result.hazard in (Hazard.MISHAP, Hazard.LOSS_OF_CONTROL, Hazard.FIZZLE):
        return _said(result, result.hazard, speech), _hazard_tone(result) or Tones.FAILURE
    return _said(result, "no 6", speech), Tones.FAILURE


_HAZARD_TEXT = {
    Hazard.MISHAP: N_("💀 Your Mishap: no 6 and every Hazard Die shows 1 — the GM adds a consequence."),
    Hazard.LOSS_OF_CONTROL: N_("💀 Loss of control: a Control die shows 1 — one consequence."),
    Hazard.FIZZLE: N_("The Affinity die shows 1: a harmless fizzle."),
}
THEIR_MISHAP = N_("💀 Their Mishap: no 6 and every Hazard Die shows 1 — the GM adds a consequence.")
TIES = N_("A tie: ties go to the acting side.")


def _tied(result: HexResult) -> bool:
    """Both sides rolled and scored alike, so the acting side won on the tie rule."""
    opposing = result.opposing
    return (opposing is not None and result.acting.rolled and opposing.rolled
            and result.successes == opposing.successes)


_KIND = {
    # Translators: the kind of a HEX roll, in a card's first line ("HEX test · pool 5").
    "test": NP_("hex roll kind", "test"), "cast": NP_("hex roll kind", "cast"),
}


def _pool_text(result: HexResult, speech: Speech) -> str:
    kind = speech.pgettext("hex roll kind", _KIND.get(result.kind, result.kind))
    if result.opposing is not None:
        text = speech._("HEX {kind} · your pool {ours} vs their pool {theirs}", kind=kind, ours=result.acting.size,
                        theirs=result.opposing.size)
    else:
        text = speech._("HEX {kind} · pool {size}", kind=kind, size=result.acting.size)
    return text + (" · " + speech._("Risk {risk}", risk=result.risk) if result.kind == "cast" else "")


def _fields(result: HexResult, speech: Speech) -> list[tuple[str, str]]:
    acting_failed = not result.success
    if result.opposing is None:
        return [(speech._("Dice"), dice_line(result.acting, acting_failed, speech))] if result.acting.rolled else []
    opposing_failed = result.outcome is not Outcome.OPPOSING
    ours = speech.ngettext("{count} success", "{count} successes", result.successes)
    theirs = speech.ngettext("{count} success", "{count} successes", result.opposing.successes)
    return [
        # Translators: a Contest card's field names: the acting side ("You") and the opposing side ("Them").
        (speech._("You · {successes}", successes=ours), dice_line(result.acting, acting_failed, speech)),
        (speech._("Them · {successes}", successes=theirs), dice_line(result.opposing, opposing_failed, speech)),
    ]


def render_result(
    result: HexResult, odds: HexTestOdds | HexContestOdds | HexCastOdds | None, *, speech: Speech,
    roller: discord.abc.User | None = None, note: str | None = None,
) -> discord.Embed:
    """A Test, Contest or casting: the outcome, each side's dice, what the Hazard Dice brought, the damage."""
    outcome, tone = _outcome(result, speech)
    hazard = _HAZARD_TEXT.get(result.hazard) if result.hazard is not None else None
    details = [speech._(hazard)] if hazard else []
    if _tied(result):
        details.append(speech._(TIES))
    if result.opposing is not None and result.opposing.mishap:
        details.append(speech._(THEIR_MISHAP))
    if result.damage is not None:
        # Translators: DV is the Damage Value, MoS the Margin of Success.
        details.append(speech._("Damage **{damage}** (DV {dv} + MoS {mos})", damage=result.damage, dv=result.dv,
                                mos=result.mos))
    card = Card(outcome, tone, _pool_text(result, speech), _fields(result, speech), hex_odds(odds, speech),
                "\n".join(details) or None)
    return embed(card, speech, roller, note)


def render_plain(
    result: HexPlain, odds: HexPlainOdds | None, *, speech: Speech, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """A plain roll: its 6s counted, no Hazard Dice."""
    card = Card(
        speech.ngettext("{count} success", "{count} successes", result.successes),
        Tones.NEUTRAL,
        speech.ngettext("HEX plain roll · {count} die · no Hazard Dice",
                        "HEX plain roll · {count} dice · no Hazard Dice", len(result.dice)),
        [(speech._("Dice"), sixes_line(result.dice, speech))],
        hex_odds(odds, speech),
    )
    return embed(card, speech, roller, note)
