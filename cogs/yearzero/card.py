"""Year Zero rolls, first and pushed, as embeds."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.render.common import Card, Tone, Tones, embed, token
from rules import odds_text
from rules.dice import Die, Role
from rules.language import N_, Speech
from rules.yearzero.artifacts import ARTIFACT_NAMES
from rules.yearzero.dice import PRIDE_NAME, die_successes, is_bane
from rules.yearzero.odds import PushOdds, YzOdds, odds_after_first
from rules.yearzero.roll import YzRoll

# Translators: a bane is a 1 on a base or gear die (Forbidden Lands): use your edition's term.
BANES_NOTE = N_("Banes (☠) do nothing on the first roll.")
NOTHING_TO_PUSH = N_("Nothing to push: every die shows 6 or 1.")
# Translators: a card's field name (at most 256 characters); ↻ marks the rerolled dice.
PUSHED_DICE = N_("Dice after the push (↻ rerolled)")
NO_COST = N_("No banes: the push cost nothing.")


def yz_odds(pool: YzOdds | None, speech: Speech) -> str | None:
    """The pool's chance before rolling and with a push."""
    return None if pool is None else odds_text.yz_pool_line(pool, speech)


def yz_push_cost(this_roll: PushOdds | None, speech: Speech) -> str | None:
    """What pushing this roll would bring and cost; None when it cannot be pushed."""
    if this_roll is None or not this_roll.can_push:
        return None
    return odds_text.yz_push_cost(this_roll, speech)


def pool_text(roll: YzRoll, speech: Speech) -> str:
    parts = [speech._("Attribute {attribute} + Skill {skill}", attribute=roll.attribute, skill=roll.skill)]
    if roll.gear:
        parts.append(speech._("Gear {gear}", gear=roll.gear))
    parts.extend(f"d{sides} {speech._(ARTIFACT_NAMES[sides])}" for sides in roll.artifacts)
    if roll.pride:
        parts.append(speech._(PRIDE_NAME))
    return " + ".join(parts)


def _die(die: Die) -> str:
    """One die as shown: its face, ⚔ when it scores (×N for more than one success), ☠ for a bane."""
    label = f"d{die.sides}:" if die.role is Role.ARTIFACT else ""
    text = token(die, success=die_successes(die) > 0, bane=is_bane(die), label=label)
    if die_successes(die) > 1:
        text += f"×{die_successes(die)}"
    return text


def _faces_shown(sides: int, role: Role) -> tuple[str, ...]:
    return ("", *(_die(Die(sides, face, role)) for face in range(1, sides + 1)))


_SHOWN = {6: _faces_shown(6, Role.BASE), **{sides: _faces_shown(sides, Role.ARTIFACT) for sides in ARTIFACT_NAMES}}
"""Every face of every die as shown, by sides and then face: a d6 is a base or gear die (both show alike), the
others are Artifact dice. Rolls show the same few faces over and over, so they are written once here."""


def _shown(die: Die) -> str:
    faces = _SHOWN.get(die.sides) if type(die.sides) is int else None
    return faces[die.face] if faces is not None else _die(die)


def dice_line(roll: YzRoll, speech: Speech) -> str:
    """Base, gear and Artifact dice in groups; the dice a push rerolled after a ↻ at the end of their group."""
    rerolled = set(roll.rerolled)
    lines = []
    for name, positions in _groups(roll, speech):
        kept = [_shown(roll.dice[i]) for i in positions if i not in rerolled]
        new = [_shown(roll.dice[i]) for i in positions if i in rerolled]
        shown = " ".join(kept) + (f" ↻ {' '.join(new)}" if new else "")
        if shown:
            lines.append(f"{name}: {shown.strip()}")
    return "\n".join(lines)


