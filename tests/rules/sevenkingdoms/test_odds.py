"""Exact Seven Kingdoms odds against icepool and against brute-force enumeration of every face."""

from collections import Counter
from fractions import Fraction
from itertools import product

import icepool
import pytest

from rules.dice import FixedDice
from rules.errors import CannotAttempt, InvalidInput
from rules.sevenkingdoms.competition import roll_competition
from rules.sevenkingdoms.odds import competition_odds, odds_for_test, result_distribution
from rules.sevenkingdoms.roll import SkPool, roll_test


def icepool_results(pool, die=icepool.d6):
    """icepool's distribution of the result: drop the `discard` highest, keep the next test-dice-many, sum."""
    summed = die.pool(pool.dice_rolled).highest(pool.test_dice, drop=pool.discard).sum()
    return {outcome - pool.injuries: summed.probability(outcome) for outcome in summed.outcomes()}


def band(margin):
    """Degrees from the seed's table, written out row by row."""
    for low, degrees in ((15, 4), (10, 3), (5, 2), (0, 1)):
        if margin >= low:
            return degrees
    return 0


def enumerate_pool(pool, difficulty):
    """Every outcome of the pool read by hand: distribution, complication, degrees, failure bands."""
    total = 6**pool.dice_rolled
    counts, degrees, events = Counter(), Counter(), Counter()
    for faces in product(range(1, 7), repeat=pool.dice_rolled):
        ranked = sorted(faces, reverse=True)
        result = sum(ranked[pool.discard: pool.discard + pool.test_dice]) - pool.injuries
        counts[result] += 1
        degrees[band(result - difficulty)] += 1
        if result < difficulty:
            events["complication"] += 1 in faces
            events["marginal" if difficulty - result <= 4 else "critical"] += 1
    return {
        "distribution": {r: Fraction(n, total) for r, n in counts.items()},
        "degrees": tuple(Fraction(degrees[k], total) for k in range(5)),
        "complication": Fraction(events["complication"], total),
        "marginal": Fraction(events["marginal"], total),
        "critical": Fraction(events["critical"], total),
        "expected_degrees": Fraction(sum(k * n for k, n in degrees.items()), total),
        "expected_result": Fraction(sum(r * n for r, n in counts.items()), total),
    }


SMALL = [SkPool(rank, bonus, discard=discard, injuries=injuries)
         for rank in (1, 2, 3) for bonus in (0, 1, 2) for discard in (0, 1, 2, 4) for injuries in (0, 3)
         if rank + bonus <= 4]


@pytest.mark.parametrize("pool", SMALL, ids=lambda p: f"{p.notation}-{p.injuries}I")
def test_odds_match_brute_force_enumeration(pool):
    difficulty = 7
    seen = enumerate_pool(pool, difficulty)
    odds = odds_for_test(pool, difficulty, kind="conflict")
    assert odds.distribution == result_distribution(pool) == seen["distribution"]
    assert odds.degrees == seen["degrees"]
    assert odds.success == 1 - seen["degrees"][0]
    assert odds.complication == seen["complication"]
    assert (odds.marginal_failure, odds.critical_failure) == (seen["marginal"], seen["critical"])
    assert odds.expected_degrees == seen["expected_degrees"]
    assert odds.expected_result == seen["expected_result"]


@pytest.mark.parametrize("pool", [SkPool(2), SkPool(1, 2, discard=1), SkPool(3, wounds=1, aid=True),
                                  SkPool(2, 1, discard=3, injuries=1)], ids=lambda p: p.notation)
def test_odds_match_counting_every_roll_of_the_engine(pool):
    """roll_test over every face sequence gives the same success, complication and degrees as the odds."""
    total = 6**pool.dice_rolled
    success, complication, degrees = 0, 0, Counter()
    for faces in product(range(1, 7), repeat=pool.dice_rolled):
        test = roll_test(pool, FixedDice(faces), difficulty="Routine")
        success += test.success
        complication += test.complication
        degrees[test.degrees] += 1
    odds = odds_for_test(pool, "Routine")
    assert (odds.success, odds.complication) == (Fraction(success, total), Fraction(complication, total))
    assert odds.degrees == tuple(Fraction(degrees[k], total) for k in range(5))


GRID = [SkPool(rank, bonus, discard=discard, injuries=injuries)
        for rank in range(1, 7) for bonus in (0, 1, 3) for discard in (0, 1, 3) for injuries in (0, 2)]
LARGE = [SkPool(10, 10, discard=3), SkPool(10, 10, discard=3, aid=True), SkPool(10, 10, discard=20),
         SkPool(7, 5, discard=10, injuries=4), SkPool(3, 10, discard=2), SkPool(10, 0, wounds=4, injuries=10)]


def pool_id(pool):
    return f"{pool.test_dice}D{pool.bonus_dice}B{pool.discard}P{pool.injuries}I"


@pytest.mark.parametrize("pool", GRID + LARGE, ids=pool_id)
def test_result_distribution_equals_icepool(pool):
    assert result_distribution(pool) == icepool_results(pool)


