"""Honest luck: the Poisson-binomial figures against all 2^n outcomes (each system's luck events are tested in
tests/rules/<system>/test_luck_events.py)."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import InvalidInput
from rules.luck import LuckEvent, distribution, luck_of


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
