"""Heroic Rolls as embeds.

A Crit or Fumble is named once, in the title with what it brings ("Fumble · drops the weapon"); the details give
the table entry first and the damage once; the die that made it is marked where the dice are shown.
"""

from __future__ import annotations

import discord

from bot.render.common import Card, Tone, Tones, embed, token, tokens
from rules import odds_text
from rules.heroic.odds import HeroicOdds
from rules.heroic.roll import Consequence, HeroicRoll, Outcome, TargetSource
from rules.language import N_, Speech

_OUTCOME = {
    # Translators: the outcomes of a Heroic Roll, a card's title.
    Outcome.CRIT: (N_("Critical success"), Tones.CRIT),
    Outcome.SUCCESS: (N_("Success"), Tones.SUCCESS),
    Outcome.SUCCESS_WITH_COMPLICATION: (N_("Success, with a complication"), Tones.PARTIAL),
    Outcome.FAILURE: (N_("Failure"), Tones.FAILURE),
    Outcome.FUMBLE: (N_("Fumble"), Tones.DISASTER),
}

_HEADLINE = {
    # Translators: what a Crit or Fumble brings, after the outcome in a card's title ("Fumble · falls over").
    Consequence.DOUBLE_DAMAGE: N_("double damage"),
    Consequence.FREE_ACTION: N_("one free action"),
    Consequence.CRITICAL_DAMAGE: N_("critical damage (double)"),
    Consequence.FALLS_OVER: N_("falls over"),
    Consequence.DROPS_WEAPON: N_("drops the weapon"),
    Consequence.INJURES_ALLY: N_("injures an ally"),
    Consequence.INJURES_SELF: N_("injures themself"),
    Consequence.SPELL_MISCAST: N_("roll on the Spell Miscast Table"),
}

KIND_NAMES = {
    # Translators: what a Heroic Roll is for (shown on its card, and as a choice with "Reaction: ..." names).
    "task": N_("task"), "attack": N_("attack"), "spell": N_("spell"), "reaction": N_("reaction"),
}


def heroic_odds(odds: HeroicOdds | None, speech: Speech) -> str | None:
    return None if odds is None else odds_text.heroic_line(odds, speech)


def target_text(roll: HeroicRoll, speech: Speech) -> str:
    target = roll.target
    if target.source is TargetSource.DIFFICULTY and target.difficulty is not None:
        # Translators: TN is the Target Number; {difficulty} a difficulty name (Hard, ...).
        return speech._("TN {tn} ({difficulty})", tn=target.tn, difficulty=speech._(target.difficulty.label))
    if target.source is TargetSource.VERSUS:
        return speech._("TN {tn} ({base} + opposing Skill {skill})", tn=target.tn, base=roll.variant.versus_base,
                        skill=target.versus)
    return speech._("TN {tn}", tn=target.tn)


def _kind_text(roll: HeroicRoll, speech: Speech) -> str:
    reaction = roll.kind.reaction
    if reaction is not None:
        name = speech._(reaction.name)
        if reaction.skill:
            return speech._("reaction: {name} ({skill})", name=name, skill=speech._(reaction.skill))
        return speech._("reaction: {name}", name=name)
    return speech._(KIND_NAMES.get(roll.kind.value, roll.kind.value))


def _outcome(roll: HeroicRoll, speech: Speech) -> tuple[str, Tone]:
    outcome, tone = _OUTCOME[roll.outcome]
    said = speech._(outcome)
    if roll.consequence is not None:
        said += f" · {speech._(_HEADLINE[roll.consequence])}"
    return said, tone


def _dice(roll: HeroicRoll, speech: Speech) -> str:
    """The dice, those that made a Crit (⭐) or Fumble (💀) marked, the total against the TN."""
    mark = {Outcome.CRIT: "⭐", Outcome.FUMBLE: "💀"}.get(roll.outcome, "")
    faces = tokens(token(die) + mark for die in roll.dice)
    return speech._("{faces} + Skill {skill} = **{total}** vs TN {tn}", faces=faces, skill=roll.skill,
                    total=roll.total, tn=roll.tn)


def _consequence(roll: HeroicRoll, speech: Speech) -> str | None:
    """A Combat Fumble's full table entry, its d6 first; other Crits and Fumbles say all in the title."""
    if roll.consequence is None or roll.fumble_table is None:
        return None
    entry = speech._(roll.consequence.text).split(": ", 1)[-1]
    return speech._("Combat Fumble table {face}: {entry}", face=token(roll.fumble_table), entry=entry)


def _damage(roll: HeroicRoll, speech: Speech) -> str | None:
    """The damage once: half of it for a Combat Fumble entry, doubled for a Crit or critical damage."""
    if roll.half_damage is not None:
        half = roll.half_damage
        shown = speech.number(int(half)) if half.denominator == 1 else speech.decimal(half)
        return speech._("Half damage **{half}** (half of {damage})", half=shown, damage=roll.damage)
    doubled = roll.consequence in (Consequence.DOUBLE_DAMAGE, Consequence.CRITICAL_DAMAGE)
    how = f" (2 × {roll.damage})" if doubled else ""
    if roll.damage_dealt:
        return speech._("Damage dealt **{damage}**", damage=roll.damage_dealt) + how
    if roll.damage_taken is not None:
        return speech._("Damage taken **{damage}**", damage=roll.damage_taken) + how
    return None


def render_roll(
    roll: HeroicRoll, odds: HeroicOdds | None, *, speech: Speech, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """A Heroic Roll: the outcome and what a Crit or Fumble brings, the dice and total against the TN."""
    outcome, tone = _outcome(roll, speech)
    details = [line for line in (_consequence(roll, speech), _damage(roll, speech)) if line]
    card = Card(
        outcome,
        tone,
        # Translators: a Heroic card's first line: "Heroic · 2d6 + Skill 5 · task · TN 10".
        speech._("Heroic · {dice} + Skill {skill} · {kind} · {target}", dice=roll.variant.value, skill=roll.skill,
                 kind=_kind_text(roll, speech), target=target_text(roll, speech)),
        [(speech._("Dice"), _dice(roll, speech))],
        heroic_odds(odds, speech),
        "\n".join(details) or None,
    )
    return embed(card, speech, roller, note)
