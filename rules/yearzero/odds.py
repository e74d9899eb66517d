"""Exact Year Zero odds, before rolling and for a roll already made, in closed form.

The dice are independent, and the push treats each die on its own: a d6 keeps a 6 or a 1 and rerolls the
rest once; an Artifact die keeps a scoring face and rerolls a blank once. So, for a player who pushes
whenever the roll can be pushed, each die's final face is independent of the others (a roll that cannot be
pushed is one where no die would change anyway). Per d6 the final face is a success with chance
1/6 + 4/6 * 1/6 = 10/36, a bane 10/36, a blank 16/36; per Artifact die with blank chance q = 5/sides, the
chance to end blank is q^2.

Only what depends on whether the push happened at all needs the coupling: Willpower and damage come only
from a push. A roll cannot be pushed when every d6 shows 6 or 1 and every Artifact die scored, chance
P_stuck = (1/3)^d6 * prod(1 - q); given that, each d6 is a 1 with chance 1/2. So the expected base banes
of rolls that were not pushed is base / 2 * P_stuck, and E[WP] = base * 10/36 - base / 2 * P_stuck.
Everything is a handful of Fraction products: fast on a cold process, and for pools beyond the roll bounds.

Several pushes (RULES.md section 6) keep the argument: each push rerolls each die on its own, so after N pushes a
d6 is a 6 with chance 1/6 * (1 + r + ... + r^N) with r = 4/6 the chance to reroll it, a 1 with the same chance,
and blank with r^(N+1); an Artifact or Pride die is blank with q^(N+1). Only a roll stuck at its first roll is
never pushed, so E[WP] over all the pushes = E[base 1s at the end] - base / 2 * P_stuck (none with N = 0).
The Pride die is a d12 read like an Artifact die: the odds count it among the Artifact dice.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache

from rules.errors import CannotPush, InvalidInput, check_range
from rules.odds import as_odds
from rules.yearzero.artifacts import parse_artifact
from rules.yearzero.dice import PRIDE_SIDES, artifact_successes
from rules.yearzero.roll import ALREADY_PUSHED, MAX_PUSHES, YzRoll

MAX_ODDS_DICE = 200  # base or gear d6s for the odds (beyond the roll bounds, still bounded)
MAX_ODDS_ARTIFACTS = 12

SIXTH = Fraction(1, 6)
D6_BLANK_FIRST = Fraction(5, 6)  # no success on one d6 roll
D6_BLANK_FINAL = Fraction(13, 18)  # no success after a push: a kept 1 or two blanks (1/6 + 4/6 * 5/6)
D6_BANE_FINAL = Fraction(10, 36)  # a 1 kept, or a blank rerolled into a 1 (1/6 + 4/6 * 1/6)
D6_SIX_FINAL = Fraction(10, 36)
D6_STUCK = Fraction(1, 3)  # shows 6 or 1: nothing to reroll
D6_AGAIN = 1 - D6_STUCK  # a push rerolls it


@cache
def d6_six_after(pushes: int) -> Fraction:
    """Chance a d6 ends on a 6 (or, alike, on a 1) after up to ``pushes`` pushes of every blank."""
    return SIXTH * sum((D6_AGAIN**k for k in range(pushes + 1)), Fraction(0))


@cache
def artifact_blank(sides: int) -> Fraction:
    """Chance an Artifact die scores no success (faces 1-5)."""
    return Fraction(sum(1 for f in range(1, sides + 1) if artifact_successes(f) == 0), sides)


@cache
def artifact_mean(sides: int) -> Fraction:
    """Expected successes of one Artifact die roll."""
    return Fraction(sum(artifact_successes(f) for f in range(1, sides + 1)), sides)


def _product(values: Sequence[Fraction]) -> Fraction:
    out = Fraction(1)
    for v in values:
        out *= v
    return out


@dataclass(frozen=True, slots=True)
class YzOdds:
    """Odds of a pool before rolling; "after push" assumes a push whenever the roll can be pushed.

    ``success_after_push`` is after one push; ``success_after_all_pushes`` and ``expected_successes_after_all_pushes``
    after every push the roll allows (``pushes``, 0-3). The bane and Willpower figures are after all the pushes
    too (with one push allowed, as always): ``expected_base_banes_after_push`` counts the 1s of a roll that could
    not be pushed as they lie (RULES.md section 5); ``expected_willpower`` (also the expected Attribute damage) and
    ``expected_gear_damage`` count only pushed rolls, since banes do nothing without a push. ``artifacts`` hold
    the Pride die as a d12 when ``pride``.
    """

    base: int
    gear: int
    artifacts: tuple[int, ...]
    success_first_roll: Fraction  # P(at least one success) on the first roll
    can_push: Fraction  # P(the first roll has a die to reroll)
    success_after_push: Fraction
    expected_successes_first_roll: Fraction
    expected_successes_after_push: Fraction
    expected_base_banes_after_push: Fraction
    expected_gear_banes_after_push: Fraction
    expected_willpower: Fraction
    expected_gear_damage: Fraction
    success_after_all_pushes: Fraction
    expected_successes_after_all_pushes: Fraction
    pride: bool = False
    pushes: int = 1

    def as_dict(self) -> dict:
        data: dict = {"base": self.base, "gear": self.gear, "artifacts": [f"d{s}" for s in self.artifacts]}
        data |= {"pride": self.pride, "pushes": self.pushes}
        figures = [name for name in self.__slots__ if isinstance(getattr(self, name), Fraction)]
        return data | {name: as_odds(getattr(self, name)) for name in figures}


def odds_for_roll(
    base: int, gear: int = 0, artifacts: Sequence[int | str] = (), *, pride: bool = False, pushes: int = 1
) -> YzOdds:
    """Exact odds for base d6s, gear d6s, Artifact dice and the Pride die, with 0-3 pushes allowed (counts may
    exceed the roll bounds)."""
    check_range("Base dice", base, 0, MAX_ODDS_DICE)
    check_range("Gear dice", gear, 0, MAX_ODDS_DICE)
    check_range("Pushes allowed", pushes, 0, MAX_PUSHES)
    sides = tuple(sorted([parse_artifact(a) for a in artifacts] + ([PRIDE_SIDES] if pride else [])))
    if len(sides) > MAX_ODDS_ARTIFACTS:
        raise InvalidInput("{count} Artifact dice given: the odds take at most {high}", count=len(sides),
                           high=MAX_ODDS_ARTIFACTS)
    if base + gear + len(sides) == 0:
        raise InvalidInput("A Year Zero roll needs at least one die: the pool is empty")
    return _odds(base, gear, sides, bool(pride), pushes)


@lru_cache(maxsize=1024)
def _odds(base: int, gear: int, sides: tuple[int, ...], pride: bool = False, pushes: int = 1) -> YzOdds:
    d6 = base + gear
    blanks = [artifact_blank(s) for s in sides]
    means = [artifact_mean(s) for s in sides]
    stuck = D6_STUCK**d6 * _product([1 - q for q in blanks])
    bane = d6_six_after(pushes)
    never_pushed = stuck / 2 if pushes else bane  # E[1s] of a d6 in a roll that is never pushed
    return YzOdds(
        base=base,
        gear=gear,
        artifacts=sides,
        success_first_roll=1 - D6_BLANK_FIRST**d6 * _product(blanks),
        can_push=1 - stuck,
        success_after_push=1 - D6_BLANK_FINAL**d6 * _product([q * q for q in blanks]),
        expected_successes_first_roll=d6 * SIXTH + sum(means, Fraction(0)),
        expected_successes_after_push=d6 * D6_SIX_FINAL
        + sum((m * (1 + q) for m, q in zip(means, blanks, strict=True)), Fraction(0)),
        expected_base_banes_after_push=base * bane,
        expected_gear_banes_after_push=gear * bane,
        expected_willpower=base * (bane - never_pushed),
        expected_gear_damage=gear * (bane - never_pushed),
        success_after_all_pushes=1 - (1 - bane) ** d6 * _product([q ** (pushes + 1) for q in blanks]),
        expected_successes_after_all_pushes=d6 * bane
        + sum((m * _geometric(q, pushes) for m, q in zip(means, blanks, strict=True)), Fraction(0)),
        pride=pride,
        pushes=pushes,
    )


def _geometric(ratio: Fraction, terms: int) -> Fraction:
    """1 + ratio + ... + ratio^terms: how often, in expectation, a die rerolled while blank is rolled."""
    return sum((ratio**k for k in range(terms + 1)), Fraction(0))


@dataclass(frozen=True, slots=True)
class PushOdds:
    """Odds of pushing a roll already made, first or pushed: its next push, and all the pushes it has left (for a
    player who pushes whenever they can). When it cannot be pushed, the figures are the roll as it lies (no push:
    no Willpower, no damage). The Willpower and damage are the next push's: the 1s it will count (RULES.md 6)."""

    can_push: bool
    success_after_push: Fraction
    expected_successes_after_push: Fraction
    expected_willpower: Fraction  # also the expected Attribute damage
    expected_gear_damage: Fraction
    success_after_all_pushes: Fraction

    def as_dict(self) -> dict:
        data: dict = {"can_push": self.can_push}
        for name in self.__slots__[1:]:
            data[name] = as_odds(getattr(self, name))
        return data