@pytest.mark.parametrize("pool", GRID[::5] + LARGE[:2], ids=pool_id)
@pytest.mark.parametrize("difficulty", [3, 12, 21])
def test_success_and_complication_equal_icepool(pool, difficulty):
    odds = odds_for_test(pool, difficulty, kind="conflict")
    everything = icepool_results(pool)
    no_ones = icepool_results(pool, icepool.Die([2, 3, 4, 5, 6]))  # given that no die shows 1
    chance_no_one = Fraction(5, 6) ** pool.dice_rolled
    failing = sum(p for r, p in everything.items() if r < difficulty)
    failing_without_one = chance_no_one * sum(p for r, p in no_ones.items() if r < difficulty)
    assert odds.success == 1 - failing
    assert odds.complication == failing - failing_without_one


def test_the_benchmark_query_is_exact():
    """Speed is measured in bench/odds.py; here only the answer of that worst case is checked."""
    pool = SkPool(10, 10, discard=3)
    odds = odds_for_test(pool, "Hard")
    assert odds.distribution == icepool_results(pool)
    assert sum(odds.degrees) == 1 and odds.success == sum(odds.degrees[1:])


def test_odds_follow_the_same_order_of_checks():
    with pytest.raises(CannotAttempt, match="Rank 1 is below the minimum rank 3 for a test of difficulty Hard"):
        odds_for_test(SkPool(1), "Hard")
    automatic = odds_for_test(SkPool(1, wounds=1), "Automatic")
    assert (automatic.status, automatic.success, automatic.complication) == ("automatic", 1, 0)
    assert (automatic.degrees, automatic.expected_degrees, automatic.distribution) == ((), None, {})
    nothing = odds_for_test(SkPool(2, 3, wounds=2), "Easy")
    assert (nothing.status, nothing.success, nothing.complication) == ("no_test_dice", 0, 0)
    assert nothing.degrees[0] == 1
    defense_zero = odds_for_test(SkPool(1), 0, kind="conflict")
    assert defense_zero.status == "rolled"
    assert defense_zero.distribution == {r: Fraction(1, 6) for r in range(1, 7)}
    assert result_distribution(SkPool(0, 2)) == {}
    with pytest.raises(InvalidInput, match="Unknown kind"):
        odds_for_test(SkPool(1), 3, kind="duel")


def test_discards_taking_every_die_and_injuries_give_a_negative_certain_result():
    assert result_distribution(SkPool(2, 1, discard=3, injuries=2)) == {-2: 1}
    odds = odds_for_test(SkPool(2, 1, discard=3, injuries=2), 0, kind="conflict")
    assert odds.success == 0 and odds.complication == 1 - Fraction(5, 6) ** 3
    assert odds.critical_failure == 0 and odds.marginal_failure == 1


def test_as_dict_carries_exact_strings_and_floats():
    data = odds_for_test(SkPool(2), "Challenging").as_dict()
    assert data["success"] == {"exact": "5/18", "float": 5 / 18}  # 9 or more on 2d6: 10 of 36
    assert data["degrees"]["0"]["exact"] == "13/18"
    assert data["results"]["12"] == {"exact": "1/36", "float": 1 / 36}
    assert data["status"] == "rolled" and data["expected_result"]["exact"] == "7/1"


# --- competitions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [(SkPool(5, 2), SkPool(4, 1)), (SkPool(2), SkPool(2)),
     (SkPool(3, 1, discard=1), SkPool(2, 2, injuries=1))],
    ids=lambda p: p.notation,
)
def test_two_person_competition_equals_icepool(first, second):
    a, b = (icepool.d6.pool(p.dice_rolled).highest(p.test_dice, drop=p.discard).sum() - p.injuries
            for p in (first, second))
    odds = competition_odds([first, second])
    assert odds.win == ((a > b).probability(True), (b > a).probability(True))
    assert odds.tie == (a == b).probability(True) and odds.no_winner == 0


def test_three_way_competition_equals_every_roll_of_the_engine():
    participants = [("A", SkPool(1)), ("B", SkPool(1, 1)), ("C", SkPool(2)), ("D", SkPool(0, 3))]
    wins, ties = Counter(), 0
    for faces in product(range(1, 7), repeat=5):
        competition = roll_competition(participants, FixedDice(faces))
        wins[competition.winner] += 1
        ties += competition.tie
    odds = competition_odds([pool for _, pool in participants])
    assert odds.win == tuple(Fraction(wins[name], 6**5) for name, _ in participants)
    assert odds.win[3] == 0 and odds.tie == Fraction(ties, 6**5)


def test_competition_odds_edges():
    alone = competition_odds([SkPool(1), SkPool(0, 2)])
    assert (alone.win, alone.tie, alone.no_winner) == ((1, 0), 0, 0)
    nobody = competition_odds([SkPool(0), SkPool(1, wounds=1)])
    assert (nobody.win, nobody.tie, nobody.no_winner) == ((0, 0), 0, 1)
    with pytest.raises(InvalidInput, match="2 to 25 participants, not 1"):
        competition_odds([SkPool(1)])
    many = competition_odds([SkPool(10, 10, discard=3)] * 25)
    assert many.win[0] == many.win[24] and sum(many.win) + many.tie == 1
