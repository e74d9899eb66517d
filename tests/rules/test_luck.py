"""Honest luck: the Poisson-binomial figures against all 2^n outcomes, and the luck events of each system."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import FixedDice
from rules.errors import InvalidInput
from rules.heroic.luck_events import heroic_events
from rules.heroic.odds import odds_for_heroic
from rules.heroic.roll import roll_heroic
from rules.hex.luck_events import hex_events
from rules.hex.odds import odds_for_contest, odds_for_test
from rules.hex.pool import HexPool
from rules.hex.roll import roll_contest, roll_plain, roll_test
from rules.luck import LuckEvent, distribution, luck_of
from rules.sevenkingdoms.luck_events import sevenkingdoms_events
from rules.sevenkingdoms.odds import odds_for_test as sk_odds
from rules.sevenkingdoms.roll import SkPool
from rules.sevenkingdoms.roll import roll_test as sk_roll_test
from rules.yearzero.luck_events import yearzero_first_events, yearzero_push_events
from rules.yearzero.odds import odds_after_first, odds_for_roll
from rules.yearzero.roll import push, roll_yz


def brute_force(chances, seen):
    """(P(S < seen), P(S = seen), expected) by walking all 2^n outcomes."""
    below = equal = expected = Fraction(0)
    for outcome in itertools.product((False, True), repeat=len(chances)):
        weight = Fraction(1)
        for p, hit in zip(chances, outcome, strict=True):
            weight *= p if hit else 1 - p
        hits = sum(outcome)
        expected += weight * hits
        below += weight if hits < seen else 0
        equal += weight if hits == seen else 0
    return below, equal, expected


chance = st.fractions(min_value=0, max_value=1, max_denominator=36)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(chance, st.booleans()), min_size=1, max_size=8))
def test_luck_equals_brute_force(pairs):
    events = [LuckEvent(p, hit) for p, hit in pairs]
    luck = luck_of(events)
    assert luck is not None
    below, equal, expected = brute_force([p for p, _ in pairs], luck.successes)
    assert luck.successes == sum(hit for _, hit in pairs)
    assert luck.expected == expected
    assert luck.percentile == below + equal / 2
    assert luck.at_least_this_good == 1 - below


@settings(max_examples=100, deadline=None)
@given(st.lists(chance, max_size=10))
def test_distribution_sums_to_one_and_matches_brute_force(chances):
    spread = distribution(chances)
    assert sum(spread) == 1
    for k, probability in enumerate(spread):
        assert probability == brute_force(chances, k)[1]


def test_a_typical_and_a_lucky_evening():
    coin = Fraction(1, 2)
    assert luck_of([LuckEvent(coin, True), LuckEvent(coin, False)]).percentile == Fraction(1, 2)
    lucky = luck_of([LuckEvent(Fraction(1, 6), True)] * 3)
    assert lucky.at_least_this_good == Fraction(1, 216)
    assert lucky.percentile == 1 - Fraction(1, 432)


def test_certain_events_move_the_expected_figure_not_the_percentile():
    coin = LuckEvent(Fraction(1, 2), True)
    sure = LuckEvent(Fraction(1), True)
    assert luck_of([coin, sure]).percentile == luck_of([coin]).percentile
    assert luck_of([coin, sure]).expected == Fraction(3, 2)


def test_no_events_no_luck_figure():
    assert luck_of([]) is None


def test_an_event_round_trips_as_text_and_refuses_nonsense():
    event = LuckEvent(Fraction(91, 216), True)
    assert event.as_text() == "91/216:1"
    assert LuckEvent.from_text(event.as_text()) == event
    with pytest.raises(InvalidInput):
        LuckEvent(Fraction(3, 2), True)
    with pytest.raises(InvalidInput):
        LuckEvent.from_text("1/2:maybe")


def test_hex_test_is_an_event_advancement_and_nullified_are_not():
    pool = HexPool(3)
    result = roll_test(pool, FixedDice([6, 2, 3]))
    (event,) = hex_events(result, odds_for_test(pool))
    assert event == LuckEvent(odds_for_test(pool).success, True)
    assert hex_events(roll_test(pool, FixedDice([]), advancement=True), odds_for_test(pool, advancement=True)) == ()
    empty = HexPool(1, complications=2)
    nullified = roll_test(empty, FixedDice([]), required=True)
    assert hex_events(nullified, odds_for_test(empty, required=True)) == ()


def test_hex_contest_against_a_nullified_opposition_is_a_certain_event():
    result = roll_contest(2, 0, FixedDice([1, 2]))
    (event,) = hex_events(result, odds_for_contest(2, 0))
    assert event == LuckEvent(Fraction(1), True)
    assert roll_plain(2, FixedDice([6, 6])).successes == 2  # plain rolls have no event function at all


def test_heroic_complication_counts_as_a_success():
    roll = roll_heroic(3, FixedDice([3, 4]), tn=10)  # 7 + 3 = 10 = TN: success with a complication
    (event,) = heroic_events(roll, odds_for_heroic(3, 10))
    assert event.success and event.p == odds_for_heroic(3, 10).success


def test_sevenkingdoms_automatic_is_no_event_a_rolled_test_is():
    pool = SkPool(2)
    assert sevenkingdoms_events(sk_roll_test(pool, FixedDice([]), target=0), sk_odds(pool, 0)) == ()
    rolled = sk_roll_test(pool, FixedDice([5, 4]), target=9)
    assert sevenkingdoms_events(rolled, sk_odds(pool, 9)) == (LuckEvent(sk_odds(pool, 9).success, True),)


def test_yearzero_first_roll_and_push_events():
    first = roll_yz(2, 1, 0, (), FixedDice([3, 4, 1]))
    (event,) = yearzero_first_events(first, odds_for_roll(3))
    assert event == LuckEvent(1 - Fraction(5, 6) ** 3, False)
    pushed = push(first, FixedDice([6, 2]))
    (push_event,) = yearzero_push_events(first, pushed)
    assert push_event == LuckEvent(odds_after_first(first).success_after_push, True)
    assert push_event.p == 1 - Fraction(25, 36)


def test_a_push_after_a_success_is_no_event():
    first = roll_yz(2, 0, 0, ("d8",), FixedDice([6, 3, 2]))
    assert yearzero_push_events(first, push(first, FixedDice([4, 5]))) == ()
