"""Exact odds of HEX rolls, by counting face sequences rather than enumerating them.

n dice show 6**n equally likely face sequences. Of these, comb(n, k) * 5**(n - k) hold exactly k sixes. A
Mishap needs no 6 and every Hazard Die on 1: the h Hazard Dice are fixed and the other n - h dice show 1-5,
5**(n - h) sequences. A casting with c Control dice fails with zero successes and no Control skull in
4**c * 5**(n - c) sequences, which gives the losses of control; of those, the Affinity die shows its skull in
a fifth, the fizzles. Two sides roll independently, so their counts multiply and a Contest sums one side's
counts against the other's running totals: a 30-against-30 Contest is a few dozen integer products. Each
probability is one count over 6**(dice rolled), made a Fraction once; results are cached by pool size.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from rules.errors import check_range
from rules.hex.pool import MAX_POOL, MAX_RISK, HexPool, casting_dice_count, check_attempt, hazard_dice_count, pool_size
from rules.odds import ONE, ZERO, Dist, as_odds, dist_as_odds, expectation

# Sequence counts --------------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def success_counts(n: int) -> tuple[int, ...]:
    """counts[k]: how many of the 6**n face sequences of n dice hold exactly k sixes."""
    return tuple(comb(n, k) * 5 ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=256)
def at_least_counts(n: int) -> tuple[int, ...]:
    """counts[k]: how many face sequences of n dice hold at least k sixes (k = 0..n)."""
    running, out = 0, []
    for count in reversed(success_counts(n)):
        running += count
        out.append(running)
    return tuple(reversed(out))


def mishap_count(n: int) -> int:
    """Sequences of n dice with no 6 and every Hazard Die on 1 (none for an empty pool)."""
    return 5 ** (n - hazard_dice_count(n)) if n > 0 else 0


def casting_hazard_counts(n: int, risk: int) -> tuple[int, int]:
    """(loss of control, fizzle): zero-success casting sequences with a Control skull, or only Affinity's."""
    if n <= 0:
        return 0, 0
    affinity, control = casting_dice_count(n, risk)
    calm = 4**control * 5 ** (n - control)  # no 6 anywhere, no Control die on 1
    return 5**n - calm, calm // 5 if affinity else 0


def _fraction_dist(counts: tuple[int, ...], total: int) -> Dist:
    return tuple(Fraction(count, total) for count in counts)


# Results ----------------------------------------------------------------------------------------------------


def json_name(field: str) -> str:
    """A field's name in the JSON every system shares: a Contest that nobody wins is ``no_winner`` there, as a
    Seven Kingdoms competition's is (rules/cli/output.schema.json)."""
    return "no_winner" if field == "neither" else field


@dataclass(frozen=True, slots=True)
class HexTestOdds:
    """Odds of an uncontested Test. ``successes`` is empty when nothing is rolled."""

    size: int
    hazard_dice: int
    rolled: bool
    success: Fraction
    mishap: Fraction
    successes: Dist
    expected_successes: Fraction

    def as_dict(self) -> dict:
        return {
            "size": self.size,
            "hazard_dice": self.hazard_dice,
            "rolled": self.rolled,
            "success": as_odds(self.success),
            "mishap": as_odds(self.mishap),
            "successes": dist_as_odds(self.successes),
            "expected_successes": as_odds(self.expected_successes),
        }


@dataclass(frozen=True, slots=True)
class HexContestOdds:
    """Odds of a Contest: who succeeds, and each side's chance of a Mishap."""

    acting_size: int
    opposing_size: int
    acting_wins: Fraction
    opposing_wins: Fraction
    neither: Fraction
    acting_mishap: Fraction
    opposing_mishap: Fraction

    def as_dict(self) -> dict:
        sizes = {"acting_size": self.acting_size, "opposing_size": self.opposing_size}
        names = ("acting_wins", "opposing_wins", "neither", "acting_mishap", "opposing_mishap")
        return sizes | {json_name(name): as_odds(getattr(self, name)) for name in names}


@dataclass(frozen=True, slots=True)
class HexCastOdds:
    """Odds of a casting, resisted or not: success and the caster's hazards (and the resistance's)."""

    size: int
    risk: int
    affinity_dice: int
    control_dice: int
    opposing_size: int | None
    success: Fraction
    loss_of_control: Fraction
    fizzle: Fraction
    opposing_wins: Fraction = ZERO
    neither: Fraction = ZERO
    opposing_mishap: Fraction = ZERO

    def as_dict(self) -> dict:
        data = {name: getattr(self, name) for name in ("size", "risk", "affinity_dice", "control_dice")}
        names = ("success", "loss_of_control", "fizzle", "opposing_wins", "neither", "opposing_mishap")
        return data | {"opposing_size": self.opposing_size} | {json_name(n): as_odds(getattr(self, n)) for n in names}


@dataclass(frozen=True, slots=True)
class HexPlainOdds:
    """Odds of a no-Mishap roll: how many 6s."""

    dice: int
    successes: Dist
    at_least_one: Fraction
    expected_successes: Fraction

    def as_dict(self) -> dict:
        return {
            "dice": self.dice,
            "successes": dist_as_odds(self.successes),
            "at_least_one": as_odds(self.at_least_one),
            "expected_successes": as_odds(self.expected_successes),
        }