def odds_after_first(roll: YzRoll) -> PushOdds:
    """Odds of pushing this roll (a first roll, or one with pushes left): kept dice count as they lie, rerolled
    dice afresh. Rerolled dice score nothing and show no bane, so the roll's successes and banes are all kept ones;
    a later push counts only its own new 1s.
    """
    if roll.pushed and roll.pushes_left == 0:
        raise CannotPush(ALREADY_PUSHED)
    again = roll.reroll_indices
    if not again:
        nothing, lies = Fraction(0), Fraction(int(roll.success))
        return PushOdds(False, lies, Fraction(roll.successes), nothing, nothing, lies)
    # The positions are in dice order, so base dice, then gear dice, then Artifact dice: count them by bisection.
    base = roll.attribute + roll.skill
    d6 = base + roll.gear
    base_again, d6_again = bisect_left(again, base), bisect_left(again, d6)
    artifacts_again = tuple(sorted([roll.dice[i].sides for i in again[d6_again:]]))  # Artifact and Pride dice
    counted = (0, 0) if roll.pushed else (roll.base_banes, roll.gear_banes)  # a later push counts only its own
    # Positional arguments: the cache makes its key faster from them than from keywords.
    return _push_odds(
        roll.successes, *counted, base_again, d6_again - base_again, artifacts_again, roll.pushes_left
    )


