"""The luck events of HEX rolls: a Test or Contest is one, an Advancement, a nullified side or a plain roll none."""

from fractions import Fraction

from rules.dice import FixedDice
from rules.hex.luck_events import hex_events
from rules.hex.odds import odds_for_contest, odds_for_test
from rules.hex.pool import HexPool
from rules.hex.roll import roll_contest, roll_plain, roll_test
from rules.luck import LuckEvent


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