def _groups(roll: YzRoll, speech: Speech) -> tuple[tuple[str, range], ...]:
    """Where each group lies in the roll's dice: base dice, gear dice, Artifact dice, then the Pride die."""
    base = roll.attribute + roll.skill
    d6 = base + roll.gear
    artifacts = d6 + len(roll.artifacts)
    return (
        # Translators: names of the Year Zero dice groups on a card (base dice, gear dice, Artifact dice).
        (speech.pgettext("dice group", "Base"), range(base)),
        (speech.pgettext("dice group", "Gear"), range(base, d6)),
        (speech.pgettext("dice group", "Artifact"), range(d6, artifacts)),
        (speech._(PRIDE_NAME), range(artifacts, len(roll.dice))),
    )


def _successes(roll: YzRoll, speech: Speech) -> str:
    if not roll.success:
        return speech._("No success")
    return speech.ngettext("{count} success", "{count} successes", roll.successes)


def _tone(roll: YzRoll) -> Tone:
    return Tones.SUCCESS if roll.success else Tones.FAILURE


@dataclass(frozen=True, slots=True)
class FirstRollOdds:
    """What a first roll shows of odds: the pool's odds before rolling, and the odds of pushing this roll."""

    pool: YzOdds
    this_roll: PushOdds


def pushes_text(roll: YzRoll, speech: Speech) -> str:
    """What the next push would reroll, and who may make it how often; why not when it cannot be pushed."""
    if not roll.can_push:
        return speech._("This roll may not be pushed.") if roll.pushes_allowed == 0 else speech._(NOTHING_TO_PUSH)
    count = len(roll.reroll_indices)
    if roll.pushes_allowed == 1:
        return speech.ngettext("Push (only you, once) to reroll {count} die.",
                               "Push (only you, once) to reroll {count} dice.", count)
    left = speech.ngettext("{count} push left", "{count} pushes left", roll.pushes_left)
    if roll.pushed:
        # Translators: {left} is "1 push left" or "2 pushes left", translated.
        return speech.ngettext("Push again (only you; {left}) to reroll {count} die.",
                               "Push again (only you; {left}) to reroll {count} dice.", count, left=left)
    return speech.ngettext("Push (only you; {left}) to reroll {count} die.",
                           "Push (only you; {left}) to reroll {count} dice.", count, left=left)


def _push_line(roll: YzRoll, odds: FirstRollOdds | None, speech: Speech) -> str:
    rerolls = pushes_text(roll, speech)
    if not roll.can_push:
        return rerolls
    cost = yz_push_cost(odds.this_roll, speech) if odds is not None else None
    return f"{rerolls}\n{cost}" if cost else rerolls