# Cached computations by pool size ---------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _test_odds(size: int, required: bool = False, advancement: bool = False) -> HexTestOdds:
    """Odds of a Test of a pool of the given size (a voluntary nullified pool raises CannotAttempt)."""
    check_attempt(size, required=required, advancement=advancement)
    if advancement or size <= 0:
        certain = ONE if advancement else ZERO
        return HexTestOdds(size, 0, False, certain, ZERO, (ONE,), ZERO)  # nothing rolled: 0 successes, surely
    total = 6**size
    successes = _fraction_dist(success_counts(size), total)
    failure = successes[0]
    mishap = Fraction(mishap_count(size), total)
    return HexTestOdds(size, hazard_dice_count(size), True, 1 - failure, mishap, successes, Fraction(size, 6))


def _acting_wins_count(acting: int, opposing: int) -> int:
    """Sequences of both pools (both rolled) where the opposing side has no more successes than the acting."""
    at_least = at_least_counts(acting)  # zip stops at acting + 1: more sixes than that cannot be matched
    return sum(theirs * ours for theirs, ours in zip(success_counts(opposing), at_least, strict=False))


def _winners(acting: int, opposing: int, advancement: bool) -> tuple[Fraction, Fraction, Fraction] | None:
    """(acting wins, opposing wins, neither) when no dice decide it; None when both sides roll."""
    if advancement:
        return ONE, ZERO, ZERO
    if acting <= 0:
        return (ZERO, ZERO, ONE) if opposing <= 0 else (ZERO, ONE, ZERO)
    if opposing <= 0:
        return ONE, ZERO, ZERO
    return None


@lru_cache(maxsize=1024)
def _contest_odds(acting: int, opposing: int, advancement: bool = False) -> HexContestOdds:
    """Odds of a Contest between pools of the given sizes."""
    decided = _winners(acting, opposing, advancement)
    if decided is not None:
        return HexContestOdds(acting, opposing, *decided, ZERO, ZERO)
    total = 6 ** (acting + opposing)
    wins = Fraction(_acting_wins_count(acting, opposing), total)
    opposing_scores = 6**opposing - 5**opposing  # the opposing side's sequences with a 6
    acting_mishap = Fraction(mishap_count(acting) * opposing_scores, total)
    opposing_mishap = Fraction(mishap_count(opposing), 6**opposing)  # its zero always fails
    return HexContestOdds(acting, opposing, wins, 1 - wins, ZERO, acting_mishap, opposing_mishap)


@lru_cache(maxsize=1024)
def _cast_odds(
    size: int, risk: int, opposing: int | None = None, required: bool = False, advancement: bool = False
) -> HexCastOdds:
    """Odds of a casting at the given Risk, resisted by a pool of ``opposing`` dice or not."""
    dice = casting_dice_count(size, risk)
    if opposing is None:
        plain = _test_odds(size, required, advancement)
        lost, fizzled = casting_hazard_counts(size, risk) if plain.rolled else (0, 0)
        total = 6 ** max(size, 0)
        hazards = Fraction(lost, total), Fraction(fizzled, total)
        return HexCastOdds(size, risk, *dice, None, plain.success, *hazards)
    contest = _contest_odds(size, opposing, advancement)
    lost, fizzled = 0, 0
    if size > 0 and opposing > 0 and not advancement:
        scoring = 6**opposing - 5**opposing  # the resistance scores: a zero-success cast fails
        lost, fizzled = (count * scoring for count in casting_hazard_counts(size, risk))
    total = 6 ** (max(size, 0) + max(opposing, 0))
    return HexCastOdds(
        size, risk, *dice, opposing, contest.acting_wins, Fraction(lost, total), Fraction(fizzled, total),
        contest.opposing_wins, contest.neither, contest.opposing_mishap,
    )


@lru_cache(maxsize=1024)
def _plain_odds(count: int) -> HexPlainOdds:
    """Odds of a no-Mishap roll of count dice."""
    successes = _fraction_dist(success_counts(count), 6**count)
    return HexPlainOdds(count, successes, 1 - successes[0], expectation(successes))


# What the CLI and the bot call ------------------------------------------------------------------------------


def odds_for_test(pool: HexPool | int, *, required: bool = False, advancement: bool = False) -> HexTestOdds:
    """Exact odds of ``roll_test`` with the same arguments."""
    return _test_odds(pool_size(pool), required, advancement)


def odds_for_contest(
    acting: HexPool | int, opposing: HexPool | int, *, advancement: bool = False
) -> HexContestOdds:
    """Exact odds of ``roll_contest`` with the same arguments."""
    sizes = pool_size(acting, "Acting pool"), pool_size(opposing, "Opposing pool")
    return _contest_odds(*sizes, advancement)


def odds_for_cast(
    pool: HexPool | int, risk: int, *, required: bool = False, advancement: bool = False,
    opposing: HexPool | int | None = None,
) -> HexCastOdds:
    """Exact odds of ``roll_cast`` with the same arguments."""
    check_range("Risk", risk, 0, MAX_RISK)
    against = None if opposing is None else pool_size(opposing, "Opposing pool")
    return _cast_odds(pool_size(pool), risk, against, required, advancement)


def odds_for_plain(count: int) -> HexPlainOdds:
    """Exact odds of ``roll_plain`` with the same count."""
    return _plain_odds(check_range("Dice", count, 1, MAX_POOL))