@lru_cache(maxsize=1024)
def _push_odds(
    kept_successes: int,
    kept_base_banes: int,
    kept_gear_banes: int,
    base_again: int,
    gear_again: int,
    artifacts_again: tuple[int, ...],
    pushes_left: int = 1,
) -> PushOdds:
    d6 = base_again + gear_again
    blanks = [artifact_blank(s) for s in artifacts_again]
    blank = D6_BLANK_FIRST**d6 * _product(blanks)
    blank_at_last = (1 - d6_six_after(pushes_left - 1)) ** d6 * _product([q**pushes_left for q in blanks])
    return PushOdds(
        can_push=True,
        success_after_push=Fraction(1) if kept_successes else 1 - blank,
        expected_successes_after_push=kept_successes
        + d6 * SIXTH
        + sum((artifact_mean(s) for s in artifacts_again), Fraction(0)),
        expected_willpower=kept_base_banes + base_again * SIXTH,
        expected_gear_damage=kept_gear_banes + gear_again * SIXTH,
        success_after_all_pushes=Fraction(1) if kept_successes else 1 - blank_at_last,
    )


def _convolve(left: list[Fraction], right: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(left) + len(right) - 1)
    for i, p in enumerate(left):
        for j, q in enumerate(right):
            out[i + j] += p * q
    return out


def _die_first(sides: int) -> list[Fraction]:
    """P(k successes) of one die on the first roll: a d6 scores 1 on a 6, an Artifact die by its table."""
    counts = [artifact_successes(face) if sides != 6 else int(face == 6) for face in range(1, sides + 1)]
    return [Fraction(counts.count(k), sides) for k in range(max(counts) + 1)]


def _die_after_push(sides: int, pushes: int = 1) -> list[Fraction]:
    """P(k) after up to ``pushes`` pushes: a die that scored nothing is rolled again each time, except a d6
    showing 1 (a bane stays). Each scoring face is reached on the roll where it first shows."""
    first = _die_first(sides)
    again = D6_AGAIN if sides == 6 else first[0]  # the chance that a push rerolls this die
    scoring = [chance * _geometric(again, pushes) for chance in first[1:]]
    return [1 - sum(scoring, Fraction(0)), *scoring]


def success_distributions(
    base: int, gear: int = 0, artifacts: Sequence[int | str] = (), *, pride: bool = False, pushes: int = 1
) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """P(exactly k successes) for k = 0, 1, ...: on the first roll, and after every push the roll allows of every
    die that can be pushed. The dice are independent and a push rerolls each blank die on its own, so each is the
    convolution of the dice's own distributions."""
    odds = odds_for_roll(base, gear, artifacts, pride=pride, pushes=pushes)  # the same checks and reading
    first: list[Fraction] = [Fraction(1)]
    pushed: list[Fraction] = [Fraction(1)]
    for sides in [6] * (odds.base + odds.gear) + list(odds.artifacts):
        first = _convolve(first, _die_first(sides))
        pushed = _convolve(pushed, _die_after_push(sides, pushes))
    return tuple(first), tuple(pushed)


def pool_odds(roll: YzRoll) -> YzOdds:
    """The odds of a roll's pool before rolling, with its Pride die and the pushes it allows."""
    base = roll.attribute + roll.skill
    return odds_for_roll(base, roll.gear, roll.artifacts, pride=roll.pride, pushes=roll.pushes_allowed)
