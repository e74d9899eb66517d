"""Exact odds of Seven Kingdoms tests and competitions, in Fractions.

A pool's result is the sum of the dice ranked discard+1 .. discard+keep from the top among n = keep + bonus
dice, less injuries. Rather than enumerate 6**n outcomes, ``_kept_sum_counts`` walks the faces from 6 down
to 1 (order statistics): at each face it chooses how many of the dice not yet placed show it (comb(left, k)
ways); they take the next k places from the top, and those landing on kept places add face × their number to
the sum. Once every kept place is filled, the dice still unplaced may show any lower face, so that branch
closes at once. Each "placed so far" state keeps its whole sum distribution packed in one Python integer
(the count for sum s in bits s*slot ..), so a step is one multiplication and one shift: 10D + 10B − 3P takes
under a millisecond. Counts stay whole numbers until the end, when they become Fractions of 6**n.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, prod

from rules.errors import InvalidInput
from rules.odds import as_odds, dist_as_odds
from rules.sevenkingdoms.competition import MAX_PARTICIPANTS
from rules.sevenkingdoms.roll import (
    DEGREE_NAMES,
    SIDES,
    SkPool,
    check_minimum_rank,
    degrees_for,
    difficulty_number,
    failure_band,
)


@lru_cache(maxsize=4096)
def _settled_ways(left: int, spare: int, lower: int) -> int:
    """Ways for `left` dice to put at most `spare` of them on `lower` lower faces and the rest on this one."""
    return sum(comb(left, j) * lower**j for j in range(min(spare, left) + 1))


def _unpack(packed: int, slot: int, size: int) -> tuple[int, ...]:
    mask = (1 << slot) - 1
    return tuple((packed >> (total * slot)) & mask for total in range(size))


@lru_cache(maxsize=2048)
def _kept_sum_counts(dice: int, keep: int, discard: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Outcomes of `dice` d6 by the sum of the dice ranked discard+1 .. discard+keep from the top (index =
    sum): first among all 6**dice outcomes, then among the 5**dice outcomes in which no die shows 1.

    Both counts place the same dice in the same states; only the faces left to the unplaced dice differ once
    the kept places are full (face-1 lower faces, or face-2 when 1 is barred), so one pass serves both.
    """
    slot = (SIDES**dice).bit_length() + 1  # no count reaches 6**dice, so packed coefficients never overlap
    end = min(discard + keep, dice) if discard < dice else 0  # places discard..end-1 are kept
    if end == 0:
        return (SIDES**dice,) + (0,) * SIDES * keep, ((SIDES - 1) ** dice,) + (0,) * SIDES * keep
    spare = dice - end  # dice that may fall below the last kept place
    everything = without_one = 0
    states = [1] + [0] * end  # dice placed so far (all above this face) -> packed distribution of kept sums
    for face in range(SIDES, 0, -1):
        following = [0] * (end + 1)
        for placed in range(end):
            packed = states[placed]
            if not packed:
                continue
            left, fills = dice - placed, end - placed  # `fills` more dice on this face fill every kept place
            skipped = min(max(discard - placed, 0), fills)  # the first dice placed here take discarded places
            for k in range(skipped if face > 1 else 0):  # all on discarded places: the sum stays
                following[placed + k] += packed * comb(left, k)
            for k in range(skipped if face > 1 else fills, fills):
                following[placed + k] += (packed * comb(left, k)) << ((k - skipped) * face * slot)
            settled = packed << (face * (fills - skipped) * slot)
            everything += settled * _settled_ways(left, spare, face - 1)
            if face > 1:
                without_one += settled * _settled_ways(left, spare, face - 2)
        states = following
    size = SIDES * keep + 1
    return _unpack(everything, slot, size), _unpack(without_one, slot, size)


def _results(pool: SkPool) -> list[tuple[int, int, int]]:
    """(result, outcomes, outcomes without a 1) for every possible result of a pool with test dice."""
    counts, counts_without_one = _kept_sum_counts(pool.dice_rolled, pool.test_dice, pool.discard)
    pairs = enumerate(zip(counts, counts_without_one, strict=True))
    return [(total - pool.injuries, n, m) for total, (n, m) in pairs if n]


def result_distribution(pool: SkPool) -> dict[int, Fraction]:
    """P(result) for every possible result, less injuries (so it may be negative); empty with no test die."""
    if not pool.test_dice:
        return {}
    total = SIDES**pool.dice_rolled
    return {result: Fraction(n, total) for result, n, _ in _results(pool)}