def render_first(
    roll: YzRoll, odds: FirstRollOdds | None, *, speech: Speech, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """A first roll: its successes, its dice, what a push would reroll and what pushing would cost."""
    details = _push_line(roll, odds, speech)
    if roll.base_banes or roll.gear_banes:
        details += "\n" + speech._(BANES_NOTE)
    card = Card(
        _successes(roll, speech),
        _tone(roll),
        speech._("Year Zero · {pool}", pool=pool_text(roll, speech)),
        [(speech._("Dice"), dice_line(roll, speech))],
        yz_odds(odds.pool, speech) if odds is not None else None,
        details,
    )
    return embed(card, speech, roller, note)


@dataclass(frozen=True, slots=True)
class PushedRoll:
    """A pushed roll and the roller's Willpower once its gain was counted: the points after, and those lost
    because Willpower never exceeds 10."""

    roll: YzRoll
    willpower_after: int
    lost: int


def damage_lines(pushed: YzRoll, speech: Speech) -> list[str]:
    """The Attribute damage and gear bonus lost by a roll's pushes so far, each only when there is some."""
    lines = []
    if pushed.attribute_damage:
        lines.append(speech._("☠ Attribute damage **{damage}**", damage=pushed.attribute_damage))
    if pushed.gear_damage:
        lines.append(speech._("☠ Gear bonus −{damage}", damage=pushed.gear_damage))
    return lines


def push_costs(push: PushedRoll, speech: Speech) -> list[str]:
    """What the push cost and brought, each line only when it says something."""
    pushed = push.roll
    lines = damage_lines(pushed, speech)
    if pushed.new_base_banes:  # this push's Willpower: a 1 counts once, at the push that first counts it
        line = speech._("Willpower +{gained} (now {total})", gained=pushed.new_base_banes, total=push.willpower_after)
        if push.lost:
            line += " — " + speech.ngettext("{count} point lost: Willpower never exceeds 10",
                                            "{count} points lost: Willpower never exceeds 10", push.lost)
        lines.append(line)
    if pushed.pushes > 1 and pushed.willpower_gained:
        lines.append(speech.ngettext("After {count} push: Willpower +{gained} in all",
                                     "After {count} pushes: Willpower +{gained} in all", pushed.pushes,
                                     gained=pushed.willpower_gained))
    return lines


def before_after(pushed: YzRoll, speech: Speech) -> str:
    """ "Pushed: 1 → 3 successes", "Pushed: no success → 2 successes", "Pushed: still no success"."""
    first = pushed.first
    if not pushed.success:
        if first is None or not first.success:
            return speech._("Pushed: still no success")
        return speech._("Pushed: no success")
    after = speech.ngettext("{count} success", "{count} successes", pushed.successes)
    if first is not None and first.success:
        # Translators: {before} is the number of successes before the push; {after} is e.g. "3 successes".
        return speech._("Pushed: {before} → {after}", before=speech.number(first.successes), after=after)
    return speech._("Pushed: no success → {after}", after=after)


def render_pushed(
    push: PushedRoll, odds: YzOdds | None, *, speech: Speech, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """A pushed roll: successes before → after, the dice with the rerolled ones marked, and what it cost; with
    pushes left, what the next push would reroll and (on a card with odds) cost."""
    pushed = push.roll
    card = Card(
        before_after(pushed, speech),
        _tone(pushed),
        speech._("Year Zero · pushed · {pool}", pool=pool_text(pushed, speech)),
        [(speech._(PUSHED_DICE), dice_line(pushed, speech))],
        yz_odds(odds, speech),
        "\n".join((push_costs(push, speech) or [speech._(NO_COST)]) + _more(pushed, odds, speech)),
    )
    return embed(card, speech, roller, note)


def _more(pushed: YzRoll, pool: YzOdds | None, speech: Speech) -> list[str]:
    """The next push of a roll with pushes left, and on a card with odds its cost, as lines of their own (worked out
    from the roll: the cogs pass a pushed card only its pool's odds)."""
    if not pushed.can_push:
        return []
    odds = FirstRollOdds(pool, odds_after_first(pushed)) if pool is not None else None
    return _push_line(pushed, odds, speech).splitlines()


@dataclass(frozen=True, slots=True)
class EndedRoll:
    """A roll that can no longer be pushed, as its message shows it once edited: the roll as it lies, and the line
    that says why it ended (with a link to the pushed result when /push showed it in a later message)."""

    roll: YzRoll
    ending: str


def render_ended(
    ended: EndedRoll, odds: YzOdds | None, *, speech: Speech, roller: discord.abc.User | None = None,
    note: str | None = None,
) -> discord.Embed:
    """A roll that ended: its outcome as it lies, why it ended instead of a Push line, and no push cost."""
    roll = ended.roll
    pool = pool_text(roll, speech)
    card = Card(
        before_after(roll, speech) if roll.pushed else _successes(roll, speech),
        _tone(roll),
        (speech._("Year Zero · pushed · {pool}", pool=pool) if roll.pushed
         else speech._("Year Zero · {pool}", pool=pool)),
        [(speech._(PUSHED_DICE) if roll.pushed else speech._("Dice"), dice_line(roll, speech))],
        yz_odds(odds, speech),
        "\n".join([ended.ending, *_ended_details(roll, speech)]),
    )
    return embed(card, speech, roller, note)


def _ended_details(roll: YzRoll, speech: Speech) -> list[str]:
    """What the roll's pushes cost in all (the Willpower it now stands at belongs to the push's own card)."""
    if not roll.pushed:
        return [speech._(BANES_NOTE)] if roll.base_banes or roll.gear_banes else []
    lines = damage_lines(roll, speech)
    if roll.willpower_gained:
        lines.append(speech._("Willpower +{gained}", gained=roll.willpower_gained))
    return lines or [speech._(NO_COST)]