@dataclass(frozen=True, slots=True)
class SkTestOdds:
    """Odds of a basic or conflict test before rolling.

    status mirrors roll_test: "automatic" (success 1, no degrees: degrees is () and expected_degrees None),
    "no_test_dice" (certain failure without a roll) or "rolled". degrees[k] is P(k degrees), 0 = failure.
    outcomes holds (result, number of the `total` equally likely outcomes giving it); ``distribution`` turns
    them into probabilities.
    """

    kind: str
    difficulty: int
    status: str
    outcomes: tuple[tuple[int, int], ...]
    total: int
    success: Fraction
    complication: Fraction
    marginal_failure: Fraction
    critical_failure: Fraction
    degrees: tuple[Fraction, ...]
    expected_degrees: Fraction | None
    expected_result: Fraction | None

    @property
    def failure(self) -> Fraction:
        return 1 - self.success

    @property
    def distribution(self) -> dict[int, Fraction]:
        """P(result) for every possible result; empty when nothing is rolled."""
        return {result: Fraction(n, self.total) for result, n in self.outcomes}

    def as_dict(self) -> dict:
        expected = self.expected_result
        return {
            "kind": self.kind, "difficulty": self.difficulty, "status": self.status,
            "success": as_odds(self.success), "failure": as_odds(self.failure),
            "complication": as_odds(self.complication),
            "marginal_failure": as_odds(self.marginal_failure),
            "critical_failure": as_odds(self.critical_failure),
            "degrees": dist_as_odds(self.degrees),
            "expected_degrees": None if self.expected_degrees is None else as_odds(self.expected_degrees),
            "expected_result": None if expected is None else as_odds(expected),
            "results": dist_as_odds(self.distribution),
        }


def _no_roll(kind: str, number: int, status: str) -> SkTestOdds:
    zero, one = Fraction(0), Fraction(1)
    if status == "automatic":
        return SkTestOdds(kind, number, status, (), 1, one, zero, zero, zero, (), None, None)
    certain_failure = (one,) + (zero,) * len(DEGREE_NAMES)
    return SkTestOdds(kind, number, status, (), 1, zero, zero, zero, zero, certain_failure, zero, None)


def _rolled(pool: SkPool, kind: str, number: int) -> SkTestOdds:
    """Odds of a rolled test, counted in whole outcomes and divided by 6**n once at the end."""
    results, total = _results(pool), SIDES**pool.dice_rolled
    degrees = [0] * (len(DEGREE_NAMES) + 1)
    bands = {"marginal": 0, "critical": 0}
    complication = 0  # failures with a 1 = all failures - failures in which no die shows 1
    for result, n, without_one in results:
        if result >= number:
            degrees[degrees_for(result - number)] += n
        else:
            degrees[0] += n
            bands[failure_band(number - result)] += n
            complication += n - without_one
    return SkTestOdds(
        kind, number, "rolled", tuple((result, n) for result, n, _ in results), total,
        Fraction(total - degrees[0], total), Fraction(complication, total),
        Fraction(bands["marginal"], total), Fraction(bands["critical"], total),
        tuple(Fraction(n, total) for n in degrees),
        Fraction(sum(k * n for k, n in enumerate(degrees)), total),
        Fraction(sum(result * n for result, n, _ in results), total),
    )


@lru_cache(maxsize=1024)
def odds_for_test(pool: SkPool, difficulty: str | int, *, kind: str = "basic") -> SkTestOdds:
    """Exact odds of roll_test(pool, difficulty=difficulty, kind=kind): the same checks, the same errors."""
    if kind not in ("basic", "conflict"):
        raise InvalidInput("Unknown kind of test {kind!r}: use basic or conflict", kind=kind)
    number = difficulty_number(difficulty)
    if kind == "basic":
        check_minimum_rank(pool.rank, number)
        if number == 0:
            return _no_roll(kind, number, "automatic")
    if not pool.test_dice:
        return _no_roll(kind, number, "no_test_dice")
    return _rolled(pool, kind, number)


@dataclass(frozen=True, slots=True)
class SkCompetitionOdds:
    """Odds of a competition: win[i] = P(participant i wins outright), tie = P(a tie at the top).

    no_winner is 1 when no participant has a test die (nobody can win), else 0.
    """

    win: tuple[Fraction, ...]
    tie: Fraction
    no_winner: Fraction

    def as_dict(self) -> dict:
        return {"win": [as_odds(p) for p in self.win], "tie": as_odds(self.tie),
                "no_winner": as_odds(self.no_winner)}


def _counts_below(outcomes: list[tuple[int, int, int]], total: int) -> Callable[[int], int]:
    """A function giving how many of a pool's `total` outcomes fall below a result."""
    counts = {result: n for result, n, _ in outcomes}
    low, high = min(counts), max(counts)
    below, running = {}, 0
    for result in range(low, high + 1):
        below[result] = running
        running += counts.get(result, 0)
    return lambda result: below.get(result, 0 if result < low else total)


def competition_odds(pools: Sequence[SkPool]) -> SkCompetitionOdds:
    """Exact odds of a competition between these pools (in participant order), counted in whole outcomes."""
    if not 2 <= len(pools) <= MAX_PARTICIPANTS:
        raise InvalidInput("A competition needs 2 to {high} participants, not {count}", high=MAX_PARTICIPANTS,
                           count=len(pools))
    rolling = [i for i, pool in enumerate(pools) if pool.test_dice]
    if not rolling:
        return SkCompetitionOdds(tuple(Fraction(0) for _ in pools), Fraction(0), Fraction(1))
    outcomes = {i: _results(pools[i]) for i in rolling}
    totals = {i: SIDES ** pools[i].dice_rolled for i in rolling}
    below = {i: _counts_below(outcomes[i], totals[i]) for i in rolling}
    everyone = prod(totals.values())
    win = [Fraction(0)] * len(pools)
    for i in rolling:
        ways = 0
        for result, n, _ in outcomes[i]:
            ways += n * prod(below[j](result) for j in rolling if j != i)
        win[i] = Fraction(ways, everyone)
    return SkCompetitionOdds(tuple(win), 1 - sum(win, Fraction(0)), Fraction(0))
